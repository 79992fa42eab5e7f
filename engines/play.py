"""Playing a match with one AI policy per seat: the loop that simulations, benchmarks and
tests share.

`play_out(state, policies)` asks the seat to act for a decision from its own view
(`state.view(seat)`, never more), applies it, and goes on until the match is over.
It returns a `Playthrough`: how many actions were taken and every event they produced,
in order (the state's opening events, dealt before any action, are not among them).

`on_action(seat, action, events)`, when given, is called after every action with
that action's events; a true result stops the play there, leaving the state mid-match
(a simulation that has its sample, a hand count reached in a match that never ends).

The helper is as pure as the engines: no clock, no I/O; randomness lives in the
state and the policies. To time decisions, wrap a policy (see
`bot.commands.simulate.TimedPolicy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engines.base import Event, GameState, Policy

A = TypeVar("A")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Playthrough:
    """What `play_out` did: the number of actions taken and their events, in order."""

    actions: int
    events: list[Event]


def play_out(
    state: GameState[A, V],
    policies: Sequence[Policy[V, A]],
    *,
    on_action: Callable[[int, A, list[Event]], bool | None] | None = None,
) -> Playthrough:
    """Play `state` to the end of its match, seat `s` deciding with `policies[s]`.

    `on_action(seat, action, events)` is called after each action; returning True
    stops before the match ends. Raises `RuntimeError` if the match is not over but
    nobody is to act (an engine bug), and whatever an engine raises for an illegal
    action (`engines.base.IllegalAction`: a policy bug).
    """
    events: list[Event] = []
    actions = 0
    while not state.finished:
        seat = state.to_act
        if seat is None:
            raise RuntimeError(f"{type(state).__name__}: nobody to act but the match is not over")
        action = policies[seat].decide(state.view(seat))
        new = state.apply(seat, action)
        events += new
        actions += 1
        if on_action is not None and on_action(seat, action, new):
            break
    return Playthrough(actions, events)
