"""The catalogs' grammar helpers: second-person lines for the reader, plural forms, and
cards written as hands show them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bot.i18n
from bot.i18n import LANGUAGES, Addressee, catalog, join_names, plural_index, t

PLACEHOLDER = re.compile(r"\{(\w+)")


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("en", {0: 1, 1: 0, 2: 1, 11: 1, 21: 1}),
        ("fr", {0: 0, 1: 0, 2: 1, 11: 1, 21: 1}),
        ("uk", {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 25: 2, 111: 2}),
    ],
)
def test_plural_forms_follow_each_languages_rule(lang: str, counts: dict[int, int]) -> None:
    assert {n: plural_index(n, lang) for n in counts} == counts


@given(st.integers(-(10**6), 10**6))
def test_a_count_keeps_its_own_format_specs(n: int) -> None:
    assert t("draw.hand.chips", "en", chips=n, bought=0, net=n).endswith(f"net {n:+d})")


def test_counts_agree_with_their_noun() -> None:
    seat = {"name": "Ann", "bet": "", "tags": ""}
    assert t("holdem.board.seat", "en", stack=1, **seat) == "Ann: 1 chip"
    assert t("holdem.board.seat", "en", stack=0, **seat) == "Ann: 0 chips"
    assert t("holdem.board.seat", "fr", stack=0, **seat) == "Ann : 0 jeton"
    assert t("holdem.board.seat", "uk", stack=3, **seat) == "Ann: 3 фішки"
    assert t("holdem.board.seat", "uk", stack=11, **seat) == "Ann: 11 фішок"


def test_an_addressee_gets_the_second_person_form() -> None:
    you = Addressee("You")
    assert t("phrase.poker.fold", "en", name="Bob") == "Bob folds."
    assert t("phrase.poker.fold", "en", name=you) == "You fold."
    assert t("phrase.poker.fold", "fr", name=you) == "Vous vous couchez."
    # Two people in one line: the form for the parameter that is the reader.
    both = {"sb": 10, "bb": 20}
    assert t("holdem.event.blinds", "en", sb_name=you, bb_name="Bob", **both).startswith(
        "You post the small blind 10, Bob"
    )
    assert t("holdem.event.blinds", "en", sb_name="Bob", bb_name=you, **both).endswith(
        "you the big blind 20."
    )
    # A line with no second-person form keeps its own.
    assert t("holdem.board.turn", "en", name=you) == "You to act."


def test_join_names_keeps_a_lone_addressee() -> None:
    assert isinstance(join_names([Addressee("You")]), Addressee)
    assert join_names(["Ann", Addressee("You")]) == "Ann, You"


def test_every_second_person_form_matches_its_line() -> None:
    # Every language has the same second-person keys, each with a base line, and it uses
    # no placeholder its base line does not get.
    forms = [{k for k in catalog(lang) if re.search(r"\.you(\.|$)", k)} for lang in LANGUAGES]
    assert forms[0] and forms[0] == forms[1] == forms[2]
    for lang in LANGUAGES:
        messages = catalog(lang)
        for key in forms[0]:
            base = key.split(".you")[0]
            assert base in messages, key
            assert set(PLACEHOLDER.findall(messages[key])) <= set(
                PLACEHOLDER.findall(messages[base])
            ), (lang, key)


@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_no_key_is_worded_in_two_catalog_files(lang: str) -> None:
    """A language's files are merged in name order: a key in two files would silently take
    the later file's words (two features wording one key apart)."""
    folder = Path(bot.i18n.__file__).parent / "locales" / lang
    owner: dict[str, str] = {}
    twice = []
    for path in sorted(folder.glob("*.json")):
        for key in json.loads(path.read_text(encoding="utf-8")):
            if key in owner:
                twice.append(f"{key}: {owner[key]} and {path.name}")
            owner[key] = path.name
    assert twice == []
