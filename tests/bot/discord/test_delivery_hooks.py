"""Crash points are a seam the crash tests inject (`DeliveryHooks`), not calls into a test
module on the production delivery path: no product module imports them at load time, the
process entry injects them only when `DEUCEBOT_KILL_AT` is set, and the default hooks do
nothing at any point."""

from __future__ import annotations

import ast
from pathlib import Path

import aiohttp
import pytest

from bot.discord.app import delivery_hooks_from_env
from bot.discord.delivery_hooks import NO_HOOKS
from deucebot_dev.crashpoints import CrashPoints

ROOT = Path(__file__).resolve().parents[3]
PRODUCT = ("bot", "engines", "storage")


def _module_level_imports(path: Path) -> set[str]:
    """The modules `path` imports outside any function (where an import runs on load)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_no_product_module_loads_the_crash_points() -> None:
    loading = {
        str(path.relative_to(ROOT)): sorted(
            name for name in _module_level_imports(path) if "crashpoints" in name
        )
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
    }
    assert not {path: names for path, names in loading.items() if names}
    assert not (ROOT / "bot" / "discord" / "crashpoints.py").exists()


def test_the_kill_points_are_injected_only_when_deucebot_kill_at_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DEUCEBOT_KILL_AT", raising=False)
    assert delivery_hooks_from_env() is NO_HOOKS
    monkeypatch.setenv("DEUCEBOT_KILL_AT", "")
    assert delivery_hooks_from_env() is NO_HOOKS
    monkeypatch.setenv("DEUCEBOT_KILL_AT", "result@2")
    hooks = delivery_hooks_from_env()
    assert isinstance(hooks, CrashPoints)
    assert (hooks.point, hooks.at) == ("result", 2)
    monkeypatch.setenv("DEUCEBOT_KILL_AT", "nowhere@1")
    with pytest.raises(ValueError, match="DEUCEBOT_KILL_AT='nowhere@1'"):
        delivery_hooks_from_env()


def test_crash_points_count_arrivals_only_at_their_own_point() -> None:
    hooks = CrashPoints("edit@3")
    for _ in range(5):
        hooks.reached("board")  # another point: never counted (and never killed)
    hooks.reached("edit")
    hooks.reached("edit")
    assert hooks.seen == {"edit": 2}  # the third arrival would kill the process


def test_the_default_hooks_do_nothing_anywhere() -> None:
    trace = aiohttp.TraceConfig()
    NO_HOOKS.watch(trace)
    assert not list(trace.on_request_end)
    for point in ("board", "edit", "result", "match_result"):
        NO_HOOKS.reached(point)
        with NO_HOOKS.posting(point):
            pass
