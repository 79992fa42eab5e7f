"""Errors of the table runtime: each has a stable `code` (i18n key "error.<code>") and params.

`TableError` is one of the bot's refusals (`bot.errors.Refusal`), not a rule's: the
engine's refusals stay `IllegalAction`, and `bot.i18n.explain(error, lang)` translates
both with one call (`bot.errors.REFUSALS` catches both). A refused request writes nothing.
"""

from __future__ import annotations

from bot.errors import Refusal


class TableError(Refusal):
    """A request the runtime refused; nothing changed and nothing was written."""


def unknown_table(place: str) -> TableError:
    """No live table in that place."""
    return TableError(f"there is no table here ({place})", code="unknown_table", place=place)


def table_exists(place: str, game: str, title: str) -> TableError:
    """A live table already sits in that place: `game` (its short name) titled `title`
    (the name its board shows, which the refusal says)."""
    return TableError(
        f"a {title} table already exists here ({place}); stop it first",
        code="table_exists",
        place=place,
        game=game,
        title=title,
    )


def not_seated(player: str) -> TableError:
    """The player holds no seat at this table."""
    return TableError(
        f"you are not seated at this table ({player})", code="not_seated", player=player
    )


def already_seated(player: str, seat: int) -> TableError:
    """The player already holds a seat."""
    return TableError(
        f"you already sit in seat {seat + 1}", code="already_seated", player=player, seat=seat
    )


def seat_taken(seat: int, name: str) -> TableError:
    """Another human holds that seat."""
    return TableError(
        f"seat {seat + 1} is taken by {name}", code="seat_taken", seat=seat, name=name
    )


def no_such_seat(seat: int, seats: int) -> TableError:
    """The seat number is outside the table."""
    return TableError(
        f"there is no seat {seat + 1}: this table has seats 1-{seats}",
        code="no_such_seat",
        seat=seat,
        seats=seats,
    )


def table_full(seats: int) -> TableError:
    """Every seat is held by a human."""
    return TableError(f"all {seats} seats are taken", code="table_full", seats=seats)


def not_your_turn(seat: int, to_act: int | None) -> TableError:
    """The seat is not the one to act."""
    who = "nobody" if to_act is None else f"seat {to_act + 1}"
    return TableError(
        f"it is not your turn: {who} is to act", code="not_your_turn", seat=seat, to_act=to_act
    )


def stale_turn(turn: int, current: int) -> TableError:
    """The action was made for an earlier (or unknown) turn: a double click or an old button."""
    return TableError(
        f"that action was for turn {turn}, but the table is at turn {current}; "
        "look at the board again",
        code="stale_turn",
        turn=turn,
        current=current,
    )


def match_finished() -> TableError:
    """The match is over; restart to play again."""
    return TableError("the match is over; restart the table to play again", code="match_finished")


def match_not_started() -> TableError:
    """The table is still in the lobby."""
    return TableError("the match has not started yet", code="match_not_started")


def match_running() -> TableError:
    """Start was asked while a match is being played."""
    return TableError("a match is already being played at this table", code="match_running")


def hint_unavailable() -> TableError:
    """No hint now: the AI workers are stopping (a restart) or the one asked died."""
    return TableError("no hint now: the AI is not available", code="hint_unavailable")


def table_stopped() -> TableError:
    """The table was stopped."""
    return TableError("this table was stopped", code="table_stopped")


def malformed_action(text: str, reason: str) -> TableError:
    """The action text cannot be read."""
    return TableError(
        f"cannot read the action {text!r}: {reason}",
        code="malformed_action",
        text=text,
        reason=reason,
    )


def seat_away(seat: int) -> TableError:
    """The owner of a seat played by the AI while they are away acted: they must say back."""
    return TableError(
        f"you are marked away and the AI plays seat {seat + 1}; say you are back first",
        code="seat_away",
        seat=seat,
    )


def not_away(seat: int) -> TableError:
    """`back` from a seat that is not away."""
    return TableError(f"you are not away (seat {seat + 1})", code="not_away", seat=seat)


def too_many_tables(guild: str, limit: int) -> TableError:
    """The guild already has as many live tables as it may."""
    return TableError(
        f"this server already has {limit} open tables; stop one before opening another",
        code="too_many_tables",
        guild=guild,
        limit=limit,
    )


def bad_settings(game: str, reason: str) -> TableError:
    """The table settings do not validate for the game."""
    return TableError(
        f"invalid settings for {game}: {reason}", code="bad_settings", game=game, reason=reason
    )


def bad_seats(game: str, seats: str, count: int) -> TableError:
    """A seat count outside the game's range (`GameSpec.seat_range`, e.g. "2-9")."""
    return TableError(
        f"{game} takes {seats} players, not {count}",
        code="bad_seats",
        game=game,
        seats=seats,
        count=count,
    )


def unknown_game(name: str, reason: str) -> TableError:
    """The game does not exist or cannot load."""
    return TableError(reason, code="unknown_game", game=name)
