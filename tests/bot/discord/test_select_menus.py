"""Every select menu the bot builds is one Discord accepts (issue 19, item 6): at most 25
options, each value unique within its menu. The duel deals from two decks, so a hand can
hold two identical cards; its lock menu must still tell them apart."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.board import board_message, card_options, hand_message
from bot.discord.preview import SampleTable
from bot.discord.rebuy import rebuy_message
from bot.render import get_renderer
from bot.runtime import Player, Seat
from deucebot_dev.discord_standin import BotSideError, check_select_options, iter_components
from engines.cards import parse_card, parse_cards
from engines.registry import get_game

GAMES = ["bigtwo", "holdem", "draw", "duel"]


def sample(game: str, seed: int) -> SampleTable:
    """A new match of `game` with a member in every seat."""
    spec = get_game(game)
    state = spec.new_state(spec.make_config(), random.Random(seed))
    seats = [
        Seat(i, Player(str(100 + i), f"P{i}"), spec.default_policy, f"P{i}")
        for i in range(spec.default_seats)
    ]
    return SampleTable(state, seats, game=game)


def selects(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The select menus of a message the bot built, as Discord receives them."""
    view: discord.ui.View | None = message.get("view")
    rows = [] if view is None else view.to_components()
    return [comp for comp in iter_components(rows) if comp.get("type") == 3]


def assert_accepted(menu: dict[str, Any]) -> None:
    """Discord's rules on a menu, checked here and by the stand-in's own check."""
    values = [option["value"] for option in menu["options"]]
    assert 1 <= len(values) <= 25, values
    assert len(set(values)) == len(values), values
    check_select_options(menu)


def menus_of(table: SampleTable, rng: random.Random) -> list[dict[str, Any]]:
    """Every menu the bot can build now: each seat's hand in both orders, with nothing and
    with random options chosen, the board, and the rebuy choice when one is offered."""
    found = selects(board_message(table.snapshot(), "en", [], with_image=False))
    for seat in range(len(table.seats)):
        shown = table.snapshot(seat)
        for sort in ("r", "s"):
            plain = hand_message(shown, seat, "en", sort)
            found += selects(plain)
            for menu in selects(plain):
                values = [o["value"] for o in menu["options"]]
                chosen = rng.sample(values, rng.randint(1, min(len(values), 5)))
                picked = hand_message(shown, seat, "en", sort, selected=chosen)
                found += selects(picked)
        offer = get_renderer(table.game).rebuy_offer(shown.view(seat))
        if offer is not None:
            found += selects(rebuy_message(shown, offer, "en"))
    return found


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 100_000), turns=st.integers(0, 120))
def test_every_menu_of_every_hand_is_one_discord_accepts(game: str, seed: int, turns: int) -> None:
    table = sample(game, seed)
    spec = table.spec
    rng = random.Random(seed)
    policy = spec.make_policy("random", rng) if "random" in spec.policies else None
    checked = 0
    for _ in range(turns):
        for menu in menus_of(table, rng):
            assert_accepted(menu)
            checked += 1
        seat = table.state.to_act
        if seat is None or table.state.finished:
            break
        view = table.state.view(seat)
        action = policy.decide(view) if policy else rng.choice(list(view.legal))
        for event in table.state.apply(seat, action):
            if event.kind == "deal_started":
                table.deal += 1
        table.turn += 1


def duel_with_a_pair() -> tuple[SampleTable, int]:
    """A duel whose first deal gives a seat two identical cards (two decks), and the seat."""
    for seed in range(5_000):
        table = sample("duel", seed)
        for seat in (0, 1):
            hand = table.view(seat).hand
            if len(set(hand)) < len(hand):
                return table, seat
    raise AssertionError("no seed dealt two identical cards")


def test_a_duel_hand_with_two_identical_cards_can_choose_either() -> None:
    table, seat = duel_with_a_pair()
    while table.to_act != seat:  # the other seat locks first
        other = table.to_act
        assert other is not None
        table.state.apply(other, table.spec.parse_action(f"lock {table.view(other).hand[0]}"))
        table.turn += 1
    shown = table.snapshot(seat)
    hand = table.view(seat).hand
    twin = next(card for card in hand if hand.count(card) > 1)
    (menu,) = selects(hand_message(shown, seat, "en", "r"))
    assert_accepted(menu)
    values = [option["value"] for option in menu["options"]]
    second = [v for v in values if v != str(twin) and v.startswith(str(twin))]
    assert len(second) == 1, values
    # Choosing the second copy marks that option only, and the lock carries the card.
    chosen = hand_message(shown, seat, "en", "r", selected=second)
    (menu,) = selects(chosen)
    assert [o["value"] for o in menu["options"] if o.get("default")] == second
    rows = chosen["view"].to_components()
    pick = next(c for c in iter_components(rows) if str(c.get("custom_id")).startswith("db:pick"))
    assert pick["custom_id"].endswith(f":lock:{twin}"), pick
    assert not pick.get("disabled")


def test_card_options_take_one_copy_per_choice_and_hints_by_card() -> None:
    cards = parse_cards("7C 7C 9H")
    options, picked = card_options(cards, ["7C#2"])
    assert [o.value for o in options] == ["7C", "7C#2", "9H"]
    assert [o.default for o in options] == [False, True, False]
    assert picked == [parse_card("7C")]
    # A hint names cards: each takes the next free copy; unknown values take nothing.
    _, picked = card_options(cards, ["7C", "7C", "9H", "KS"], most=2)
    assert picked == parse_cards("7C 7C")


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ([{"label": "7♣", "value": "7C"}, {"label": "7♣", "value": "7C"}], "unique"),
        ([{"label": str(i), "value": str(i)} for i in range(26)], "1 to 25"),
        ([{"label": "empty", "value": ""}], "1-100"),
        ([{"label": "long", "value": "x" * 101}], "1-100"),
        ([{"label": "", "value": "x"}], "label"),
    ],
)
def test_the_standin_refuses_menus_discord_refuses(options: list[Any], why: str) -> None:
    with pytest.raises(BotSideError, match=why):
        check_select_options({"type": 3, "custom_id": "x", "options": options})
