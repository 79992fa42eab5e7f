"""The JSON history: built from a stored match, it holds the deals, actions, events,
results and ledger rows; a member's history never holds a card they did not see."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from bot.history.build import (
    HistoryError,
    build_match_history,
    export_matches,
    load_match,
    recent_deals,
)
from bot.history.model import HistoryFile
from bot.runtime import Player
from bot.runtime.replay import match_state
from engines.base import DealStarted, Event, MatchEnded
from engines.fair import commitment
from engines.registry import get_game
from storage import SqliteStorage
from storage.base import MatchRecord
from tests.bot.history.helpers import GAMES, engine_match, played, random_legal, runtime

CARD = re.compile(r"\b(?:10|[2-9TJQKA])[DCHS]\b")


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def engine_events(game: str, config: dict[str, Any], seed: int, actions: list[str]) -> list[Event]:
    """Every event of a match, replayed straight on the engine (not through the history code)."""
    spec = get_game(game)
    record = MatchRecord(1, 1, 1, seed, spec.make_config(**config).model_dump(mode="json"), 0, 0.0)
    state = match_state(spec, record)
    events: list[Event] = list(getattr(state, "opening_events", []))
    for text in actions:
        seat = state.to_act
        assert seat is not None
        events += state.apply(seat, spec.parse_action(text))
    return events


def seen_by(events: list[Event], seat: int) -> set[str]:
    """Every card code the seat was told about: public events and its own private ones."""
    told = [e for e in events if e.to is None or e.to == seat]
    return cards_in(json.dumps([e.to_json() for e in told]))


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [10**12 + 1, 10**12 + 2, 10**12 + 3])
def test_a_seats_history_holds_no_card_it_did_not_see(game: str, seed: int) -> None:
    players = [f"u{s}" for s in range(int(GAMES[game].get("seats", 2 if game == "duel" else 4)))]
    log = engine_match(game, GAMES[game], seed, random_legal, players=players)
    events = engine_events(game, GAMES[game], seed, [a.action for a in log.actions])
    # The match's secret never shows; the deals' seeds are public once the match is over.
    seeds = {log.match.seed}
    ended = next(e for e in events if isinstance(e, MatchEnded))
    everything = build_match_history(log).model_dump_json()
    leaked_somewhere = False
    for seat in range(len(players)):
        history = build_match_history(log, seat=seat)
        assert history.viewer.seat == seat and not history.viewer.omniscient
        text = history.model_dump_json()
        own = cards_in(" ".join(a.action for a in log.actions if a.seat == seat))
        allowed = seen_by(events, seat) | own
        assert cards_in(text) <= allowed, sorted(cards_in(text) - allowed)
        assert own <= cards_in(text)  # what you played is in your history
        for number in seeds - {0}:
            assert not re.search(rf"(?<!\d){number}(?!\d)", text), number
        for deal in history.deals:
            assert deal.deck is None and deal.seed == dict(ended.seeds)[deal.deal]
            for action in deal.actions:
                assert (action.action is not None) == (action.seat == seat)
        leaked_somewhere |= not cards_in(everything) <= allowed
    # The check above can fail: the omniscient history does hold cards some seat never saw.
    assert leaked_somewhere


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_omniscient_history_has_the_deck_order_of_ended_deals(game: str) -> None:
    log = engine_match(game, GAMES[game], 4, random_legal)
    history = build_match_history(log)
    assert history.viewer.omniscient and history.seed == str(log.match.seed)
    assert history.deals and all(d.ended for d in history.deals)
    assert [d.deal for d in history.deals] == list(range(1, len(history.deals) + 1))
    assert sum(len(d.actions) for d in history.deals) == len(log.actions)
    for deal in history.deals:
        private = [e.event for e in deal.events if e.event.get("to") is not None]
        dealt = cards_in(json.dumps(private))
        if game == "duel":
            assert deal.deck is None  # the duel's shoe is not one seeded deck
            continue
        assert deal.deck is not None and len(deal.deck) == 52 and len(set(deal.deck)) == 52
        first = deal.events[0].event if deal.deal > 1 else None
        assert first is None or first["kind"] == "deal_started"
        # What the seats were dealt comes off the top of that deck.
        assert dealt and dealt <= set(deal.deck)


def test_an_unfinished_match_has_no_omniscient_history() -> None:
    log = engine_match("holdem", GAMES["holdem"], 3, random_legal, finished=False, max_actions=30)
    assert not log.finished
    with pytest.raises(HistoryError) as refused:
        build_match_history(log)
    assert refused.value.code == "history_not_finished"
    unfinished = build_match_history(log, seat=0)
    assert unfinished.deals[-1].ended is False and unfinished.deals[-1].result is None
    # Nor any deal's seed: no 64-hex string that hashes to a commitment of the match.
    text = unfinished.model_dump_json()
    committed = {
        e.event["deal"]: e.event["commitment"]
        for d in unfinished.deals
        for e in d.events
        if e.event["kind"] == DealStarted.kind
    }
    assert committed and all(d.seed is None for d in unfinished.deals)
    for found in re.findall(r"[0-9a-f]{64}", text):
        assert all(
            commitment(bytes.fromhex(found), table=1, match=1, deal=deal) != value
            for deal, value in committed.items()
        ), f"a seed in a live match's history: {found}"


def test_a_history_file_round_trips_and_a_broken_one_is_refused() -> None:
    log = engine_match("draw", GAMES["draw"], 6, random_legal)
    history = HistoryFile(matches=[build_match_history(log), build_match_history(log, seat=1)])
    text = history.model_dump_json()
    assert HistoryFile.model_validate_json(text) == history
    data = json.loads(text)
    del data["matches"][0]["deals"][0]["actions"]
    with pytest.raises(ValueError, match="actions"):
        HistoryFile.model_validate(data)


# Stored matches, played by the runtime ------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_stored_match_exports_with_its_ledger(store: SqliteStorage, game: str) -> None:
    match_id = await played(store, game, f"p-{game}", 3)
    history = (await export_matches(store, match_id=match_id)).matches[0]
    assert history.game == game and history.seats[0].player_id == "u1"
    chips = await store.chip_entries(match_id)
    penalties = await store.penalty_entries(match_id)
    rows = history.ledger + [row for deal in history.deals for row in deal.ledger]
    assert sorted((r.seat, r.amount) for r in rows if r.reason != "penalty") == sorted(
        (c.seat, c.delta) for c in chips
    )
    assert sorted((r.seat, r.amount) for r in rows if r.reason == "penalty") == sorted(
        (p.seat, p.penalty) for p in penalties
    )
    for deal in history.deals:
        assert deal.result is not None
        hand_rows = [r for r in deal.ledger if r.reason in ("hand", "penalty")]
        per_seat = deal.result.chips if deal.result.chips is not None else deal.result.penalties
        assert per_seat is not None
        for row in hand_rows:
            assert per_seat[row.seat] == row.amount
    mine = (await export_matches(store, match_id=match_id, player_id="u1")).matches[0]
    assert mine.viewer.seat == 0 and mine.viewer.player_id == "u1"
    with pytest.raises(HistoryError) as refused:
        await export_matches(store, match_id=match_id, player_id="stranger")
    assert refused.value.code == "history_not_player"


async def test_recent_deals_are_the_members_last_ended_deals(store: SqliteStorage) -> None:
    first = await played(store, "bigtwo", "one", 1)
    second = await played(store, "holdem", "two", 3)  # a match of more than three hands
    both = await export_matches(store)
    assert [m.match_id for m in both.matches] == [first, second]
    recent = await recent_deals(store, "u1", deals=3)
    assert [m.match_id for m in recent.matches] == [second]
    full = await load_match(store, second)
    last = [d.deal for d in build_match_history(full, seat=0).deals if d.ended][-3:]
    assert [d.deal for d in recent.matches[0].deals] == last
    many = await recent_deals(store, "u1", deals=1000)
    assert [m.match_id for m in many.matches] == [second, first]
    assert await recent_deals(store, "nobody", deals=5) == HistoryFile(matches=[])
    assert (await recent_deals(store, "u1", deals=5, guild="other")).matches == []
    with pytest.raises(HistoryError) as refused:
        await load_match(store, 999)
    assert refused.value.code == "history_no_match"


async def test_a_member_who_took_over_an_ai_seat_sees_only_their_own_deals(
    store: SqliteStorage,
) -> None:
    manager = runtime(store)
    try:
        table = await manager.create(
            guild="g1",
            place="takeover",
            game="bigtwo",
            settings={"deals": 4},
            options={"ai_policy": "random"},
        )
        await table.start(seed=11)
        while table.deal < 2:
            await asyncio.sleep(0.001)
        await table.join(Player("u9", "Cy"), seat=2)
        joined = table.deal
        await table.leave("u9")
        await table.idle()
        assert table.finished and table.match is not None
        match_id = table.match.id
    finally:
        await manager.close()
    credited = {p.deal for p in await store.penalty_entries(match_id) if p.player_id == "u9"}
    assert credited and min(credited) == joined >= 2
    mine = (await recent_deals(store, "u9", deals=50)).matches[0]
    assert {d.deal for d in mine.deals} == credited
    everything = (await export_matches(store, match_id=match_id)).matches[0]
    assert len(everything.deals) == 4
