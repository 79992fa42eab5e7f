"""No import circle inside any product package (every package pyproject.toml ships: today
`engines`, `storage`, `bot`): every import, at module level, inside a function or under
`TYPE_CHECKING`, goes one way (read from the source, nothing imported); and no product
module imports the development package `deucebot_dev`."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.packages import DEV_PACKAGE, ROOT, product_packages


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


PACKAGES = product_packages()
"""The product packages (what `pip install .` ships), from pyproject.toml's package list."""


def _modules() -> dict[str, Path]:
    return {_module(path): path for pkg in PACKAGES for path in (ROOT / pkg).rglob("*.py")}


def _imports(path: Path, known: set[str]) -> set[str]:
    """The product modules `path` imports (`from package import submodule` names the
    submodule)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{alias.name}" for alias in node.names}
            inner = subs & known
            found.update(inner)
            if len(inner) < len(subs) and node.module in known:
                found.add(node.module)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, known) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_function_level_and_type_checking_imports() -> None:
    graph = _graph()
    assert "bot.discord.front" in graph["bot.discord.client"]
    assert "bot.runtime.snapshot" in graph["bot.runtime.front"]  # under TYPE_CHECKING
    assert "storage.postgres" in graph["storage.backend"]  # inside a function
    assert "engines.base" in graph["engines.bigtwo"]


def test_no_import_circle_in_any_product_package() -> None:
    assert _cycle(_graph()) is None


def test_discord_modules_never_import_the_client_but_the_cogs_it_loads_by_name() -> None:
    graph = _graph()
    importers = {name for name, imported in graph.items() if "bot.discord.client" in imported}
    assert all(
        name.startswith("bot.discord.cogs.") or name == "bot.discord.app" for name in importers
    ), importers


def _imported_names(path: Path) -> set[str]:
    """Every module name `path` imports, product or not (absolute imports)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_the_graph_covers_every_package_of_the_checkout_but_tests_and_dev_tools() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert packages - {"tests", DEV_PACKAGE} == set(PACKAGES)
    assert {"engines", "storage", "bot"} <= set(PACKAGES)


def test_no_product_module_imports_the_development_package() -> None:
    importers = {
        name
        for name, path in _modules().items()
        for imported in _imported_names(path)
        if imported == DEV_PACKAGE or imported.startswith(f"{DEV_PACKAGE}.")
    }
    # The one import: the crash tests' kill points, loaded by the process entry only when
    # `DEUCEBOT_KILL_AT` names one (`bot.discord.app.delivery_hooks_from_env`).
    assert importers == {"bot.discord.app"}
    # `deucebot bench` loads it by name when asked (`bot.cli.DEV_PACKAGE`); none of the other
    # product modules may rely on it.
    naming = {name for name, path in _modules().items() if DEV_PACKAGE in path.read_text()}
    assert naming == {"bot.cli", "bot.discord.app"}


def test_the_development_package_check_sees_imports_anywhere(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import deucebot_dev.bench\n"
        "def f() -> None:\n    from deucebot_dev.pg_server import free_port\n"
    )
    assert {"deucebot_dev.bench", "deucebot_dev.pg_server"} <= _imported_names(source)
