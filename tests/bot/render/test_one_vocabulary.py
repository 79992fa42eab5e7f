"""One vocabulary: the same poker event reads the same in hold'em, draw poker and the duel,
in every language (the phrasebook, `bot.render.phrases`), and nothing is said twice."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.i18n import LANGUAGES, Addressee, catalog, t
from bot.render import get_renderer
from bot.render.phrases import hand_name
from engines import draw, duel, holdem
from engines.base import Event
from engines.cards import parse_cards
from engines.poker.events import UncalledReturned
from engines.poker.ranking import hand_value

NAMES = ["Ann", "Bob"]


def holdem_act(verb: str, added: int, total: int, all_in: bool) -> Event:
    return holdem.PlayerActed(
        seat=0, street="flop", verb=verb, total=total, added=added, all_in=all_in
    )


def draw_act(verb: str, added: int, total: int, all_in: bool) -> Event:
    typed = "allin" if all_in else (f"{verb} {total}" if verb in ("bet", "raise") else verb)
    return draw.events.Acted(
        seat=0, action=typed, stake=total, all_in=all_in, added=added, moved=verb
    )


def duel_act(verb: str, added: int, total: int, all_in: bool) -> Event:
    return duel.Acted(seat=0, action=verb, put_in=added, total=total, all_in=all_in)


GAMES: dict[str, Callable[[str, int, int, bool], Event]] = {
    "holdem": holdem_act,
    "draw": draw_act,
    "duel": duel_act,
}

# (verb, chips added, total for the round, all-in) -> the phrase key and its figures.
SITUATIONS = [
    ("fold", 0, 0, False),
    ("check", 0, 0, False),
    ("call", 20, 20, False),  # nothing in before: "calls 20"
    ("call", 60, 80, False),  # 20 in before, facing 80: "calls 60 (to 80)"
    ("bet", 40, 40, False),
    ("raise", 120, 120, False),
    ("raise", 635, 635, True),
    ("call", 31, 31, True),
]


def expected(verb: str, added: int, total: int, all_in: bool, name: str, lang: str) -> str:
    key = "call_to" if verb == "call" and added != total else verb
    line = t(f"phrase.poker.{key}", lang, name=name, added=added, total=total)
    return line + (t("phrase.poker.all_in", lang) if all_in else "")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}-{s[3]}")
def test_the_same_betting_action_reads_the_same_in_every_poker_game(
    situation: tuple[str, int, int, bool], lang: str
) -> None:
    verb, added, total, all_in = situation
    for names in (NAMES, [Addressee("You"), "Bob"]):
        lines = {
            game: get_renderer(game).event(make(verb, added, total, all_in), names, lang)
            for game, make in GAMES.items()
        }
        assert len(set(lines.values())) == 1, lines
        assert lines["holdem"] == expected(verb, added, total, all_in, names[0], lang)


def test_call_n_is_the_chips_added_everywhere() -> None:
    for game, make in GAMES.items():
        line = get_renderer(game).event(make("call", 60, 80, False), NAMES, "en")
        assert line == "Ann calls 60 (to 80).", (game, line)
        plain = get_renderer(game).event(make("call", 20, 20, False), NAMES, "en")
        assert plain == "Ann calls 20.", (game, plain)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_uncalled_chips_read_the_same_in_every_poker_game(lang: str) -> None:
    event = UncalledReturned(seat=1, amount=40)
    lines = {game: get_renderer(game).event(event, NAMES, lang) for game in GAMES}
    assert len(set(lines.values())) == 1, lines
    assert lines["draw"] == t("phrase.poker.returned", lang, name="Bob", amount=40)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_names_read_the_same_in_hold_em_and_draw(lang: str) -> None:
    cards = tuple(parse_cards("8S 8H KD 4C 2S"))
    value = hand_value(cards)
    shown = holdem.ShowdownHand(seat=0, cards=cards[:2], value=value, name="")
    holdem_line = get_renderer("holdem").event(holdem.Showdown(hands=(shown,)), NAMES, lang)
    draw_line = get_renderer("draw").event(
        draw.events.Shown(seat=0, cards=cards, hand_name="pair of 8"), NAMES, lang
    )
    name = hand_name(value, lang)
    assert holdem_line is not None and draw_line is not None
    assert name in holdem_line and name in draw_line
    if lang == "en":
        assert name == "pair of eights"


@pytest.mark.parametrize(
    ("cards", "english"),
    [
        ("AS KD 9C 5H 2S", "ace high"),
        ("8S 8H KD 4C 2S", "pair of eights"),
        ("KS KH 8D 8C 2S", "two pair, kings and eights"),
        ("9S 9H 9D 4C 2S", "three of a kind, nines"),
        ("7S 8H 9D TC JS", "straight to the jack"),
        ("AS 2H 3D 4C 5S", "straight to the five"),
        ("2H 7H 9H JH KH", "flush, king high"),
        ("QS QH QD 3C 3S", "full house, queens full of threes"),
        ("AS AH AD AC 2S", "four of a kind, aces"),
        ("5H 6H 7H 8H 9H", "straight flush to the nine"),
    ],
)
def test_hand_names(cards: str, english: str) -> None:
    value = hand_value(parse_cards(cards))
    assert hand_name(value, "en") == english
    for lang in LANGUAGES:
        assert "{" not in hand_name(value, lang) and "phrase." not in hand_name(value, lang)


def test_every_catalog_key_exists_in_every_language() -> None:
    keys = {lang: set(catalog(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert keys[lang] == keys["en"], (
            lang,
            sorted(keys["en"] - keys[lang])[:10],
            sorted(keys[lang] - keys["en"])[:10],
        )


def _play(game: str, seed: int, steps: int = 400) -> list[tuple[Any, list[Event]]]:
    from engines.registry import get_game

    spec = get_game(game)
    rng = random.Random(seed)
    state = spec.new_state(spec.make_config(), rng)
    out: list[tuple[Any, list[Event]]] = []
    for _ in range(steps):
        if state.finished:
            break
        seat = state.to_act
        legal = state.legal_actions(seat)
        events = state.apply(seat, rng.choice(list(legal)))
        out.append((seat, events))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_nothing_is_said_twice_to_the_player_who_acted(seed: int) -> None:
    """The surblind is said once (not "posts the surblind" then "doubles the blind"), a lock
    once (not "You locked a card." then "You locked K♣.")."""
    for game in ("draw", "duel"):
        renderer = get_renderer(game)
        for seat, events in _play(game, seed):
            names = ["Ann", "Bob", "Cy", "Di"]
            names[seat] = Addressee("You")
            lines = [renderer.event(e, names, "en") for e in events if e.to in (None, seat)]
            said = [line for line in lines if line]
            doubled = [line for line in said if "double" in line]
            assert len(doubled) <= 1, said
            locked = [line for line in said if line.startswith("You locked")]
            assert len(locked) <= 1, said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_discord_hand_speaks_of_the_menu_and_buttons_not_typed_words(lang: str) -> None:
    from tests.bot.render.test_input_traps import betting_spot, duel_view_holding

    lock = get_renderer("duel").hand(duel_view_holding("2D", "KC"), lang, menu=True)
    assert t("duel.hand.lock_menu", lang) in lock
    assert t("duel.hand.lock_prompt", lang) not in lock
    for game in ("holdem", "draw", "duel"):
        view = betting_spot(game)
        typed = get_renderer(game).hand(view, lang)
        shown = get_renderer(game).hand(view, lang, menu=True)
        assert "-" in typed.splitlines()[-1]  # the terminal shows forms (raise 40-1000)
        assert shown.splitlines()[-1].startswith(
            t("phrase.poker.buttons_call", lang, to_call=view.to_call, pot=0).split(":")[0]
        ), shown
