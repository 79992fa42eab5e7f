"""Replay all 10,019 recorded real hands (tests/data/nlhe_real_hands.jsonl.xz): the same cards
and actions must end with the recorded final stacks (odd chips one each from the button's left)."""

from __future__ import annotations

import json
import lzma
import random
from pathlib import Path
from typing import Any

import pytest

from engines.base import DealSettled
from engines.cards import FULL_DECK, Card, parse_card
from engines.holdem import HoldemConfig, HoldemState, PlayerActed, Showdown
from engines.poker.actions import AllIn, Bet, BettingAction, Call, Check, Fold, Raise

# In the repository, xz-compressed; tests/data/README.md gives the source, licence and format.
DATA = Path(__file__).resolve().parents[1] / "data" / "nlhe_real_hands.jsonl.xz"


def load_hands() -> list[dict[str, Any]]:
    """Every recorded hand, without the metadata line."""
    with lzma.open(DATA, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [row for row in rows if not row.get("_meta")]


def stacked_deck(hand: dict[str, Any]) -> list[Card]:
    """The deck in our dealing order: one card at a time from seat 0 (the button is the last
    seat), twice; then burn, flop, burn, turn, burn, river. Unknown cards are filled in."""
    n = hand["seats"]
    holes = [[parse_card(c) for c in h] if h else None for h in hand["hole_cards"]]
    board = [parse_card(c) for c in hand["board"]]
    used = {c for h in holes if h for c in h} | set(board)
    spare = [c for c in FULL_DECK if c not in used]
    filled = [h if h is not None else [spare.pop(), spare.pop()] for h in holes]
    while len(board) < 5:
        board.append(spare.pop())
    cards = [filled[s][0] for s in range(n)] + [filled[s][1] for s in range(n)]
    cards += [spare.pop(), *board[:3], spare.pop(), board[3], spare.pop(), board[4]]
    return cards


def to_action(verb: str, amount: int | None) -> BettingAction:
    if verb == "bet":
        assert amount is not None
        return Bet(amount)
    if verb == "raise":
        assert amount is not None
        return Raise(amount)
    return {"fold": Fold(), "check": Check(), "call": Call(), "allin": AllIn()}[verb]


def replay(hand: dict[str, Any]) -> tuple[list[int], bool]:
    config = HoldemConfig(
        seats=hand["seats"],
        stacks=tuple(hand["stacks"]),
        small_blind=hand["blinds"][0],
        big_blind=hand["blinds"][1],
        button=hand["button"],
    )
    state = HoldemState(config, random.Random(0), first_deck=stacked_deck(hand))
    settled: DealSettled | None = None
    showdown = False
    for seat, verb, amount in hand["actions"]:
        assert settled is None, f"{hand['id']}: the hand ended before all recorded actions"
        for event in state.apply(seat, to_action(verb, amount)):
            if isinstance(event, PlayerActed) and amount is not None and verb != "allin":
                assert event.total == amount
            if isinstance(event, Showdown) and settled is None:
                showdown = True
            if isinstance(event, DealSettled) and event.deal == 1:
                settled = event
    assert settled is not None and settled.chips is not None, f"{hand['id']} did not end"
    return [s + d for s, d in zip(hand["stacks"], settled.chips, strict=True)], showdown


def test_all_recorded_hands_end_with_the_recorded_stacks() -> None:
    hands = load_hands()
    assert len(hands) == 10_019
    wrong = []
    showdowns = 0
    for hand in hands:
        final, showdown = replay(hand)
        showdowns += showdown
        if final != hand["expected_final_stacks"]:
            wrong.append((hand["id"], final, hand["expected_final_stacks"]))
    assert not wrong, f"{len(wrong)} hands differ, first: {wrong[:3]}"
    # Showdown only when needed: as many as the records have.
    assert showdowns == sum(1 for h in hands if h["showdown"])


@pytest.mark.parametrize("flag", ["odd_chip", "split_pot"])
def test_flagged_hands_are_present(flag: str) -> None:
    assert any(h[flag] for h in load_hands())
