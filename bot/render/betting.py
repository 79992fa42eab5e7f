"""The betting controls of the poker games (hold'em, draw, duel), read from a seat's view.

A `BetSpot` is what a betting decision offers, in the engine's own figures (its legal
actions, the amount to call, the smallest and largest total a bet or raise may reach, the pot);
`bet_choices` turns it into the usual poker room buttons: Fold, Check or Call (with the amount),
Min raise, Half pot, Pot and All-in, each carrying the canonical action text the engine takes.
No rule is decided here: every amount comes from the view, and the engine still checks the
action when it is played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.base import IllegalAction
from engines.numbers import is_number

_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+")
"""An amount with thousands separators as pictures print it (``1,000``): ASCII digits in
groups of three after the first; nothing else is read as one."""

BETTING_VERBS = frozenset({"fold", "check", "call", "bet", "raise", "allin"})
"""The verbs of the shared betting actions (`engines.poker.actions`)."""


def betting_only(legal: tuple[str, ...]) -> bool:
    """True when `legal` is a betting decision: only betting actions (no draw, lock, open...)."""
    return bool(legal) and all(text.split(" ", 1)[0] in BETTING_VERBS for text in legal)


@dataclass(frozen=True, slots=True)
class BetSpot:
    """One seat's betting decision, from its view (amounts are totals for the round)."""

    legal: tuple[str, ...]
    """The canonical texts of the representative legal actions (``fold``, ``raise 40``...)."""
    to_call: int
    """Chips the seat must add to call (0: checking is free)."""
    current_bet: int
    """The highest total put in this round."""
    pot: int
    """Every chip in the middle, this round's bets included."""
    low: int
    """The smallest total a bet or raise may reach."""
    high: int
    """The largest total the seat can reach (all-in)."""

    @property
    def raise_verb(self) -> str | None:
        """``bet`` or ``raise`` when a full bet or raise is legal, else None."""
        for text in self.legal:
            verb = text.split(" ", 1)[0]
            if verb in ("bet", "raise"):
                return verb
        return None


def spot_if_betting(
    seat: int | None,
    to_act: int | None,
    legal: tuple[str, ...],
    *,
    to_call: int,
    current_bet: int,
    pot: int,
    low: int,
    high: int,
) -> BetSpot | None:
    """The `BetSpot` of a view whose seat is to act on a betting decision (`legal` holds only
    betting actions), else None: what every poker renderer's `bet_spot` builds."""
    if seat is None or to_act != seat or not betting_only(legal):
        return None
    return BetSpot(legal, to_call, current_bet, pot, low, high)


@dataclass(frozen=True, slots=True)
class BetChoice:
    """One button: `kind` names its label (``fold``, ``check``, ``call``, ``min``,
    ``half_pot``, ``pot``, ``allin``), `action` is the canonical text played, `amount` the
    figure shown on it (chips to call, or the total reached)."""

    kind: str
    action: str
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class CardPick:
    """A move made by choosing cards of one's hand: ``<verb> <cards>`` with `fewest` to
    `most` cards (draw: discards; duel: the card locked). `other` are the legal moves
    besides it (draw: stand pat)."""

    verb: str
    fewest: int
    most: int
    other: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RebuyOffer:
    """Between deals, a broke seat's choice: buy back in by 1 to `most` caves of `cave`
    chips each, or sit out (draw poker). Read from any view, so the board can offer it."""

    seat: int
    """The broke seat deciding now."""
    cave: int
    """Chips in one cave."""
    most: int
    """The most caves one rebuy may buy."""

    def chips(self, caves: int) -> int:
        """What `caves` caves cost in chips."""
        return caves * self.cave


def pot_raise_to(spot: BetSpot, fraction: float) -> int:
    """The total of a raise of `fraction` of the pot: calling first, then adding that share
    of the pot as it would stand after the call (a pot-size raise when `fraction` is 1)."""
    after_call = spot.pot + spot.to_call
    return spot.current_bet + int(after_call * fraction)


def bet_choices(spot: BetSpot) -> list[BetChoice]:
    """The buttons of `spot`, in the order a poker room shows them; sized raises only when
    they are legal and differ from the minimum and from all-in."""
    choices: list[BetChoice] = []
    if "fold" in spot.legal:
        choices.append(BetChoice("fold", "fold"))
    if "check" in spot.legal:
        choices.append(BetChoice("check", "check"))
    if "call" in spot.legal:
        choices.append(BetChoice("call", "call", min(spot.to_call, spot.high)))
    verb = spot.raise_verb
    if verb is not None:
        totals = [spot.low]
        choices.append(BetChoice("min", f"{verb} {spot.low}", spot.low))
        for kind, fraction in (("half_pot", 0.5), ("pot", 1.0)):
            total = pot_raise_to(spot, fraction)
            if spot.low < total < spot.high and total not in totals:
                totals.append(total)
                choices.append(BetChoice(kind, f"{verb} {total}", total))
    if "allin" in spot.legal:
        choices.append(BetChoice("allin", "allin", spot.high))
    return choices


SHORTCUTS = ("min", "half", "pot")
"""The sized raises people type as the buttons name them (canonical words; each language's
forms are the catalogs' ``poker.word.<shortcut>``)."""


def typed_bet(text: str, spot: BetSpot | None) -> str:
    """`text` (canonical words, `bot.render.words.read_move`) with the buttons' forms made
    the engine's: ``min``, ``half``, ``pot`` become the raise to the total the button offers
    (``half`` and ``pot`` capped by the minimum and all-in), and ``call N`` the call when N
    is the chips it adds; an amount typed as pictures print it (``1,000``) loses its
    separators. Other text is returned unchanged (the engine reads it)."""
    if any(_GROUPED.fullmatch(word) for word in text.split()):
        text = " ".join(
            word.replace(",", "") if _GROUPED.fullmatch(word) else word for word in text.split()
        )
    words = text.strip().lower().split()
    if spot is None or not words:
        return text
    if words[0] in SHORTCUTS and len(words) <= 2 and words[1:] in ([], ["pot"]):
        verb = spot.raise_verb
        if verb is None:
            raise IllegalAction(
                f"{text.strip()!r}: there is no raise now", code="no_raise_now", text=text.strip()
            )
        if words[0] == "min":
            return f"{verb} {spot.low}"
        total = pot_raise_to(spot, 0.5 if words[0] == "half" else 1.0)
        return "allin" if total >= spot.high else f"{verb} {max(total, spot.low)}"
    if words[0] == "call" and len(words) == 2 and is_number(words[1]) and "call" in spot.legal:
        owed = min(spot.to_call, spot.high)
        if int(words[1]) == owed:
            return "call"
        raise IllegalAction(
            f"call {words[1]} refused: calling adds {owed}; type call",
            code="call_amount",
            amount=int(words[1]),
            owed=owed,
            total=spot.current_bet - spot.to_call + owed,
        )
    return text
