"""One root for the bot's own errors (`bot.errors.DeucebotError`), one subclass per domain;
the rules keep theirs (`engines.base.IllegalAction`), and a person is told both kinds of
refusal exactly as before."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import bot
from bot.errors import REFUSALS, DeucebotError, Refusal
from bot.history.build import HistoryError
from bot.i18n import LANGUAGES, explain, t
from bot.runtime import errors
from bot.runtime.errors import TableError
from engines.base import IllegalAction, NotYourTurn


def _bot_exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of the bot package, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(bot.__path__, "bot."):
        if info.name == "bot.__main__":  # starting the bot is not importing it
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
            ):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_error_of_the_bot_derives_from_its_root_and_none_from_the_rules() -> None:
    classes = _bot_exception_classes()
    assert {"bot.runtime.errors.TableError", "bot.history.build.HistoryError"} <= set(classes)
    outside = sorted(name for name, kind in classes.items() if not issubclass(kind, DeucebotError))
    assert outside == []
    rules = sorted(name for name, kind in classes.items() if issubclass(kind, IllegalAction))
    assert rules == []


def test_the_bot_refusals_are_not_the_rules_and_the_rules_are_not_the_bot() -> None:
    for refusal in (errors.not_seated("u-1"), HistoryError("no such match", code="x")):
        assert isinstance(refusal, Refusal) and isinstance(refusal, REFUSALS)
        assert not isinstance(refusal, IllegalAction)
    rule = NotYourTurn(1, 2)
    assert isinstance(rule, REFUSALS) and not isinstance(rule, DeucebotError)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_reads_as_its_catalog_says_in_every_language(lang: str) -> None:
    refused = errors.seat_taken(2, "Ana")
    assert isinstance(refused, TableError)
    assert explain(refused, lang) == t("error.seat_taken", lang, seat=2, name="Ana")
    assert explain(refused, lang) != refused.message or lang == "en"
    rule = NotYourTurn(0, 1)
    assert explain(rule, lang) == t("error.not_your_turn", lang, seat=0, to_act=1)
