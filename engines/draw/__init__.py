"""French draw poker (`draw`): blind and jackpot deals, surblind, openers, cave and rebuys.

The rules, with the rulings this engine follows, are docs/draw.md. Modules:
`config` (table settings), `actions` (what players type), `events`, `hands`
(ranking and jackpot openings), `state` (the match: its betting rounds are the
shared `engines.poker.betting` round with the entry price, side pots and odd
chips `engines.poker.pots`), `view`. `SPEC` registers the game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import DealSettled, Event
from engines.draw.actions import DrawAction, parse_action
from engines.draw.config import DEFAULT_DEALS, DrawConfig
from engines.draw.state import DrawState, restore, timeout_action
from engines.draw.view import DrawView
from engines.fair import DealSource
from engines.registry import AtLeast, GameSpec, LazyPolicies, SimHooks, TableOption

__all__ = [
    "DEFAULT_DEALS",
    "SPEC",
    "DrawAction",
    "DrawConfig",
    "DrawState",
    "DrawView",
    "parse_action",
]


def new_state(
    config: DrawConfig, rng: random.Random, source: DealSource | None = None
) -> DrawState:
    """A new match; the first deal is dealt (see `DrawState.opening_events` for its events)."""
    return DrawState(config, rng, source)


def _figures(event: Event, state: Any) -> Mapping[str, Sequence[float]]:
    if isinstance(event, DealSettled) and event.chips is not None:
        return {"chips_per_deal": [float(c) for c in event.chips]}
    return {}


def _sim_config(seats: int) -> DrawConfig:
    return DrawConfig(seats=seats, deals=100)


SPEC = GameSpec(
    name="draw",
    title="French draw poker",
    min_seats=2,
    max_seats=6,
    default_seats=4,
    config_type=DrawConfig,
    new_state=new_state,
    restore=restore,
    parse_action=parse_action,
    timeout_action=timeout_action,
    owner_decides=lambda view: view.phase == "rebuy",
    policies=LazyPolicies("engines.ai.draw_players"),
    default_policy="strong",
    levels={"easy": "calling", "normal": "strong", "hard": "hard"},
    sim=SimHooks(unit="deal", unit_event=DealSettled, figures=_figures, config=_sim_config),
    options=(
        TableOption("stack", "cave_unit"),
        TableOption("blind", "blind_unit"),
        TableOption("ante", "pot_unit"),
        TableOption("deals", "deals"),
    ),
    option_rules=(AtLeast("stack", "blind", times=4), AtLeast("stack", "ante")),
    rebuys=True,
)
