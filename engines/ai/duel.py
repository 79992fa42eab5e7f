"""AI players for Deuce Duel. Every policy decides from a `DuelView` only.

- `random`: locks a random card, then picks a random legal action (amounts
  uniform between the minimum and all-in).
- `honest`: locks the higher of its two cards in duel order (the one that
  beats the other), bets and calls in proportion to that card's strength,
  never bluffs.
- `strong`: reads the opponent's signals, the group of the card the opponent
  kept (deduced from the previous deal's signals and its revealed locked
  card) and the discards (every card there was shown) to weigh the cards the
  opponent may hold and the one it may lock; chooses its lock by the chance
  of winning now plus the value of the card it keeps; bets for value (larger
  against loose callers), bluffs when the opponent's fold rate makes it pay,
  and calls by pot odds against a range narrowed by the opponent's bet or
  check, as much as that opponent's past showdowns justify (what a human
  across the table would remember).
- `casual` (the `easy` level): a casual human: locks its higher card (mostly), bets round
  sizes by its card's strength plus a little noise, bluffs now and then, folds weak cards.
- `cfr` (the `hard` level): the CFR+ solution of the deal, `engines.ai.duel_hard`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engines.cards import Card
from engines.duel import DuelAction, DuelView, Lock, compare, is_up
from engines.poker.actions import AllIn, Bet, Call, Check, Fold, Raise

RANKS = tuple(range(2, 15))


def beats(a: int, b: int) -> float:
    """Showdown result of rank `a` against rank `b`: 1 win, 0.5 tie, 0 loss (2 beats A)."""
    if a == b:
        return 0.5
    if a == 2 and b == 14:
        return 1.0
    if a == 14 and b == 2:
        return 0.0
    return 1.0 if a > b else 0.0


BASE_STRENGTH: dict[int, float] = {r: sum(beats(r, o) for o in RANKS) / 13 for r in RANKS}
"""Each rank's chance of winning against a uniformly random rank (ties count half)."""


def duel_higher(a: Card, b: Card) -> Card:
    """The card that wins when the two meet (either one on a tie)."""
    return a if compare(a, b) >= 0 else b


class RandomPolicy:
    """Random lock, random legal action."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        """A policy drawing every choice from `rng`."""
        self.rng = rng

    def decide(self, view: DuelView) -> DuelAction:
        """A random legal action for the seat of `view`."""
        action = self.rng.choice(view.legal)
        if isinstance(action, Bet | Raise):
            return type(action)(self.rng.randint(action.amount, view.max_total))
        return action


def _bet_to(view: DuelView, total: int) -> DuelAction:
    """A bet or raise to `total`, clipped to what is allowed (all-in when it reaches it)."""
    top = max(view.bets)
    low = view.min_raise_to
    total = max(total, low)
    if total >= view.max_total:
        return AllIn()
    return Bet(total) if top == 0 else Raise(total)


def _can_bet(view: DuelView) -> bool:
    return view.can_raise and any(isinstance(a, Bet | Raise | AllIn) for a in view.legal)


class HonestPolicy:
    """Locks its higher card; bets, raises and calls in proportion to its strength; no bluffs."""

    name = "honest"

    def __init__(self, rng: random.Random) -> None:
        """The honest player is deterministic; `rng` is kept for the common signature."""
        self.rng = rng

    def decide(self, view: DuelView) -> DuelAction:
        """Lock the higher card, then bet by strength."""
        if view.phase == "lock":
            return Lock(duel_higher(view.hand[0], view.hand[1]))
        assert view.seat is not None and view.my_lock is not None
        strength = BASE_STRENGTH[int(view.my_lock.rank)]
        stack = view.chips[view.seat]
        top = max(view.bets)
        if view.to_call == 0:
            if strength > 0.55 and _can_bet(view):
                return _bet_to(view, max(1, round(stack * (strength - 0.5))))
            return Check()
        if strength >= 0.8 and _can_bet(view):
            return _bet_to(view, top + max(1, round(stack * (strength - 0.5))))
        odds = view.to_call / (view.pot + view.to_call)
        return Call() if strength >= odds + 0.1 else Fold()


class CasualPolicy:
    """The `easy` level: plays like a casual human, with round bet sizes and a little noise.

    Locks its higher card, but with two UP cards keeps the higher one now and then (people
    like to keep a good card). Judges its locked card by its strength against a random
    card plus a feel drawn uniformly within +-0.1: bets the pot above 0.8 and half the pot
    above 0.6, bluffs half the pot one time in eight below 0.3, raises the pot half the
    time above 0.85, calls when its feel beats the pot odds by 0.05, folds otherwise. It
    reads neither the signals nor the opponent. `distribution` gives these chances exactly;
    `decide` draws from them.
    """

    name = "casual"

    KEEP_UP = 0.15
    """How often, holding two UP cards, it locks the lower one to keep the higher."""
    BLUFF = 0.125
    NOISE = 0.1

    def __init__(self, rng: random.Random) -> None:
        """A casual player drawing its choices from `rng`."""
        self.rng = rng

    def decide(self, view: DuelView) -> DuelAction:
        """An action drawn from `distribution`."""
        draw = self.rng.random()
        choices = self.distribution(view)
        for action, chance in choices:
            draw -= chance
            if draw < 0:
                return action
        return choices[-1][0]

    def _above(self, strength: float, level: float) -> float:
        """The chance that strength plus the feel is above `level`."""
        return max(0.0, min(1.0, (strength + self.NOISE - level) / (2 * self.NOISE)))

    def distribution(self, view: DuelView) -> list[tuple[DuelAction, float]]:
        """Its actions at this view with their chances."""
        if view.phase == "lock":
            a, b = view.hand
            high = duel_higher(a, b)
            low = b if high is a else a
            if is_up(high) and is_up(low) and low != high:
                return [(Lock(high), 1 - self.KEEP_UP), (Lock(low), self.KEEP_UP)]
            return [(Lock(high), 1.0)]
        assert view.seat is not None and view.my_lock is not None
        strength = BASE_STRENGTH[int(view.my_lock.rank)]
        top, pot = max(view.bets), view.pot
        choices: dict[str, tuple[DuelAction, float]] = {}

        def add(action: DuelAction, chance: float) -> None:
            key = str(action)
            choices[key] = (action, choices.get(key, (action, 0.0))[1] + chance)

        if view.to_call == 0:
            if not _can_bet(view):
                return [(Check(), 1.0)]
            pot_bet = self._above(strength, 0.8)
            half = self._above(strength, 0.6) - pot_bet
            bluff = (1 - self._above(strength, 0.3)) * self.BLUFF
            add(_bet_to(view, pot), pot_bet)
            add(_bet_to(view, max(1, pot // 2)), half + bluff)
            add(Check(), 1 - pot_bet - half - bluff)
        else:
            odds = view.to_call / (pot + view.to_call)
            needed = odds + 0.05
            raising = 0.5 * self._above(strength, 0.85) if _can_bet(view) else 0.0
            calls = self._above(strength, needed)
            if raising:
                calls -= 0.5 * self._above(strength, max(0.85, needed))
                add(_bet_to(view, top + pot + view.to_call), raising)
            add(Call(), calls)
            add(Fold(), 1 - raising - calls)
        return [(action, chance) for action, chance in choices.values() if chance > 1e-12]


@dataclass
class _Memory:
    """What the strong player remembers about its opponent across deals."""

    deal: int = -1
    opp_aggressive: bool = False
    seat: int | None = None
    my_aggressive: bool = False
    opp_checked: bool = False
    checked_strength: list[float] = field(default_factory=list)
    aggressive_strength: list[float] = field(default_factory=list)
    mixed_locks: list[bool] = field(default_factory=list)
    folds_to_my_bets: list[bool] = field(default_factory=list)
    calling_strength: list[float] = field(default_factory=list)

    def trim(self, keep: int = 40) -> None:
        """Keep only the latest observations, so the memory follows a changing opponent."""
        for series in (
            self.checked_strength,
            self.aggressive_strength,
            self.mixed_locks,
            self.folds_to_my_bets,
            self.calling_strength,
        ):
            del series[:-keep]


class StrongPolicy:
    """Card-counting, signal-reading value bettor with sound bluffs (see the module docstring)."""

    name = "strong"

    KEEP_WEIGHT = 1.0
    """How much the kept card's future strength counts against winning now."""
    BLUFF_RATE = 0.3
    """How often a weak card bets when checking would likely lose."""

    def __init__(self, rng: random.Random) -> None:
        """A policy with its own RNG (for mixing bluffs) and an empty memory."""
        self.rng = rng
        self.memory = _Memory()

    # --- memory ----------------------------------------------------------

    def _observe(self, view: DuelView) -> None:
        """Update what is known about the opponent from what this view shows."""
        mem = self.memory
        if view.seat != mem.seat:
            self.memory = mem = _Memory(seat=view.seat)
        assert view.seat is not None
        opp = 1 - view.seat
        if view.deal != mem.deal:
            last = view.last
            if last is not None and last.deal == mem.deal:
                card = last.locked[opp]
                if mem.opp_aggressive:
                    mem.aggressive_strength.append(BASE_STRENGTH[int(card.rank)])
                if last.signals[opp] == (1, 1):
                    mem.mixed_locks.append(is_up(card))
                if mem.opp_checked:
                    mem.checked_strength.append(BASE_STRENGTH[int(card.rank)])
                if mem.my_aggressive:
                    mem.folds_to_my_bets.append(last.folded == opp)
                    if last.folded != opp:
                        mem.calling_strength.append(BASE_STRENGTH[int(card.rank)])
                mem.trim()
            mem.deal = view.deal
            mem.opp_aggressive = mem.my_aggressive = mem.opp_checked = False
        if view.bets[opp] > 0:
            mem.opp_aggressive = True
        if self._opp_checked_now(view):
            mem.opp_checked = True

    @staticmethod
    def _opp_checked_now(view: DuelView) -> bool:
        """True when the opponent, first to act, checked to this player."""
        return view.phase == "bet" and view.first != view.seat and not any(view.bets)

    def _opp_check_means_weak(self) -> float:
        """How much an opponent's check means weakness: 0 (random) to about 3."""
        seen = self.memory.checked_strength
        mean = (sum(seen) + 0.4 * 4) / (len(seen) + 4)
        return max(0.0, min(3.0, (0.5 - mean) * 10))

    def _opp_reads_strength(self) -> float:
        """How much an opponent's bet means strength: 0 (random bettor) to about 3 (honest)."""
        seen = self.memory.aggressive_strength
        mean = (sum(seen) + 0.75 * 4) / (len(seen) + 4)
        return max(0.0, min(3.0, (mean - 0.5) * 10))

    def _looseness(self) -> float:
        """0 for an opponent who calls bets with strong cards only, 1 for one who calls with
        anything (judged from the cards it showed after calling this player's bets)."""
        seen = self.memory.calling_strength
        mean = (sum(seen) + 0.75 * 4) / (len(seen) + 4)
        return max(0.0, min(1.0, (0.72 - mean) / 0.17))

    def _fold_rate(self) -> float:
        """How often the opponent folded to this player's bets and raises."""
        seen = self.memory.folds_to_my_bets
        return (sum(seen) + 0.35 * 4) / (len(seen) + 4)

    def _p_lock_up(self) -> float:
        """Chance the opponent locks its UP card when it holds one UP and one DOWN."""
        seen = self.memory.mixed_locks
        return (sum(seen) + 0.8 * 4) / (len(seen) + 4)

    # --- what the opponent may hold --------------------------------------

    def _pool(self, view: DuelView) -> dict[int, int]:
        """Unseen copies of each rank: the shoe minus the discards and my own hand."""
        per_rank = view.shoe_size // 13
        counts = dict.fromkeys(RANKS, per_rank)
        for card in (*view.discards, *view.hand):
            counts[int(card.rank)] -= 1
        return {r: max(0, n) for r, n in counts.items()}

    def _opp_kept_group(self, view: DuelView) -> bool | None:
        """The group (True = UP) of the card the opponent kept from the previous deal, if known."""
        last = view.last
        if last is None or last.deal != view.deal - 1:
            return None
        assert view.seat is not None
        opp = 1 - view.seat
        up, down = last.signals[opp]
        if up == 2:
            return True
        if down == 2:
            return False
        return not is_up(last.locked[opp])

    def opp_lock_distribution(self, view: DuelView) -> dict[int, float]:
        """Probability of each rank being the opponent's locked card."""
        assert view.seat is not None
        opp = 1 - view.seat
        pool = self._pool(view)
        up_count = view.signals[opp][0]
        kept_up = self._opp_kept_group(view)
        p_up = self._p_lock_up()
        dist = dict.fromkeys(RANKS, 0.0)
        for a in RANKS:
            na = pool[a]
            if not na:
                continue
            for b in RANKS:
                nb = pool[b] - (a == b)
                if nb <= 0 or (a >= 8) + (b >= 8) != up_count:
                    continue
                # a is the kept card, b the new one (order matters only with a known group)
                if kept_up is not None and (a >= 8) != kept_up:
                    continue
                weight = float(na * nb)
                if (a >= 8) != (b >= 8):
                    high, low = (a, b) if a >= 8 else (b, a)
                    dist[high] += weight * p_up
                    dist[low] += weight * (1 - p_up)
                else:
                    sa, sb = BASE_STRENGTH[a], BASE_STRENGTH[b]
                    if sa == sb:
                        dist[a] += weight / 2
                        dist[b] += weight / 2
                    else:
                        strong, weak = (a, b) if sa > sb else (b, a)
                        dist[strong] += weight * 0.8
                        dist[weak] += weight * 0.2
        total = sum(dist.values())
        if total <= 0:
            return {r: 1 / 13 for r in RANKS}
        return {r: w / total for r, w in dist.items()}

    @staticmethod
    def equity(rank: int, dist: Mapping[int, float]) -> float:
        """Chance of winning (ties half) with `rank` against a locked-card distribution."""
        return sum(p * beats(rank, r) for r, p in dist.items())

    # --- decisions -------------------------------------------------------

    def decide(self, view: DuelView) -> DuelAction:
        """Lock by the now-versus-later trade-off, then bet by equity and pot odds."""
        self._observe(view)
        dist = self.opp_lock_distribution(view)
        if view.phase == "lock":
            return self._lock(view, dist)
        return self._bet(view, dist)

    def _lock(self, view: DuelView, dist: Mapping[int, float]) -> DuelAction:
        a, b = view.hand

        def score(lock: Card, keep: Card) -> float:
            return (
                self.equity(int(lock.rank), dist) + self.KEEP_WEIGHT * BASE_STRENGTH[int(keep.rank)]
            )

        return Lock(a if score(a, b) >= score(b, a) else b)

    def _narrow(self, view: DuelView, dist: Mapping[int, float]) -> dict[int, float]:
        """The opponent's locked-card distribution after its bet, by how much its bets meant."""
        assert view.seat is not None
        opp = 1 - view.seat
        put = view.bets[opp]
        if put <= 0:
            if not self._opp_checked_now(view):
                return dict(dist)
            k_weak = self._opp_check_means_weak()
            weighted = {r: p * (1.05 - BASE_STRENGTH[r]) ** k_weak for r, p in dist.items()}
            total = sum(weighted.values()) or 1.0
            return {r: w / total for r, w in weighted.items()}
        size = min(1.0, put / max(1, view.pot - put))
        k = self._opp_reads_strength() * (0.5 + size)
        weighted = {r: p * BASE_STRENGTH[r] ** k for r, p in dist.items()}
        total = sum(weighted.values()) or 1.0
        return {r: w / total for r, w in weighted.items()}

    def _bet(self, view: DuelView, dist: Mapping[int, float]) -> DuelAction:
        action = self._choose_bet(view, dist)
        if isinstance(action, Bet | Raise) or (isinstance(action, AllIn) and view.can_raise):
            self.memory.my_aggressive = True
        return action

    def _value_size(self, view: DuelView, eq: float) -> int:
        """A value bet's increase: a pot-sized bet growing with equity, larger against an
        opponent who calls with anything."""
        assert view.seat is not None
        pot, stack = view.pot, view.chips[view.seat]
        base = pot * (0.75 + 1.5 * (eq - 0.62))
        loose = self._looseness()
        wide = stack * max(0.0, eq - 0.5) * 1.6
        return max(1, round(max(base, base * (1 - loose) + wide * loose)))

    def _choose_bet(self, view: DuelView, dist: Mapping[int, float]) -> DuelAction:
        assert view.seat is not None and view.my_lock is not None
        me, opp = view.seat, 1 - view.seat
        rank = int(view.my_lock.rank)
        eq = self.equity(rank, self._narrow(view, dist))
        pot = view.pot
        stack = view.chips[me]
        top = max(view.bets)
        if view.to_call == 0:
            if not _can_bet(view):
                return Check()
            if eq >= 0.62:
                return _bet_to(view, self._value_size(view, eq))
            if eq <= 0.3:
                # bluff often when bets make this opponent fold more than a bluff risks
                size = max(1, round(pot * 0.75))
                rate = self.BLUFF_RATE if self._fold_rate() >= size / (pot + size) else 0.05
                if self.rng.random() < rate:
                    return _bet_to(view, size)
            return Check()
        call_cost = min(view.to_call, stack)
        odds = call_cost / (pot + call_cost)
        if eq >= 0.78 and _can_bet(view) and view.chips[opp] > 0:
            return _bet_to(view, top + max(view.min_raise_to - top, self._value_size(view, eq)))
        if eq >= odds:
            return Call()
        return Fold()


__all__: Sequence[str] = (
    "CasualPolicy",
    "HonestPolicy",
    "RandomPolicy",
    "StrongPolicy",
)
