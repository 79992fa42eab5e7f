"""`deucebot gallery DIR`: every game's key moments drawn to PNG files, from seeded all-AI
matches (the same pictures every run): the opening, mid-deal, an all-in with side pots,
a showdown, the match's end and the match summary (`bot.charts.match`), at 2, 4, 6 and 9
seats where the game seats them; plus a hand picture per game (the two-colour deck, and
the four-colour deck with a hand that shows what it changes: every suit, or in a hand of
two cards a diamond and a club).

`play(game, seats, seed)` yields every public moment of such a match (the spectator view
after each action and that action's public events): what the tests and the benchmark
draw too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.charts.match import draw_summary, summary_from_events
from bot.pictures import Facts, Picture, hand_picture, result_picture, table_picture
from bot.render import get_face, get_renderer
from bot.runtime.replay import opening_events
from engines.base import DealSettled, Event
from engines.cards import Card, Suit
from engines.registry import available_games, built_in_games, get_game

NAMES = ("Ann", "Олександра", "Éloïse", "Bob", "Дмитро", "Chloé", "Zoë", "Taras", "Mia")
"""Names of the gallery's seats: Latin with accents and Ukrainian (Cyrillic)."""


@dataclass(frozen=True, slots=True)
class Moment:
    """The table after one action: its public view, the action's public events, the seat's
    own view of whoever acted (for hand pictures), and the action's number."""

    view: Any
    events: tuple[Event, ...]
    own: Any
    number: int


def seat_counts(game: str) -> list[int]:
    """The seat counts the gallery draws `game` at (of 2, 4, 6 and 9, those it seats)."""
    spec = get_game(game)
    return [n for n in (2, 4, 6, 9) if spec.min_seats <= n <= spec.max_seats]


GAMES: tuple[str, ...] = built_in_games()
"""The product's games (what its tests and benchmarks draw)."""


def games() -> list[str]:
    """The games the gallery draws: every registered game."""
    return available_games()


def play(game: str, seats: int, seed: int, limit: int = 4000) -> Iterator[Moment]:
    """Every moment of a seeded all-AI match of `game` at `seats` (at most `limit` actions);
    the first holds the public events of the match's opening (the first deal, buy-ins)."""
    spec = get_game(game)
    scenes = get_face(game).gallery
    settings: dict[str, Any] = {} if spec.min_seats == spec.max_seats else {"seats": seats}
    settings.update(scenes.settings(seats))
    config = spec.make_config(**settings)
    rng = random.Random(seed)
    state = spec.new_state(config, random.Random(rng.getrandbits(64)))
    kinds = scenes.policies or (spec.default_policy,)
    policies = [
        spec.make_policy(kinds[i % len(kinds)], random.Random(seed + i)) for i in range(seats)
    ]
    number = 0
    opening = tuple(e for e in opening_events(state) if e.to is None)
    yield Moment(state.view(None), opening, None, number)
    while not state.finished and number < limit:
        seat = state.to_act
        if seat is None:
            break
        own = state.view(seat)
        events = state.apply(seat, policies[seat].decide(own))
        number += 1
        yield Moment(state.view(None), tuple(e for e in events if e.to is None), own, number)


def facts_for(seats: int, seconds: int | None = 20) -> Facts:
    """The gallery's table facts: its names, nobody away, a clock of `seconds`."""
    names = tuple(NAMES[i % len(NAMES)] for i in range(seats))
    return Facts(names, seconds=seconds)


def _side_pots(view: Any) -> bool:
    return len(getattr(view, "pots", ())) > 1


def shows_the_four_colours(cards: Sequence[Card]) -> bool:
    """Whether a hand shows what the four-colour deck changes: all four suits (or as many
    as it has cards), and among them diamonds and clubs (the two suits it recolours)."""
    suits = {card.suit for card in cards}
    return len(suits) >= min(4, len(cards)) and {Suit.DIAMONDS, Suit.CLUBS} <= suits


def key_moments(game: str, seats: int, seed: int, lang: str = "en") -> list[tuple[str, Picture]]:
    """The key moments of one seeded match: (label, picture) for the opening, mid-deal, an
    all-in with side pots (when the match had one), a showdown, the match's end and its
    summary (when it ended within the gallery's limit)."""
    facts = facts_for(seats)
    scenes = get_face(game).gallery
    found: dict[str, Picture] = {}
    last: Moment | None = None
    previous_view: Any = None
    events: list[Event] = []
    fallback: Sequence[Card] = ()
    for moment in play(game, seats, seed):
        view = moment.view
        events += moment.events
        if "opening" not in found and view is not None:
            found["opening"] = _table(game, view, facts, lang)
        if "mid-deal" not in found and scenes.mid_deal(view):
            found["mid-deal"] = _table(game, view, facts, lang)
        if "side-pots" not in found and _side_pots(view):
            found["side-pots"] = _table(game, view, facts, lang)
        if "showdown" not in found and any(isinstance(e, DealSettled) for e in moment.events):
            shown = result_picture(game, moment.events, previous_view, facts, lang)
            if shown is not None and (shown.faces or scenes.bare_results):
                found["showdown"] = shown
        if moment.own is not None and "hand-four-colour" not in found:
            cards = get_renderer(game).hand_cards(moment.own)
            if cards and "hand" not in found:
                found["hand"] = hand_picture(cards, lang)
                fallback = cards
            if cards and shows_the_four_colours(cards):
                found["hand-four-colour"] = hand_picture(cards, lang, "four")
        previous_view = view
        last = moment
    if "hand" in found and "hand-four-colour" not in found:
        found["hand-four-colour"] = hand_picture(fallback, lang, "four")
    if last is not None:
        found["match-end"] = _table(game, last.view, facts, lang)
        spec = get_game(game)
        names = facts.names
        summary = summary_from_events(events, game, spec.title, names, spec.scoring == "penalty")
        if summary is not None:
            found["match-summary"] = draw_summary(summary, lang)
    if "side-pots" not in found and scenes.side_pots:
        view = _side_pot_view(game, seats, seed)
        if view is not None:
            found["side-pots"] = _table(game, view, facts, lang)
    return list(found.items())


def _side_pot_view(game: str, seats: int, seed: int, tries: int = 40) -> Any:
    """A public view with side pots from the first of the next `tries` seeded matches that
    had one (None if none did)."""
    for other in range(seed + 1, seed + 1 + tries):
        for moment in play(game, seats, other):
            if _side_pots(moment.view):
                return moment.view
    return None


def _table(game: str, view: Any, facts: Facts, lang: str) -> Picture:
    picture = table_picture(game, view, facts, lang)
    assert picture is not None
    return picture


def write(
    folder: Path, games: Sequence[str] | None = None, seed: int = 7, lang: str = "en"
) -> list[Path]:
    """Draw the key moments of `games` (None: every game) at each seat count into `folder`
    (created); the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in available_games() if games is None else games:
        for seats in seat_counts(game):
            for label, picture in key_moments(game, seats, seed, lang):
                path = folder / f"{game}-{seats}-{label}.png"
                path.write_bytes(picture.png)
                path.with_suffix(".txt").write_text(picture.alt + "\n", encoding="utf-8")
                written.append(path)
    return written
