"""Properties of provably fair deals over random matches of all four games: every deal's
commitment is published before any of its cards is seen and its seed only once the match
is over; the revealed seeds reproduce every dealt card (`deucebot verify` of the export
passes); a changed seed or a changed card fails verification."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands.verify import ActionFacts, DealFacts, MatchFacts, check_match
from bot.runtime.replay import opening_events
from engines.base import DealSettled, DealStarted, Event, MatchEnded
from engines.fair import DealSource, commitment
from engines.registry import get_game

GAMES: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 2},
    "holdem": {"seats": 3, "max_hands": 3},
    "draw": {"seats": 5, "deals": 3},
    "duel": {"starting_chips": 4},
}
CARD = re.compile(r"^(?:[2-9TJQKA][DCHS])$")


def play(game: str, secret: bytes, rng_seed: int, choices: random.Random) -> tuple[
    MatchFacts, list[Event]
]:  # fmt: skip
    """A match of random legal actions, and its public record once every deal is over."""
    spec = get_game(game)
    config = spec.make_config(**GAMES[game])
    state = spec.new_state(config, random.Random(rng_seed), DealSource(secret, 7, 2))
    events = list(opening_events(state))
    actions: list[ActionFacts] = []
    deal = 1
    while not state.finished and len(actions) < 600:
        seat = state.to_act
        assert seat is not None
        action = choices.choice(list(state.legal_actions(seat)))
        actions.append(ActionFacts(len(actions), deal, seat, str(action)))
        for event in state.apply(seat, action):
            events.append(event)
            deal = event.deal if isinstance(event, DealStarted) else deal
    ended = next((e for e in events if isinstance(e, MatchEnded)), None)
    seeds = dict(ended.seeds) if ended is not None else {}
    deals = [
        DealFacts(e.deal, e.dealer, e.commitment, seeds.get(e.deal))
        for e in events
        if isinstance(e, DealStarted)
    ]
    facts = MatchFacts(
        game=game,
        config=config.model_dump(mode="json"),
        table=7,
        match=2,
        rng_seed=rng_seed,
        deals=deals,
        actions=actions,
        result=None if ended is None else (ended.winners, ended.totals),
        events=[
            e.to_json()
            for e, d in zip(events, deal_of(events), strict=True)
            if d in seeds or d == 0
        ],
        label="m",
    )
    return facts, events


def deal_of(events: list[Event]) -> list[int]:
    deal, out = 0, []
    for event in events:
        deal = event.deal if isinstance(event, DealStarted) else deal
        out.append(deal)
    return out


def cards_in(value: Any) -> bool:
    if isinstance(value, str):
        return bool(CARD.match(value))
    if isinstance(value, list):
        return any(cards_in(v) for v in value)
    if isinstance(value, dict):
        return any(cards_in(v) for k, v in value.items() if k != "kind")
    return False


def change_a_card(value: Any) -> Any:
    """The value with its first card replaced by another card."""
    if isinstance(value, str) and CARD.match(value):
        return "AS" if value != "AS" else "KH"
    if isinstance(value, list):
        for i, v in enumerate(value):
            if cards_in(v):
                return [*value[:i], change_a_card(v), *value[i + 1 :]]
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "kind" and cards_in(v):
                return {**value, k: change_a_card(v)}
    return value


matches = st.tuples(
    st.sampled_from(sorted(GAMES)),
    st.binary(min_size=32, max_size=32),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_commitment_comes_before_any_card_and_the_seed_after_the_match(match: Any) -> None:
    game, secret, rng_seed, choice_seed = match
    _, events = play(game, secret, rng_seed, random.Random(choice_seed))
    open_deal: int | None = None
    committed: dict[int, str] = {}
    for index, event in enumerate(events):
        if isinstance(event, DealStarted):
            assert open_deal is None, "a deal started before the last one was settled"
            assert event.commitment is not None
            committed[event.deal] = event.commitment
            open_deal = event.deal
        elif isinstance(event, DealSettled) and event.commitment:
            assert event.deal == open_deal and event.commitment == committed[event.deal]
            assert event.seed is None, "a seed was shown before the match was over"
            open_deal = None
        elif isinstance(event, MatchEnded):
            assert [deal for deal, _ in event.seeds] == sorted(committed)
            earlier = json.dumps([e.to_json() for e in events[:index]])
            for deal, seed in event.seeds:
                value = commitment(bytes.fromhex(seed), table=7, match=2, deal=deal)
                assert value == committed[deal]
                assert seed not in earlier, "a seed was shown before the match was over"
        elif event.to is not None or cards_in(event.to_json()):
            assert open_deal is not None, f"{event.kind}: a card seen outside a started deal"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_revealed_seeds_reproduce_every_card_and_a_change_fails(match: Any) -> None:
    game, secret, rng_seed, choice_seed = match
    facts, _ = play(game, secret, rng_seed, random.Random(choice_seed))
    assert check_match(facts) == []
    revealed = [d for d in facts.deals if d.seed]
    if not revealed:
        return
    target = revealed[choice_seed % len(revealed)]
    other = bytearray.fromhex(target.seed or "")
    other[choice_seed % 32] ^= 1 << (rng_seed % 8)  # one bit of the seed flipped
    changed = [d if d is not target else DealFacts(d.deal, d.dealer, d.commitment, other.hex())
               for d in facts.deals]  # fmt: skip
    problems = check_match(MatchFacts(**{**facts.__dict__, "deals": changed}))
    assert f"m: deal {target.deal}: the seed does not hash to the commitment" in problems[0]
    assert facts.events is not None
    at = next(i for i, e in enumerate(facts.events) if e["kind"] != "deal_started" and cards_in(e))
    events = [*facts.events[:at], change_a_card(facts.events[at]), *facts.events[at + 1 :]]
    problems = check_match(MatchFacts(**{**facts.__dict__, "events": events}))
    assert problems == [problems[0]] and f"event {at + 1} (" in problems[0], problems


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_deals_its_first_cards_from_deck_order(game: str) -> None:
    """The one seam: the cards in the players' hands at the start of deal 1 are the top of
    `deck_order(seed)` (one deck, or the duel's two)."""
    source = DealSource(bytes(range(32)), 1, 1)
    spec = get_game(game)
    state = spec.new_state(spec.make_config(**GAMES[game]), random.Random(5), source)
    private = [e.to_json() for e in opening_events(state) if e.to is not None]
    held = [c for data in private for c in card_texts(data.get("cards", data.get("new")))]
    if not held:  # a blind deal of draw poker: the cards are dealt, not looked at yet
        held = card_texts(state.snapshot()["hands"])
    top = [str(c) for c in source.deck(1, 2 if game == "duel" else 1)]
    assert held and sorted(held) == sorted(top[: len(held)])


def card_texts(value: Any) -> list[str]:
    """Every card text in a JSON value."""
    if isinstance(value, str):
        return [value] if CARD.match(value) else []
    if isinstance(value, list):
        return [c for v in value for c in card_texts(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in card_texts(v)]
    return []
