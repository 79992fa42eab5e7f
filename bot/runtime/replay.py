"""Rebuilding a match's engine state from its seed and its logged actions (restore, and
after a failed commit)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.base import DealStarted, Event, GameState
from engines.registry import GameSpec
from storage.base import MatchRecord


def opening_events(state: GameState[Any, Any]) -> list[Event]:
    """Events the engine produced while creating the state (the first DealStarted, buy-ins).

    Engines expose them as `state.opening_events` (a list or a method); none is fine."""
    found = getattr(state, "opening_events", None)
    if callable(found):
        found = found()
    return list(found or [])


def replay(
    spec: GameSpec, match: MatchRecord, actions: Sequence[str]
) -> tuple[GameState[Any, Any], int]:
    """Rebuild a match's state from its seed and logged action texts; also the current deal."""
    config = spec.make_config(**match.config)
    state = spec.new_state(config, random.Random(match.seed))
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
