"""One wording per game for what every game says: a card's position in a hand (``#1 3♦``),
the options line, a pot won uncontested, and the match's end, read from whole matches of
each game played by random AI, in every language."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.i18n import LANGUAGES, Addressee, t
from bot.render import get_renderer
from engines import duel
from engines.base import Event, MatchEnded
from engines.registry import get_game

GAMES = ("bigtwo", "holdem", "draw", "duel")
POKER = ("holdem", "draw", "duel")
SETTINGS: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 1},
    "holdem": {"seats": 3, "starting_chips": 100},
    "draw": {"seats": 3, "deals": 3},
    "duel": {"starting_chips": 6},
}


def played(game: str, seed: int) -> tuple[list[Event], list[Any]]:
    """A whole match of `game` by random AI: every event, and the view of each seat to act
    (the last one: the finished match's spectator view)."""
    spec = get_game(game)
    rng = random.Random(seed)
    state = spec.new_state(spec.make_config(**SETTINGS[game]), rng)
    events: list[Event] = []
    views: list[Any] = []
    for _ in range(20000):
        if state.finished or state.to_act is None:
            break
        seat = state.to_act
        view = state.view(seat)
        views.append(view)
        events += state.apply(seat, rng.choice(list(view.legal)))
    assert state.finished, game
    return events, [*views, state.view(None)]


def names(count: int) -> list[str]:
    return [f"P{s + 1}" for s in range(count)]


@pytest.mark.parametrize("game", GAMES)
def test_positions_read_the_same_in_every_game(game: str) -> None:
    renderer = get_renderer(game)
    _, views = played(game, 1)
    hands = [renderer.hand(view, "en") for view in views if renderer.hand_cards(view)]
    hands = [text for text in hands if re.search(r"\d\S* [0-9AJQK]{1,2}[♠♥♦♣]", text)]
    if game == "holdem":  # no positions: hold'em never picks cards
        assert not any("#1" in text for text in hands)
        return
    assert hands, game
    for text in hands:
        assert re.search(r"#1 (10|[2-9AJQK])[♠♥♦♣]", text), text
        assert not re.search(r"\[\d\]|\b\d:[0-9AJQK]", text), text


OPTIONS = re.compile(
    r"^Your options: [^·]+ · (to call \d+ · |to come in \d+ \(calling is refused\) · )?pot \d+$"
)


@pytest.mark.parametrize("game", POKER)
def test_the_options_line_reads_the_same_in_every_poker_game(game: str) -> None:
    renderer = get_renderer(game)
    _, views = played(game, 2)
    shown = 0
    for view in views:
        if not view.legal or renderer.card_pick(view) is not None:
            continue
        lines = [line for line in renderer.hand(view, "en").split("\n") if "pot" in line]
        assert any(OPTIONS.match(line) for line in lines), lines
        shown += 1
    assert shown, game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_options_line_is_one_phrase_in_every_language(lang: str) -> None:
    heads = {
        t(key, lang, options="\0", to_call=1, entry=1, pot=1).split("\0")[0]
        for key in (
            "phrase.poker.options",
            "phrase.poker.options_call",
            "phrase.poker.options_entry",
        )
    }
    assert len(heads) == 1, heads


@pytest.mark.parametrize("game", POKER)
def test_an_uncontested_pot_reads_the_same_in_every_poker_game(game: str) -> None:
    renderer = get_renderer(game)
    seen = 0
    for seed in range(12):
        events, _ = played(game, seed)
        for event in events:
            # A pot paid with no showdown: hold'em's and draw's `shown`, the duel's fold.
            alone = getattr(event, "shown", True) is False or (
                isinstance(event, duel.Showdown) and event.folded is not None
            )
            if alone:
                line = renderer.event(event, names(3), "en") or ""
                assert re.search(r"P\d wins \d+ uncontested \(everyone else folded\)\.$", line)
                seen += 1
    assert seen, game


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_match_end_reads_the_same_in_every_game(game: str, lang: str) -> None:
    renderer = get_renderer(game)
    events, views = played(game, 3)
    ended = [e for e in events if isinstance(e, MatchEnded)]
    assert len(ended) == 1
    seats = len(ended[0].totals)
    line = renderer.event(ended[0], names(seats), lang) or ""
    head = t("phrase.match_over", lang, winners="\0", totals="").split("\0")[0]
    shared = t("phrase.match_over_shared", lang, winners="\0", totals="").split("\0")[0]
    assert line.startswith((head, shared)), line
    # You, winning alone: the second-person form, the same everywhere.
    you = [Addressee("You") if s == ended[0].winners[0] else n for s, n in
           enumerate(names(seats))]  # fmt: skip
    # The finished board ends with the same line.
    board = renderer.board(views[-1], names(seats), lang).splitlines()
    assert any(row.startswith((head, shared)) for row in board), board
    lone = MatchEnded(winners=ended[0].winners[:1], totals=ended[0].totals)
    mine = renderer.event(lone, you, lang) or ""
    assert mine.startswith(t("phrase.match_over.you", lang, totals="").strip()), mine
