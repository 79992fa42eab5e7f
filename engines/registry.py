"""The game registry: one `GameSpec` per game, looked up by short name.

A game declares itself: its engine module holds a `SPEC` saying everything the runtime,
the fronts, storage and the tools read about it (seats, table options and their limits,
buy-ins, a challenge mode, how its deck is seeded, its history formats, where its bot-side
declaration lives), and it is registered by one call, `register(name, module)`: the four
games' modules are listed in `BUILT_IN`; a game outside the product (the test suite's
fifth game) registers from its own package, named in the `DEUCEBOT_EXTRA_GAMES`
environment variable so every process of the bot (and its workers) loads it.
Engine modules are imported lazily, so a broken or slow game module never stops the
others from loading.
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from engines.base import JSON, Event, GameState, Policy
from engines.fair import DealSource

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""The AI levels a table may choose (`TableOptions.ai_level`), weakest first."""

PolicyFactory = Callable[[random.Random], Policy[Any, Any]]


class NewState(Protocol):
    """How a game makes a new match: from its config, an RNG for what is not cards (the
    first dealer), and where the cards come from (None: a source with a secret drawn from
    the RNG; see `engines.fair.DealSource`)."""

    def __call__(
        self, config: Any, rng: random.Random, source: DealSource | None = None, /
    ) -> GameState[Any, Any]:
        """A new match, its first deal dealt."""
        ...


@dataclass(frozen=True)
class SimHooks:
    """How `deucebot simulate` measures a game.

    `unit` names what `-n` counts ("deal", "hand" or "match"); `unit_event`
    is the event type that closes one unit; `figures(event, state)` turns such
    an event into per-seat samples, e.g. ``{"win_rate": [1, 0, 0, 0]}``.
    `config(seats)` is the config simulations use.
    """

    unit: str
    unit_event: type[Event]
    figures: Callable[[Event, Any], Mapping[str, Sequence[float]]]
    config: Callable[[int], BaseModel]


@dataclass(frozen=True)
class TableOption:
    """A table option a game offers (`/table create`, `/config defaults`, `deucebot play
    --NAME`): its public name and the config field it sets (whose `ge`/`le` bounds and
    default are the option's). Seats are every game's option (`GameSpec.min_seats`..)."""

    name: str
    field: str


@dataclass(frozen=True)
class AtLeast:
    """A rule linking two table options, said plainly: `option` must be at least `times`
    times `other`, plus `plus` (the game's config validators, checked before them so
    every front refuses with the same words)."""

    option: str
    other: str
    times: int = 1
    plus: int = 0

    def least(self, other: int) -> int:
        """The least value `option` may take when `other` is `other`."""
        return self.times * other + self.plus


@dataclass(frozen=True)
class GameSpec:
    """Everything the runtime, the fronts and the tools need to know about one game."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    default_seats: int
    config_type: type[BaseModel]
    new_state: NewState
    restore: Callable[[JSON], GameState[Any, Any]]
    parse_action: Callable[[str], Any]
    timeout_action: Callable[[Any], Any]
    """The safe default played for an absent human, computed from that seat's view."""
    policies: Mapping[str, PolicyFactory]
    default_policy: str
    sim: SimHooks
    scoring: Literal["penalty", "chips"] = "chips"
    """How the game is ranked on leaderboards: by penalties (lowest first) or by chips."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    levels: Mapping[str, str] = field(default_factory=dict)
    """AI level (`LEVELS`) -> the policy that plays it; a level not named plays
    `default_policy`."""
    owner_decides: Callable[[Any], bool] = field(default=lambda view: False)
    """True when the decision in this view is the seat owner's alone (spending their own
    money: buying chips). An AI standing in for an away person then plays
    `timeout_action` instead of choosing."""
    options: tuple[TableOption, ...] = ()
    """The table options this game offers besides seats, in the order people read them."""
    option_rules: tuple[AtLeast, ...] = ()
    """The rules linking two of its options."""
    rebuys: bool = False
    """Chips are bought in buy-ins and rebought between deals: a player's statistics add
    their buy-in ledger (`Storage.buy_ins`)."""
    challenge: bool = False
    """The game a member challenges another to (`/duel challenge`): at most one game."""
    deck: Literal["per-deal", "shoe"] = "per-deal"
    """How its cards are seeded: each deal from one fresh `deck_order(seed)` (a history
    shows a deal's deck once its seed is revealed), or a shoe carried over from deal to
    deal (no deck per deal)."""
    history_formats: tuple[str, ...] = ("json",)
    """The formats its hand histories are exported in (`json`; `phh` for hold'em)."""
    deal_word: Literal["deal", "hand"] = "deal"
    """What one deal is called to people: a "deal", or a "hand" (hold'em)."""
    face: str = ""
    """The module of its bot-side declaration (`FACE`: renderer, pictures, gallery
    scenes); empty: `bot.render.<name>`."""

    @property
    def seat_range(self) -> str:
        """The players this game's tables seat, as text: "2-9", or "4" for a fixed count."""
        if self.min_seats == self.max_seats:
            return str(self.min_seats)
        return f"{self.min_seats}-{self.max_seats}"

    def seats_refusal(self, count: int) -> str | None:
        """The one message for a seat count outside `min_seats..max_seats` (None when it fits);
        checked before any config validation, so every front says the same."""
        if self.min_seats <= count <= self.max_seats:
            return None
        return f"{self.name} takes {self.seat_range} players, not {count}"

    def option(self, name: str) -> TableOption | None:
        """The table option `name` of this game (None when it has none by that name)."""
        return next((o for o in self.options if o.name == name), None)

    def make_config(self, **settings: Any) -> BaseModel:
        """Validate table settings into this game's config (pydantic errors name the field)."""
        return self.config_type(**settings)

    def level_policy(self, level: str) -> str:
        """The policy that plays AI `level` (one of `LEVELS`) in this game."""
        if level not in LEVELS:
            raise UnknownName(f"no AI level {level!r}; choose one of: {', '.join(LEVELS)}")
        return self.levels.get(level, self.default_policy)

    def make_policy(self, name: str, rng: random.Random) -> Policy[Any, Any]:
        """Build the AI policy `name` with its own RNG."""
        try:
            factory = self.policies[name]
        except KeyError:
            known = ", ".join(sorted(self.policies))
            raise UnknownName(
                f"{self.name} has no AI policy {name!r}; choose one of: {known}"
            ) from None
        return factory(rng)


class LazyPolicies(Mapping[str, PolicyFactory]):
    """A game's AI policies, read from `module.POLICIES` on first use.

    The AI module imports the engine module for its view types, so the
    engine's `SPEC` names the policies by module instead of importing them.
    """

    def __init__(self, module: str) -> None:
        """Policies of `module` (e.g. ``"engines.ai.bigtwo"``)."""
        self._module = module

    def _load(self) -> Mapping[str, PolicyFactory]:
        policies: Mapping[str, PolicyFactory] = importlib.import_module(self._module).POLICIES
        return policies

    def __getitem__(self, key: str) -> PolicyFactory:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


class UnknownName(ValueError):
    """An unknown game or policy name; the message lists the known ones."""


DEFAULT_GAME = "bigtwo"
"""The game a front offers when nothing else is said."""

BUILT_IN: tuple[str, ...] = ("engines.bigtwo", "engines.holdem", "engines.draw", "engines.duel")
"""The product's games: the engine modules defining their `SPEC`, each registered under
its module's last name."""

EXTRA_GAMES_VARIABLE = "DEUCEBOT_EXTRA_GAMES"
"""The environment variable naming packages (comma-separated) that register more games
when imported; read once per process, at the first look-up."""

_MODULES: dict[str, str] = {module.rsplit(".", 1)[1]: module for module in BUILT_IN}
"""Game name -> the engine module that defines its `SPEC`."""

_CACHE: dict[str, GameSpec] = {}
_extras_loaded = False


def register(name: str, module: str) -> None:
    """Register game `name`, whose `SPEC` is in `module` (imported at its first look-up).
    The seam every game goes through; registering a name again with another module is
    refused."""
    key = name.strip().lower()
    known = _MODULES.get(key)
    if known is not None and known != module:
        raise ValueError(f"the game {key!r} is already registered by {known}")
    _MODULES[key] = module


def unregister(name: str) -> None:
    """Forget game `name` (a test's game, registered for that test only)."""
    key = name.strip().lower()
    _MODULES.pop(key, None)
    _CACHE.pop(key, None)


def load_extra_games(environ: Mapping[str, str] | None = None) -> None:
    """Import the packages named in `DEUCEBOT_EXTRA_GAMES` (once per process): each
    registers its games with `register`. A package that is missing is an error."""
    global _extras_loaded
    if _extras_loaded:
        return
    _extras_loaded = True
    named = (os.environ if environ is None else environ).get(EXTRA_GAMES_VARIABLE, "")
    for package in (part.strip() for part in named.split(",")):
        if package:
            importlib.import_module(package)


def get_game(name: str) -> GameSpec:
    """The spec of game `name`; raises `UnknownName` listing the games that exist."""
    key = name.strip().lower()
    if key in _CACHE:
        return _CACHE[key]
    load_extra_games()
    module_name = _MODULES.get(key)
    if module_name is None:
        raise UnknownName(
            f"there is no game {name!r}; choose one of: {', '.join(available_games())}"
        )
    try:
        spec = importlib.import_module(module_name).SPEC
    except ImportError as error:
        raise UnknownName(f"the game {name!r} is not available yet ({error})") from error
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{module_name}.SPEC is not a GameSpec")
    _CACHE[key] = spec
    return spec


def available_games() -> list[str]:
    """Short names of the games whose modules load (the product's first, then the
    registered ones, in order of registration)."""
    load_extra_games()
    names = []
    for name in list(_MODULES):
        try:
            get_game(name)
        except UnknownName:
            continue
        names.append(name)
    return names


def built_in_games() -> tuple[str, ...]:
    """The product's own games (`BUILT_IN`), by name."""
    return tuple(module.rsplit(".", 1)[1] for module in BUILT_IN)


def challenge_game() -> GameSpec | None:
    """The game members challenge one another to (`GameSpec.challenge`), if one has it."""
    return next((get_game(n) for n in available_games() if get_game(n).challenge), None)
