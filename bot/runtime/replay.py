"""Rebuilding a match's engine state from its seed and its logged actions (restore, and
after a failed commit)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.base import DealStarted, Event, GameState
from engines.fair import DealSource
from engines.registry import GameSpec
from storage.base import MatchRecord


def opening_events(state: GameState[Any, Any]) -> list[Event]:
    """Events the engine produced while creating the state (the first DealStarted, buy-ins).

    Engines expose them as `state.opening_events` (a list or a method); none is fine."""
    found = getattr(state, "opening_events", None)
    if callable(found):
        found = found()
    return list(found or [])


def new_match_state(
    spec: GameSpec, config: Any, seed: int, *, table: int, number: int
) -> GameState[Any, Any]:
    """Match `number` of table `table` before its first action, made from its secret seed:
    the engine's RNG (`DealSource.rng_seed`) and the `DealSource` of its deals both come
    from it."""
    source = DealSource.for_match(seed, table=table, match=number)
    return spec.new_state(config, random.Random(DealSource.rng_seed(seed)), source)


def match_state(spec: GameSpec, match: MatchRecord) -> GameState[Any, Any]:
    """A stored match's state before its first action (see `new_match_state`)."""
    config = spec.make_config(**match.config)
    return new_match_state(spec, config, match.seed, table=match.table_id, number=match.number)


def replay(
    spec: GameSpec, match: MatchRecord, actions: Sequence[str]
) -> tuple[GameState[Any, Any], int]:
    """Rebuild a match's state from its seed and logged action texts; also the current deal."""
    state = match_state(spec, match)
    deal = 0
    for event in opening_events(state):
        if isinstance(event, DealStarted):
            deal = event.deal
    for text in actions:
        seat = state.to_act
        if seat is None:
            raise RuntimeError(f"replay of match {match.id}: nobody to act before {text!r}")
        for event in state.apply(seat, spec.parse_action(text)):
            if isinstance(event, DealStarted):
                deal = event.deal
    return state, deal
