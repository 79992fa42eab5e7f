"""The options of `/table create`, per game: which ones a game has, and their checks.

A game declares its options (`GameSpec.options`: each option's name and the config field it
sets; seats are every game's) and the rules linking two of them (`GameSpec.option_rules`).
One check serves every option (`check_option`), reading its limits from the game itself (the
`GameSpec` seat range, the `ge`/`le` bounds of the game's pydantic config field, the runtime's
`TableOptions`), so a limit lives in one place. An option the game lacks is refused by name;
every refusal is a `TableError` with a catalog code (``error.option_*``), never a pydantic
message. The values that pass become the game's settings (config fields) and the table's
options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel

from bot.i18n import catalog, t
from bot.levels import level_text
from bot.runtime import TableSnapshot
from bot.runtime.errors import TableError
from bot.runtime.options import TableOptions
from engines.registry import GameSpec, get_game

OPTION_ORDER = ("seats", "stack", "small_blind", "big_blind", "blind", "ante", "deals")
"""The options the slash commands take (a game offers seats and those it declares)."""


def field_of(spec: GameSpec, option: str) -> str | None:
    """The config field `option` sets in `spec`'s game (None when the game lacks it)."""
    if option == "seats":
        return "seats"
    declared = spec.option(option)
    return None if declared is None else declared.field


def table_options(*values: int | None) -> dict[str, int | None]:
    """The `/table create` options by name, from their values in `OPTION_ORDER` then
    turn_seconds (None: not given), as the commands that take them receive them."""
    return dict(zip((*OPTION_ORDER, "turn_seconds"), values, strict=True))


def offered(game: str) -> list[str]:
    """The `/table create` options `game` has (besides `game` and `turn_seconds`)."""
    spec = get_game(game)
    return [name for name in OPTION_ORDER if field_of(spec, name) is not None] + ["turn_seconds"]


def not_offered(spec: GameSpec, option: str) -> TableError:
    """Refusal for an option the game does not have, naming it and the ones it has."""
    names = ", ".join(offered(spec.name))
    return TableError(
        f"{spec.title} has no {option} option; its options are: {names}",
        code="option_not_offered",
        game=spec.title,
        option=option,
        options=names,
    )


def out_of_range(spec: GameSpec, option: str, value: int, low: int, high: int | None) -> TableError:
    """Refusal for a value outside `low..high` (no upper limit when `high` is None)."""
    said = dict(game=spec.title, option=option, value=value, low=low)
    if high is None:
        message = f"{option} for {spec.title} must be at least {low}, not {value}"
        return TableError(message, code="option_too_low", **said)
    message = f"{option} for {spec.title} must be from {low} to {high}, not {value}"
    return TableError(message, code="option_range", high=high, **said)


def field_limits(config: type[BaseModel], name: str) -> tuple[int, int | None]:
    """The bounds a pydantic config declares for the int field `name` (`ge`/`gt`, `le`/`lt`);
    1 and None when it declares none."""
    low, high = 1, None
    for rule in config.model_fields[name].metadata:
        if isinstance(rule, Ge):
            low = int(rule.ge)  # type: ignore[call-overload]
        elif isinstance(rule, Gt):
            low = int(rule.gt) + 1  # type: ignore[call-overload]
        elif isinstance(rule, Le):
            high = int(rule.le)  # type: ignore[call-overload]
        elif isinstance(rule, Lt):
            high = int(rule.lt) - 1  # type: ignore[call-overload]
    return low, high


def default_of(spec: GameSpec, option: str) -> Any:
    """The value the game uses when `option` is not given (its config field's default)."""
    field = field_of(spec, option)
    if option == "seats" or field is None:
        return spec.default_seats
    return spec.config_type.model_fields[field].default


def option_limits(spec: GameSpec, option: str) -> tuple[str, int, int | None]:
    """Where an option's value goes (the config field, or the table option) and its limits:
    the game's seat range for seats, the `TableOptions` field for turn_seconds, else the `ge`/
    `le` bounds of the game's config field. An option the game lacks is refused by name."""
    if option == "turn_seconds":
        return (option, *field_limits(TableOptions, option))
    field = field_of(spec, option)
    if field is None:
        raise not_offered(spec, option)
    if option == "seats":
        return field, spec.min_seats, spec.max_seats
    return (field, *field_limits(spec.config_type, field))


def check_option(spec: GameSpec, option: str, value: int) -> dict[str, Any]:
    """The one check of every option: the game has it, and `value` is within its limits
    (`option_limits`); returns the setting it makes (`{field: value}`)."""
    field, low, high = option_limits(spec, option)
    if value < low or (high is not None and value > high):
        raise out_of_range(spec, option, value, low, high)
    return {field: value}


def _too_small(option: str, value: int, other: str, least: int) -> TableError:
    return TableError(
        f"{option} ({value}) must be at least {least} because of {other}",
        code="option_too_small_for",
        option=option,
        value=value,
        other=other,
        least=least,
    )


def _check_together(spec: GameSpec, given: Mapping[str, int]) -> None:
    """The rules linking two options (the game's config validators, said plainly)."""

    def value(option: str) -> int:
        found = given.get(option)
        return int(default_of(spec, option) if found is None else found)

    for rule in spec.option_rules:
        least = rule.least(value(rule.other))
        if value(rule.option) < least:
            raise _too_small(rule.option, value(rule.option), rule.other, least)


@dataclass(frozen=True)
class TableSetup:
    """What `/table create` passes to the runtime: the game's settings, the table options."""

    settings: dict[str, Any]
    options: dict[str, Any]


def table_setup(spec: GameSpec, given: Mapping[str, int | None], lang: str = "en") -> TableSetup:
    """Check every option given (None: not given) for `spec`'s game; the first refusal is
    raised (nothing is created), naming the options as `lang`'s slash command does."""
    try:
        return _setup(spec, {name: value for name, value in given.items() if value is not None})
    except TableError as error:
        for param in ("option", "other"):
            if param in error.params:
                error.params[param] = option_name(error.params[param], lang)
        if "options" in error.params:
            error.params["options"] = ", ".join(option_name(n, lang) for n in offered(spec.name))
        raise


def option_name(option: str, lang: str) -> str:
    """An option's name as the slash command shows it in `lang`."""
    return t(f"discord.opt.{option}", lang)


def _setup(spec: GameSpec, chosen: Mapping[str, int]) -> TableSetup:
    settings: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for name in (*OPTION_ORDER, "turn_seconds"):
        if name in chosen:
            (options if name == "turn_seconds" else settings).update(
                check_option(spec, name, chosen[name])
            )
    unknown = sorted(set(chosen) - {*OPTION_ORDER, "turn_seconds"})
    if unknown:
        raise not_offered(spec, unknown[0])
    _check_together(spec, chosen)
    return TableSetup(settings, options)


def _label(name: str, game: str, lang: str, value: Any) -> str:
    """One option in force, in the game's own word when it has one (hold'em "hands")."""
    if value is None:
        return t(f"discord.setup.{name}.none", lang)
    key = f"discord.setup.{name}.{game}"
    if key not in catalog(lang):
        key = f"discord.setup.{name}"
    return t(key, lang, n=value)


def options_in_force(table: TableSnapshot, lang: str) -> str:
    """The options a table plays with, one short line (board and `/table status`)."""
    spec = table.spec
    stored = table.settings
    parts = [t("discord.setup.seats", lang, n=len(table.seats))]
    for name in OPTION_ORDER[1:]:
        field = field_of(spec, name)
        if field is not None:
            parts.append(_label(name, spec.name, lang, stored.get(field, default_of(spec, name))))
    seconds = table.options.turn_seconds
    parts.append(
        t("discord.setup.turn_seconds", lang, n=seconds)
        if seconds
        else t("discord.setup.turn_seconds.none", lang)
    )
    parts.append(level_text(table.options, lang))
    return " · ".join(parts)
