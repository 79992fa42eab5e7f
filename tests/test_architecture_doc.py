"""docs/architecture.md against the code: every file, module or package it names exists
(a module that is gone fails), and every package of the product and of the development
package is listed in it (a package missing from the doc fails)."""

from __future__ import annotations

import re

from tests.packages import DEV_PACKAGE, ROOT, product_packages

DOC = ROOT / "docs" / "architecture.md"
TOPS = (*product_packages(), DEV_PACKAGE, "tests")
"""The folders whose paths the doc names, from the repository's root."""


def _absolute(token: str) -> bool:
    return token.split("/", 1)[0] in TOPS and "/" in token


def named_paths(text: str) -> set[str]:
    """Every path the doc names: backticked paths from the repository's root anywhere, and in
    the layout table's first column also the names that follow a path, each in that path's
    folder (`storage/sqlite.py`, `opening.py` names storage/opening.py). `<game>`,
    `{en,fr}` and `*` stand for any name."""
    named = {token for token in re.findall(r"`([^`\s]+)`", text) if _absolute(token)}
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        folder: str | None = None
        for token in re.findall(r"`([^`]+)`", line.split("|")[1]):
            if _absolute(token):
                folder = token.rstrip("/").rsplit("/", 1)[0] if "/" in token.rstrip("/") else ""
                named.add(token)
            elif folder is not None:
                named.add(f"{folder}/{token}")
    diagram = text.split("```", 2)[1]  # the layers: paths, then two spaces, then their job
    for line in diagram.splitlines():
        for token in re.split(r"\s{2,}", line.strip())[0].split(", "):
            if _absolute(token):
                named.add(token)
    return named


def _pattern(path: str) -> str:
    """`path` as a glob: `<game>` and `{en,fr,uk}` stand for any name."""
    return re.sub(r"<[^>]+>|\{[^}]+\}", "*", path.rstrip("/"))


def _exists(path: str) -> bool:
    pattern = _pattern(path)
    if "*" in pattern:
        return any(ROOT.glob(pattern))
    return (ROOT / pattern).exists()


def _packages() -> set[str]:
    """Every package folder of the product and of the development package."""
    tops = (*product_packages(), DEV_PACKAGE)
    return {
        init.parent.relative_to(ROOT).as_posix()
        for top in tops
        for init in (ROOT / top).rglob("__init__.py")
    }


def _listed(package: str, named: set[str]) -> bool:
    """Whether the doc lists `package`: itself, or a module or folder directly inside it."""
    for path in named:
        pattern = _pattern(path)
        if pattern == package or pattern.rsplit("/", 1)[0] == package:
            return True
    return False


def test_every_path_the_doc_names_exists() -> None:
    named = named_paths(DOC.read_text())
    assert {"engines/base.py", "storage/opening.py", "bot/discord/cogs/*"} <= named
    assert sorted(path for path in named if not _exists(path)) == []


def test_every_package_is_listed_in_the_doc() -> None:
    named = named_paths(DOC.read_text())
    packages = _packages()
    assert {"bot", "bot/runtime", "engines/ai", "storage", DEV_PACKAGE} <= packages
    assert sorted(package for package in packages if not _listed(package, named)) == []


def test_the_checks_see_a_module_gone_and_a_package_missing() -> None:
    table = (
        "```\nbot/discord, bot/gone_front.py      fronts\n```\n"
        "| module | job |\n| --- | --- |\n"
        "| `storage/sqlite.py`, `vanished.py` | x |\n| `engines/<game>` | y |\n"
    )
    named = named_paths(table)
    gone = sorted(path for path in named if not _exists(path))
    assert gone == ["bot/gone_front.py", "storage/vanished.py"]
    assert _listed("engines", named) and _listed("storage", named)
    assert not _listed("bot/runtime", named)
