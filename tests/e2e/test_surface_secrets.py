"""The privacy surface's own record of what each deal showed (`tests.e2e.surface`) is right
when one action plays several deals: it is the yardstick of every public message, so a
card it files under the wrong deal is a leak reported where there is none."""

from __future__ import annotations

import random
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

from bot.runtime.replay import new_match_state, opening_events
from bot.runtime.table import audience_runs
from engines.base import DealStarted, Event
from engines.cards import Card
from engines.holdem import Showdown
from engines.registry import get_game
from tests.e2e.surface import watch_secrets


def _match_until_two_deals_after_a_showdown() -> list[list[Event]]:
    """The events of a hold'em match, action by action (its opening first), up to one
    that shows down its deal, then deals one that runs out at once (a stack all-in on the
    blinds) and a third."""
    spec = get_game("holdem")
    for seed in range(2000):
        rng = random.Random(seed)
        state = new_match_state(spec, spec.make_config(), seed, table=1, number=1)
        actions = [opening_events(state)]
        while state.to_act is not None:
            seat = state.to_act
            events = state.apply(seat, rng.choice(list(state.legal_actions(seat))))
            actions.append(events)
            starts = [i for i, e in enumerate(events) if isinstance(e, DealStarted)]
            shows = [i for i, e in enumerate(events) if isinstance(e, Showdown)]
            if len(starts) >= 2 and shows and shows[0] < starts[0]:
                return actions
    raise AssertionError("no action in 2,000 matches played two deals after a showdown")


async def test_a_showdown_is_filed_under_its_deal_when_one_action_deals_twice() -> None:
    actions = _match_until_two_deals_after_a_showdown()
    delivered: list[Event] = []

    async def public(table: Any, batch: list[Event]) -> None:
        delivered.extend(batch)

    async def private(table: Any, seat: int, player: Any, batch: list[Event]) -> None:
        delivered.extend(batch)

    bot: Any = SimpleNamespace(
        front=SimpleNamespace(public=public, private=private),
        tables=SimpleNamespace(by_id=lambda table_id: None),
    )
    secrets = watch_secrets(bot)
    deal = 0
    for events in actions:
        deal = max([deal, *(e.deal for e in events if isinstance(e, DealStarted))])
        # As the runtime delivers them: runs for one audience, each with the table as it
        # is after the whole action.
        snapshot = SimpleNamespace(id=7, place=70, deal=deal)
        for to, run in audience_runs(events):
            if to is None:
                await bot.front.public(snapshot, run)
            else:
                await bot.front.private(snapshot, to, object(), run)
    assert delivered == [e for events in actions for e in events]
    last = actions[-1]
    dealt = [e.deal for e in last if isinstance(e, DealStarted)]
    shows = [e for e in last if isinstance(e, Showdown)]
    assert dealt == [deal - 1, deal] and len(shows) == 2, (dealt, shows)
    # The showdown that ends the deal acted in, the one of the deal run out at once.
    for shown, filed in zip(shows, (deal - 2, deal - 1), strict=True):
        cards = set(shown.face_up())
        assert cards and cards <= secrets.revealed[(7, filed)], (filed, cards)
    # Every deal holds what its own events turned up, read from the events in one run.
    expected: dict[tuple[int, int], set[Card]] = defaultdict(set)
    current = 0
    for event in delivered:
        current = event.deal if isinstance(event, DealStarted) else current
        expected[(7, current)] |= set(event.face_up())
    assert {k: v for k, v in secrets.revealed.items() if v} == {
        k: v for k, v in expected.items() if v
    }
