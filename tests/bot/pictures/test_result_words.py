"""Result pictures (issue 44, items 19 and 20): draw poker's showdown hands are named in the
reader's words, as hold'em's are, and every game's result says the number of the deal it
settles even without the deal's last view (a front far behind may no longer hold it)."""

from __future__ import annotations

import itertools

import pytest

from bot.pictures import Facts, result_model
from bot.pictures.gallery import NAMES, play
from bot.render.phrases import hand_name
from engines.base import DealSettled
from engines.draw.events import Shown
from engines.poker.ranking import hand_value

HEADERS = {
    "bigtwo": {"en": "Deal {n}:", "fr": "Donne {n} :", "uk": "Роздача {n}:"},
    "holdem": {"en": "Hand {n}:", "fr": "Main {n} :", "uk": "Роздача {n}:"},
    "draw": {"en": "Deal {n}:", "fr": "Donne {n} :", "uk": "Роздача {n}:"},
    "duel": {"en": "Deal {n}:", "fr": "Donne {n} :", "uk": "Роздача {n}:"},
}


@pytest.mark.parametrize("lang", ["fr", "uk"])
def test_draw_names_the_hands_shown_in_the_readers_words(lang: str) -> None:
    facts = Facts(NAMES[:4])
    named = 0
    previous = None
    for moment in itertools.islice(play("draw", 4, 44), 4000):
        shown = [e for e in moment.events if isinstance(e, Shown)]
        if shown and any(isinstance(e, DealSettled) for e in moment.events):
            model = result_model("draw", moment.events, previous, facts, lang)
            assert model is not None
            labels = {row.name: row.label for row in model.rows}
            alt = model.alt()
            for event in shown:
                said = hand_name(hand_value(event.cards), lang)
                assert labels[facts.name(event.seat)] == said
                assert event.hand_name not in alt, (event.hand_name, alt)  # not English
                named += 1
        previous = moment.view
        if named >= 6:
            break
    assert named >= 6


@pytest.mark.parametrize("game", sorted(HEADERS))
@pytest.mark.parametrize("lang", ["en", "fr", "uk"])
def test_a_result_without_its_deals_view_says_its_deal(game: str, lang: str) -> None:
    facts = Facts(NAMES[:4])
    checked = 0
    for moment in itertools.islice(play(game, 4 if game != "duel" else 2, 7), 4000):
        settled = [e.deal for e in moment.events if isinstance(e, DealSettled)]
        if not settled:
            continue
        model = result_model(game, moment.events, None, facts, lang)
        if model is not None:
            assert model.alt().startswith(HEADERS[game][lang].format(n=settled[0])), model.alt()
            checked += 1
        if checked >= 3 and settled[0] > 2:
            break
    assert checked >= 3
