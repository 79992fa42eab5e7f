"""Public effects: what a channel must show of a match, derived from its committed log.

An effect is the board of deal d (`board:d`), the result of deal d (`result:d`: the
events that ended it, from its last play to its settlement) or the match result
(`match_result`). Each carries `upto`, the turn its events were committed up to, and the
events it announces. The same function splits events into effects live (the runtime's
`public` calls) and at start-up (`derive`, replaying the log), so both agree on the keys
and their order: effects are delivered in log order, each once.

Pure: no I/O, no Discord.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.runtime.replay import match_state, opening_events
from engines.base import DealSettled, DealStarted, Event, MatchEnded
from engines.registry import GameSpec
from storage.base import MatchRecord

MATCH_RESULT = "match_result"
NONCE_LENGTH = 25
"""Discord's longest message nonce (characters)."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One public effect of a match (see the module docstring)."""

    key: str
    upto: int
    deal: int
    events: tuple[Event, ...] = ()
    view: Any = field(default=None, compare=False)
    """For a board or a deal's result derived at start-up: the spectator view at the end
    of its deal (the last one committed before the action that settled it)."""

    @property
    def kind(self) -> str:
        """`board`, `result` or `match_result`."""
        return self.key.split(":", 1)[0]


def split(events: Sequence[Event], upto: int, deal: int) -> tuple[list[Effect], list[Event]]:
    """The effects in one run of committed public events (in order), and the events left
    for the board's running log. `deal` is the deal being played before these events."""
    effects: list[Effect] = []
    loose: list[Event] = []
    since: list[Event] = []
    for event in events:
        if isinstance(event, DealStarted):
            if since and effects and effects[-1].kind == "result":
                last = effects[-1]  # what followed the settlement (eliminations) goes with it
                effects[-1] = Effect(last.key, last.upto, last.deal, (*last.events, *since))
            else:
                loose.extend(since)
            since = []
            deal = event.deal
            effects.append(Effect(f"board:{deal}", upto, deal))
        elif isinstance(event, DealSettled):
            key = f"result:{event.deal}"
            if effects and effects[-1].key == key:
                # A second settlement of the same deal (a carried pot handed back when the
                # match ends): one result, its amounts summed as the ledger sums them.
                last = effects[-1]
                effects[-1] = Effect(key, upto, last.deal, (*last.events, *since, event))
            else:
                effects.append(Effect(key, upto, event.deal, (*since, event)))
            since = []
        elif isinstance(event, MatchEnded):
            effects.append(Effect(MATCH_RESULT, upto, deal, (*since, event)))
            since = []
        elif event.to is None:
            since.append(event)
    loose.extend(since)
    return effects, loose


def derive(spec: GameSpec, match: MatchRecord, actions: Sequence[str]) -> list[Effect]:
    """Every effect of a match's log, in order (replayed from its seed); each board and
    deal result carries the spectator view at the last turn of its deal."""
    state = match_state(spec, match)
    upto = match.first_seq
    found, _ = split([e for e in opening_events(state) if e.to is None], upto, 0)
    deal = next((e.deal for e in reversed(found) if e.kind == "board"), 0)
    views: dict[int, Any] = {deal: state.view(None)}
    for text in actions:
        seat = state.to_act
        if seat is None:
            raise RuntimeError(f"replay of match {match.id}: nobody to act before {text!r}")
        events = state.apply(seat, spec.parse_action(text))
        upto += 1
        effects, _ = split(events, upto, deal)
        for effect in effects:
            if effect.kind == "board":
                deal = effect.deal
        found.extend(effects)
        views[deal] = state.view(None)
    return [
        Effect(e.key, e.upto, e.deal, e.events, views.get(e.deal))
        if e.kind in ("board", "result")
        else e
        for e in found
    ]


def pending(effects: Sequence[Effect], delivered: set[str]) -> list[Effect]:
    """The effects still to deliver: those after the last delivered one, in order. With
    nothing delivered yet (a match older than the records), only the current deal's board
    and what follows it."""
    last = max((i for i, e in enumerate(effects) if e.key in delivered), default=None)
    if last is None:
        boards = [i for i, e in enumerate(effects) if e.kind == "board"]
        start = boards[-1] if boards else 0
        return list(effects[start:])
    return [e for e in effects[last + 1 :] if e.key not in delivered]


def post_nonce(place: str, table: int, match: int, key: str) -> str:
    """The nonce of the post of effect `key` of `match` at `table` in channel `place`: the
    same in every process (so Discord, with `enforce_nonce`, returns the message a repeated
    post already made) and different for every effect; 25 hex digits."""
    digest = hashlib.sha256(f"{place}:{table}:{match}:{key}".encode()).hexdigest()
    return digest[:NONCE_LENGTH]
