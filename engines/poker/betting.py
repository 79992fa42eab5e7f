"""One no-limit betting round: who acts, what is owed, minimum bets and raises, reopening.

A `BettingRound` works on table seats numbered ``0..n-1``. It holds, per seat,
the chips behind (`stacks`) and the chips put in this round (`committed`);
amounts in actions are always the player's **total** for the round.

Rules it enforces (docs/holdem.md, "Betting"; draw poker and the duel use the same round:
docs/draw.md, "Betting rulings", and docs/duel.md, "A deal"):

- check only when nothing is owed; fold is refused when checking is free;
- call matches the highest total, or puts in every chip left when short;
- the first bet is at least `min_bet`; a raise adds at least the last full
  bet or raise (`min_raise`), except an all-in, which may be short;
- a short all-in does not reopen raising: a seat that already acted may raise
  again only once the total increase it faces since it acted reaches a full
  raise (two short all-ins can add up to one);
- nobody may raise when no other player in the hand can still bet (has chips
  beyond what matching the current bet takes); facing an all-in, a player
  calls or folds;
- the round ends when every seat that can act has acted and matched, or when
  one player is left; uncalled chips (the top total's excess over the second
  highest, folded seats included) then go back to their owner (`returned`).

Forced bets (blinds) are `post`ed before the first action: they do not count
as acting, so the big blind keeps its option. For draw poker's blind entry,
build the round with ``min_raise`` = the highest blind (its nominal amount, even
when it was posted short) and ``no_limp=True``: nobody may then just call the
blinds, coming in is a raise to at least the **entry price**, twice that blind,
until someone has come in. A short all-in below the entry price is allowed,
does not open calling and does not raise the entry price. Coming in counts as a
raise over the highest stake, and a blind posted short counts as a full blind
(so the next raise adds at least what coming in added over it). A seat that
nobody left could answer (everyone else all-in) may call the stake instead.

The round never knows about cards, pots or other rounds: games keep the hand
totals (see `engines.poker.pots`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import IllegalAction, NotYourTurn
from engines.poker.actions import AllIn, Bet, BettingAction, Call, Check, Fold, Raise


@dataclass(frozen=True, slots=True)
class Move:
    """What one action did: `verb` is fold/check/call/bet/raise (an all-in resolves to one of
    them, with `all_in` True); `total` is the seat's total for the round afterwards and `added`
    the chips it put in now; `full` is True for a bet or raise that reopens the betting."""

    seat: int
    verb: str
    total: int
    added: int
    all_in: bool
    full: bool


class BettingRound:
    """The state of one no-limit betting round (see the module docstring for the rules)."""

    __slots__ = (
        "_order",
        "_pos",
        "acted_at",
        "closed",
        "committed",
        "current_bet",
        "folded",
        "level",
        "min_bet",
        "min_raise",
        "no_limp",
        "opened",
        "returned",
        "stacks",
        "to_act",
    )

    def __init__(
        self,
        stacks: Sequence[int],
        order: Sequence[int],
        *,
        min_bet: int,
        min_raise: int | None = None,
        folded: Sequence[bool] | None = None,
        no_limp: bool = False,
    ) -> None:
        """Start a round.

        `stacks` are the chips behind of every table seat; `order` lists the
        seats in the hand in acting order, first to act first (seats not in
        `order` are treated as folded; all-in seats are skipped). `min_bet` is
        the smallest opening bet, `min_raise` the smallest raise increase
        before anyone bets (defaults to `min_bet`). With `no_limp` (draw
        poker's blind entry) `min_raise` is the nominal highest blind: coming
        in costs twice it. Call `post` for forced bets, then `start()`.
        """
        if min_bet < 1:
            raise ValueError("min_bet must be at least 1")
        n = len(stacks)
        self.stacks: list[int] = [int(s) for s in stacks]
        self.committed: list[int] = [0] * n
        in_order = set(order)
        self.folded: list[bool] = [
            (seat not in in_order) or bool(folded is not None and folded[seat]) for seat in range(n)
        ]
        self._order: list[int] = [s for s in order if not self.folded[s]]
        self.acted_at: list[int | None] = [None] * n
        self.min_bet = min_bet
        self.min_raise = min_raise if min_raise is not None else min_bet
        self.current_bet = 0
        self.no_limp = no_limp
        self.level = self.min_raise if no_limp else 0
        """The nominal highest blind of a `no_limp` round (0 otherwise)."""
        self.opened = not no_limp
        self.returned: tuple[int, int] | None = None
        """(seat, chips) given back as uncalled when the round closed, if any."""
        self.closed = False
        self._pos = -1
        self.to_act: int | None = None

    # ------------------------------------------------------------------ setup

    def post(self, seat: int, amount: int) -> int:
        """Post a forced bet (blind) of `amount` for `seat` (all-in if short); returns chips put in.

        Posting is not acting: the seat still acts in turn (big blind option)."""
        put = min(amount, self.stacks[seat])
        self.stacks[seat] -= put
        self.committed[seat] += put
        if self.committed[seat] > self.current_bet:
            self.current_bet = self.committed[seat]
        return put

    def start(self) -> None:
        """Find the first seat to act (after the posts); the round may already be over."""
        self._pos = -1
        self._advance()

    # --------------------------------------------------------------- queries

    @property
    def done(self) -> bool:
        """True when nobody has to act any more in this round."""
        return self.to_act is None

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), in acting order."""
        return list(self._order)

    def owed(self, seat: int) -> int:
        """Chips `seat` must add to call (may exceed its stack)."""
        return self.current_bet - self.committed[seat]

    def _others_can_bet(self, seat: int) -> bool:
        # "Can still bet": has chips beyond what matching the current bet takes. A player
        # who cannot even match it can only call all-in, so raising against them is void.
        stacks = self.stacks
        committed = self.committed
        top = self.current_bet
        return any(s != seat and committed[s] + stacks[s] > top for s in self._order)

    def can_raise(self, seat: int) -> bool:
        """True when `seat` may bet or raise now (chips beyond the call, reopened, someone to
        face)."""
        if self.stacks[seat] <= self.current_bet - self.committed[seat]:
            return False
        if not self._others_can_bet(seat):
            return False
        acted = self.acted_at[seat]
        return acted is None or self.current_bet - acted >= self.min_raise

    def min_raise_to(self) -> int:
        """The smallest total for a (non all-in) bet or raise now; before anyone came in over
        the blinds of a `no_limp` round, the entry price (not moved by a short all-in)."""
        if self.current_bet == 0:
            return self.min_bet
        if not self.opened:
            return self.level + self.min_raise
        return self.current_bet + self.min_raise

    def _may_call(self, seat: int) -> bool:
        """False while `seat` must come in with a raise instead (a `no_limp` round nobody came
        in yet, the seat can cover the stake, and someone could still answer a raise)."""
        return self.opened or self.stacks[seat] <= self.owed(seat) or not self._others_can_bet(seat)

    def max_total(self, seat: int) -> int:
        """The most `seat` can have in this round: everything it has."""
        return self.committed[seat] + self.stacks[seat]

    def legal_actions(self, seat: int) -> list[BettingAction]:
        """The representative actions of `seat`: check/call/fold, the minimum bet or raise and
        all-in (any total between the minimum and all-in is accepted too)."""
        if seat != self.to_act:
            return []
        actions: list[BettingAction] = []
        owed = self.owed(seat)
        if owed <= 0:
            actions.append(Check())
        else:
            if self._may_call(seat):
                actions.append(Call())
            actions.append(Fold())
        if self.can_raise(seat):
            low = self.min_raise_to()
            if low < self.max_total(seat):
                actions.append(Bet(low) if self.current_bet == 0 else Raise(low))
            actions.append(AllIn())
        return actions

    # --------------------------------------------------------------- actions

    def check(self, seat: int, action: BettingAction) -> None:
        """Raise `IllegalAction` if `act(seat, action)` would refuse it; change nothing."""
        self._resolve(seat, action)

    def act(self, seat: int, action: BettingAction) -> Move:
        """Apply a legal action and move the turn on; refuse an illegal one untouched."""
        verb, total, full = self._resolve(seat, action)
        added = total - self.committed[seat]
        if verb == "fold":
            self.folded[seat] = True
            # The folding seat sits at _pos; after removing it, step back so
            # that the search for the next seat starts at the seat after it.
            self._order.remove(seat)
            self._pos -= 1
        else:
            self.stacks[seat] -= added
            self.committed[seat] = total
            if total > self.current_bet:
                if full:
                    # Coming in is counted from the nominal blind when it was posted short.
                    base = self.current_bet if self.opened else max(self.current_bet, self.level)
                    self.min_raise = max(self.min_raise, total - base)
                    self.opened = True
                self.current_bet = total
            self.acted_at[seat] = self.current_bet
        move = Move(seat, verb, self.committed[seat], added, self.stacks[seat] == 0, full)
        self._advance()
        return move

    def _resolve(self, seat: int, action: BettingAction) -> tuple[str, int, bool]:
        """Check `action` and return (verb, new total, full raise?)."""
        if seat != self.to_act:
            raise NotYourTurn(seat, self.to_act)
        owed = self.current_bet - self.committed[seat]
        stack = self.stacks[seat]
        committed = self.committed[seat]
        if isinstance(action, Check):
            if owed > 0 and not self._may_call(seat):
                entry = self.min_raise_to()
                raise IllegalAction(
                    f"check is refused: nobody has come in over the blind yet; come in with a "
                    f"raise to at least {entry}, or fold",
                    code="check_before_entry",
                    entry=entry,
                )
            if owed > 0:
                raise IllegalAction(
                    f"check is refused: you owe {owed} to call {self.current_bet}; "
                    "call, raise or fold",
                    code="check_when_owed",
                    owed=owed,
                    total=self.current_bet,
                )
            return "check", committed, False
        if isinstance(action, Fold):
            if owed <= 0:
                raise IllegalAction(
                    "fold is refused: nothing is owed, so checking is free; check or bet",
                    code="fold_when_check_free",
                )
            return "fold", committed, False
        if isinstance(action, Call):
            if owed <= 0:
                raise IllegalAction(
                    "call is refused: nothing is owed; check or bet",
                    code="call_nothing_owed",
                )
            if not self._may_call(seat):
                entry = self.min_raise_to()
                raise IllegalAction(
                    f"call is refused: nobody may just match the blind; come in with a raise "
                    f"to at least {entry}, or fold",
                    code="no_limp",
                    entry=entry,
                )
            return "call", committed + min(owed, stack), False
        if isinstance(action, AllIn):
            if stack <= 0:
                raise IllegalAction(
                    "allin is refused: you have no chips left", code="no_chips_left"
                )
            total = committed + stack
            if total <= self.current_bet:
                return "call", total, False
            self._require_raise_allowed(seat, str(action))
            return self._bet_or_raise_verb(), total, self._is_full(total)
        if isinstance(action, (Bet, Raise)):
            return self._resolve_amount(seat, action)
        raise IllegalAction(
            f"{action!r} is not a betting action", code="bad_action", action=str(action)
        )

    def _bet_or_raise_verb(self) -> str:
        return "bet" if self.current_bet == 0 else "raise"

    def _is_full(self, total: int) -> bool:
        return total >= self.min_raise_to()

    def _require_raise_allowed(self, seat: int, text: str) -> None:
        if not self._others_can_bet(seat):
            raise IllegalAction(
                f"{text} is refused: no other player can still bet; call or fold",
                code="raise_nobody_can_call",
                action=text,
            )
        acted = self.acted_at[seat]
        if acted is not None and self.current_bet - acted < self.min_raise:
            raise IllegalAction(
                f"{text} is refused: raising is not reopened for you (the increase since you "
                f"acted, {self.current_bet - acted}, is less than a full raise of "
                f"{self.min_raise}); call or fold",
                code="raise_not_reopened",
                action=text,
                increase=self.current_bet - acted,
                full=self.min_raise,
            )

    def _resolve_amount(self, seat: int, action: Bet | Raise) -> tuple[str, int, bool]:
        text = str(action)
        total = action.amount
        if not isinstance(total, int) or isinstance(total, bool) or total <= 0:
            raise IllegalAction(
                f"{text} is refused: the amount must be a positive whole number of chips",
                code="bad_amount",
                action=text,
            )
        if isinstance(action, Bet) and self.current_bet > 0:
            raise IllegalAction(
                f"{text} is refused: there is already a bet of {self.current_bet}; "
                f"raise to at least {self.min_raise_to()}, call or fold",
                code="bet_when_bet",
                action=text,
                current=self.current_bet,
                min_to=self.min_raise_to(),
            )
        if isinstance(action, Raise) and self.current_bet == 0:
            raise IllegalAction(
                f"{text} is refused: there is no bet to raise; bet instead (at least "
                f"{self.min_bet})",
                code="raise_without_bet",
                action=text,
                min_bet=self.min_bet,
            )
        most = self.committed[seat] + self.stacks[seat]
        if total > most:
            raise IllegalAction(
                f"{text} is more than you have: at most {most} this round (allin)",
                code="more_than_stack",
                action=text,
                most=most,
            )
        if total <= self.current_bet:
            raise IllegalAction(
                f"{text} does not go above the current bet of {self.current_bet}: raise to at "
                f"least {self.min_raise_to()}, call or fold",
                code="raise_not_above",
                action=text,
                current=self.current_bet,
                min_to=self.min_raise_to(),
            )
        self._require_raise_allowed(seat, text)
        low = self.min_raise_to()
        if total < low and total != most:
            if isinstance(action, Bet):
                raise IllegalAction(
                    f"{text} is below the minimum bet of {low}",
                    code="bet_below_min",
                    action=text,
                    min_to=low,
                )
            raise IllegalAction(
                f"{text} is below the minimum raise to {low}",
                code="raise_below_min",
                action=text,
                min_to=low,
            )
        return action.verb, total, total >= low

    # ------------------------------------------------------------ turn order

    def _needs_action(self, seat: int) -> bool:
        if self.stacks[seat] == 0:
            return False
        acted = self.acted_at[seat]
        if acted is not None and self.committed[seat] >= self.current_bet:
            return False
        # Nothing owed and nobody left to bet against: nothing to decide.
        return self.committed[seat] < self.current_bet or self._others_can_bet(seat)

    def _advance(self) -> None:
        order = self._order
        n = len(order)
        if n <= 1:
            self._close()
            return
        for step in range(1, n + 1):
            index = (self._pos + step) % n
            seat = order[index]
            if self._needs_action(seat):
                self._pos = index
                self.to_act = seat
                return
        self._close()

    def _close(self) -> None:
        self.to_act = None
        if self.closed:
            return
        self.closed = True
        committed = self.committed
        top = max(range(len(committed)), key=lambda s: (committed[s], -s))
        second = max((c for s, c in enumerate(committed) if s != top), default=0)
        excess = committed[top] - second
        if excess > 0:
            committed[top] -= excess
            self.stacks[top] += excess
            self.returned = (top, excess)

    # --------------------------------------------------------- serialisation

    def to_json(self) -> dict[str, Any]:
        """Plain data from which `from_json` rebuilds this round exactly."""
        return {
            "order": list(self._order),
            "pos": self._pos,
            "acted_at": list(self.acted_at),
            "closed": self.closed,
            "committed": list(self.committed),
            "current_bet": self.current_bet,
            "folded": list(self.folded),
            "min_bet": self.min_bet,
            "level": self.level,
            "min_raise": self.min_raise,
            "no_limp": self.no_limp,
            "opened": self.opened,
            "returned": list(self.returned) if self.returned is not None else None,
            "stacks": list(self.stacks),
            "to_act": self.to_act,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BettingRound:
        """Rebuild a round from `to_json` data."""
        round_ = cls.__new__(cls)
        round_._order = list(data["order"])
        round_._pos = data["pos"]
        round_.acted_at = list(data["acted_at"])
        round_.closed = data["closed"]
        round_.committed = list(data["committed"])
        round_.current_bet = data["current_bet"]
        round_.folded = list(data["folded"])
        round_.min_bet = data["min_bet"]
        round_.min_raise = data["min_raise"]
        round_.no_limp = data["no_limp"]
        # Snapshots from before `level` existed kept the entry price as current bet + min_raise.
        round_.level = data.get("level", data["current_bet"] if data["no_limp"] else 0)
        round_.opened = data["opened"]
        returned = data["returned"]
        round_.returned = (returned[0], returned[1]) if returned is not None else None
        round_.stacks = list(data["stacks"])
        round_.to_act = data["to_act"]
        return round_
