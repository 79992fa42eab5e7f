"""No deal's seed before the match is over (issue 40, item 1): over random matches of all
four games, no event before `MatchEnded`, public or private, holds a 64-hex string that
hashes to one of the match's commitments; `MatchEnded` reveals exactly the seeds of the
match's seeded deals, each hashing to the commitment its deal published.

A seed gives a deal's whole deck: in Deuce Duel the card the opponent keeps, hidden, into
the next deal; in the poker games every folded hand and every card drawn."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import DealStarted, Event, MatchEnded
from engines.fair import DealSource, commitment
from engines.registry import get_game

GAMES: dict[str, dict[str, Any]] = {
    "bigtwo": {"deals": 2},
    "holdem": {"seats": 3, "max_hands": 4},
    "draw": {"seats": 4, "deals": 3},
    "duel": {"starting_chips": 3},
}
TABLE, MATCH = 5, 3
HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def committed_seeds(text: str, commitments: dict[int, str]) -> list[int]:
    """The deals whose seed is in `text`: every 64-hex string hashed as each deal's seed."""
    found = []
    for match in HEX64.findall(text):
        seed = bytes.fromhex(match)
        found += [
            deal
            for deal, value in commitments.items()
            if commitment(seed, table=TABLE, match=MATCH, deal=deal) == value
        ]
    return found


def play_to_the_end(
    game: str, source: DealSource, rng_seed: int, choices: random.Random
) -> list[Event]:
    """Every event of a match of random legal actions, played until it ends."""
    spec = get_game(game)
    state = spec.new_state(spec.make_config(**GAMES[game]), random.Random(rng_seed), source)
    opening = getattr(state, "opening_events", None)  # a list or a method, per engine
    events: list[Event] = list((opening() if callable(opening) else opening) or [])
    for _ in range(5000):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        events += state.apply(seat, choices.choice(list(state.legal_actions(seat))))
    assert state.finished, "the match did not end"
    return events


matches = st.tuples(
    st.sampled_from(sorted(GAMES)),
    st.binary(min_size=32, max_size=32),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_no_seed_before_the_match_ends_and_every_seed_at_its_end(match: Any) -> None:
    game, secret, rng_seed, choice_seed = match
    source = DealSource(secret, TABLE, MATCH)
    events = play_to_the_end(game, source, rng_seed, random.Random(choice_seed))
    commitments = {
        e.deal: e.commitment for e in events if isinstance(e, DealStarted) and e.commitment
    }
    assert commitments, "no deal was committed"
    *before, last = events
    assert isinstance(last, MatchEnded), f"the match ended with {last.kind}, not match_ended"
    for event in before:
        assert not isinstance(event, MatchEnded)
        text = json.dumps(event.to_json())
        assert committed_seeds(text, commitments) == [], f"{event.kind} reveals a seed: {text}"
    revealed = dict(last.seeds)
    assert [deal for deal, _ in last.seeds] == sorted(commitments), "not every deal's seed"
    for deal, seed in revealed.items():
        assert (
            commitment(bytes.fromhex(seed), table=TABLE, match=MATCH, deal=deal)
            == (commitments[deal])
        )
    assert sorted(committed_seeds(json.dumps(last.to_json()), commitments)) == sorted(commitments)


@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32))
@settings(max_examples=8, deadline=None)
def test_a_stacked_deal_has_no_seed_to_reveal(game: str, choice_seed: int) -> None:
    """A deal dealt from an explicit deck order (tests, recorded hands) has no seed: the
    match's end reveals only the seeded deals'."""
    base = DealSource(bytes(range(32)), TABLE, MATCH)
    source = base.stacked(1, base.deck(1, 2 if game == "duel" else 1))
    events = play_to_the_end(game, source, 7, random.Random(choice_seed))
    ended = events[-1]
    assert isinstance(ended, MatchEnded)
    seeded = [e.deal for e in events if isinstance(e, DealStarted) and e.commitment]
    assert 1 not in seeded and [deal for deal, _ in ended.seeds] == seeded
