"""`deucebot bench` runs the benchmarks of the development package when it is there, and
without it (the bot installed from its wheel) says in the user's language how to get it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot import cli
from bot.i18n import LANGUAGES, t


def test_every_bench_target_is_a_module_of_the_development_package() -> None:
    for target in cli.BENCH_TARGETS:
        module = cli._bench_module(target)
        assert module is not None
        assert module.__name__ == f"deucebot_dev.bench.{target}"
        assert callable(module.main)


def test_without_the_development_package_bench_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env read from the checkout
    for name in [name for name in sys.modules if name.startswith("deucebot_dev.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "deucebot_dev", None)  # any import of it now fails
    said = set()
    for lang in LANGUAGES:
        monkeypatch.setenv("DEUCEBOT_LANGUAGE", lang)
        assert cli.main(["bench", "duel", "--quick"]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == f"deucebot: {t('console.no_dev_package', lang)}\n"
        assert "pip install -e ./deucebot_dev" in captured.err
        assert "python3 tasks.py test" in captured.err
        said.add(captured.err)
    assert len(said) == len(LANGUAGES)  # each in its own language


def test_a_module_missing_inside_a_benchmark_is_not_taken_for_the_missing_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "deucebot_dev.bench.duel", raising=False)
    monkeypatch.setitem(sys.modules, "engines.duel", None)  # what the duel bench imports
    with pytest.raises(ModuleNotFoundError) as raised:
        cli._bench_module("duel")
    assert raised.value.name == "engines.duel"
