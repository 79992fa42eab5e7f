"""The poker phrasebook: what hold'em, draw poker and the duel say alike, worded once.

The same event reads the same in the three games, in the terminal and on Discord, in every
language (catalog area ``phrase``, `bot/locales/<lang>/phrases.json`): a betting action
(``call N`` is always the chips added, with the round's total when the caller had chips in
already; bets and raises name totals), all-in, chips that go back uncalled, pot names and
hand names ("pair of eights", "straight to the jack"). What only one game says stays in
that game's catalog.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import join_names, t
from engines.cards import Rank
from engines.poker.ranking import Category, describe
from engines.registry import get_game

VERBS = ("fold", "check", "call", "bet", "raise")
"""The betting verbs an action line can have (an all-in is one of them, all-in)."""


def acted(verb: str, name: str, lang: str, *, added: int, total: int, all_in: bool) -> str:
    """A betting action: `verb` as the chips moved (an all-in says what it was: a call, a
    bet or a raise), `added` the chips put in now, `total` the seat's total for the round."""
    key = "call_to" if verb == "call" and total != added else verb
    line = t(f"phrase.poker.{key}", lang, name=name, added=added, total=total)
    return line + (t("phrase.poker.all_in", lang) if all_in else "")


def returned(name: str, amount: int, lang: str) -> str:
    """Chips of a bet nobody called going back to `name`."""
    return t("phrase.poker.returned", lang, name=name, amount=amount)


def pot_name(index: int, lang: str) -> str:
    """The main pot (index 0) or side pot `index`."""
    return t("phrase.poker.pot.main" if index == 0 else "phrase.poker.pot.side", lang, n=index)


def _rank(rank: Rank, form: str, lang: str) -> str:
    return t(f"phrase.rank.{rank.name.lower()}.{form}", lang)


def hand_name(value: int, lang: str) -> str:
    """A five-card hand value (`engines.poker.ranking.hand_value`) in words of `lang`: its
    category and the ranks that name it ("two pair, kings and eights")."""
    category, ranks = describe(value)
    first = ranks[0]
    second = ranks[1] if len(ranks) > 1 else first
    params = {
        f"{slot}_{form}": _rank(rank, form, lang)
        for slot, rank in (("a", first), ("b", second))
        for form in ("one", "many", "of", "to")
    }
    return t(f"phrase.hand.{Category(category).name.lower()}", lang, **params)


def deal_word(game: str, lang: str, *, title: bool = False) -> str:
    """What one deal of `game` is called: a "hand" in hold'em, a "deal" elsewhere (`title`:
    capitalised, to start a line)."""
    key = f"phrase.unit.{get_game(game).deal_word}"
    return t(key + (".title" if title else ""), lang)


def turn_marker(to_act: int | None, seat: int) -> str:
    """The two characters before a seat's line on a board: an arrow at the seat to act."""
    return "▶ " if to_act == seat else "  "


def seat_status(parts: Sequence[str]) -> str:
    """A seat's roles and state as one compact status: " (button, small blind, all-in)";
    "" when it has none."""
    return f" ({', '.join(parts)})" if parts else ""


def buttons_line(to_call: int, pot: int, lang: str, entry: int | None = None) -> str:
    """Beside the betting buttons: what calling adds (when something is owed), or the price
    to come in when calling is refused (`entry`), the pot, and that the buttons below are
    the moves."""
    if to_call > 0 and entry is not None:
        return t("phrase.poker.buttons_entry", lang, entry=entry, pot=pot)
    if to_call > 0:
        return t("phrase.poker.buttons_call", lang, to_call=to_call, pot=pot)
    return t("phrase.poker.buttons", lang, pot=pot)


def options_line(
    options: Sequence[str], lang: str, *, to_call: int, pot: int, entry: int | None = None
) -> str:
    """The seat's options as the terminal lists them, worded the same in every poker game:
    the moves, what calling adds (when something is owed and calling is allowed), or, when
    calling is refused (nobody may just match the blind), the price to come in; the pot."""
    listed = ", ".join(options)
    if to_call > 0 and entry is not None:
        return t("phrase.poker.options_entry", lang, options=listed, entry=entry, pot=pot)
    if to_call > 0:
        return t("phrase.poker.options_call", lang, options=listed, to_call=to_call, pot=pot)
    return t("phrase.poker.options", lang, options=listed, pot=pot)


def uncontested(name: str, amount: int, lang: str) -> str:
    """A pot won without a showdown (everyone else folded), the same in every poker game."""
    return t("phrase.poker.uncontested", lang, name=name, amount=amount)


def match_over(winners: Sequence[str], totals: str, scoring: str, lang: str) -> str:
    """The match's end, the same in every game: who won (one, several sharing, or you) and
    every seat's final figure (`scoring`: ``penalties``, ``chips`` or ``net``, chips minus
    buy-ins)."""
    figures = t(f"phrase.totals.{scoring}", lang, totals=totals)
    if len(winners) > 1:
        return t("phrase.match_over_shared", lang, winners=join_names(winners), totals=figures)
    return t("phrase.match_over", lang, winners=join_names(winners), totals=figures)
