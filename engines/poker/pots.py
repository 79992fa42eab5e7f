"""Main and side pots from what each seat put in, and settling each pot on its own.

`build_pots(contributions, live)` cuts the chips into pots at every level a
live all-in player reached: the main pot holds what every live player
matched, each side pot the chips above that. Folded chips stay in the pots
but folded seats are never eligible. Pots are fixed by the contributions and
never merged afterwards, so odd chips are worked out pot by pot.

`settle(pots, winners_of, odd_chip_order)` pays each pot to its winners:
equal shares, and the chips that cannot be split go one at a time to the
tied winners, starting with the first of them in `odd_chip_order` (the seats
in play order starting after the button or dealer). Uncalled chips must
already have been returned (see `engines.poker.betting`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """`amount` chips that only the `eligible` seats (ascending) can win."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Award:
    """How one pot was paid: pot index (0 = main pot), its amount, and each winner's share."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """The main pot then the side pots, from every seat's chips in the hand and who is still in.

    Levels are the distinct totals of the live seats; chips folded seats put in
    above the top live level (possible only before uncalled chips are returned)
    join the top pot.
    """
    levels = sorted({c for c, alive in zip(contributions, live, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < level else level) - previous
        eligible = tuple(seat for seat, c in enumerate(contributions) if live[seat] and c >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - previous for c in contributions if c > previous)
    if leftover:
        if pots:
            top = pots[-1]
            pots[-1] = Pot(top.amount + leftover, top.eligible)
        else:
            pots.append(Pot(leftover, tuple(s for s, alive in enumerate(live) if alive)))
    return pots


def split(amount: int, winners: Sequence[int], odd_chip_order: Sequence[int]) -> dict[int, int]:
    """Share `amount` between `winners`: equal parts, then one odd chip at a time to the
    winners in `odd_chip_order` order (winners missing from it come last, by seat)."""
    rank = {seat: i for i, seat in enumerate(odd_chip_order)}
    ordered = sorted(winners, key=lambda s: (rank.get(s, len(rank) + s), s))
    base, odd = divmod(amount, len(ordered))
    return {seat: base + (1 if i < odd else 0) for i, seat in enumerate(ordered)}


def settle(
    pots: Sequence[Pot],
    winners_of: Callable[[tuple[int, ...]], Sequence[int]],
    odd_chip_order: Sequence[int],
) -> list[Award]:
    """Pay every pot separately. `winners_of(eligible)` names the best seats among `eligible`
    (use `best_of` for hand values); a pot with one eligible seat goes to it unasked."""
    awards = []
    for index, pot in enumerate(pots):
        if pot.amount == 0:
            continue
        winners = tuple(pot.eligible) if len(pot.eligible) == 1 else tuple(winners_of(pot.eligible))
        if not winners:
            raise ValueError(f"pot {index} of {pot.amount} has no winner")
        shares = split(pot.amount, winners, odd_chip_order)
        ordered = tuple(sorted(shares))
        awards.append(Award(index, pot.amount, ordered, tuple(shares[s] for s in ordered)))
    return awards


def best_of(values: Mapping[int, int]) -> Callable[[tuple[int, ...]], list[int]]:
    """A `winners_of` for `settle`: the eligible seats with the highest value (ties kept)."""

    def winners(eligible: tuple[int, ...]) -> list[int]:
        top = max(values[s] for s in eligible)
        return [s for s in eligible if values[s] == top]

    return winners


def payouts(awards: Sequence[Award], seats: int) -> list[int]:
    """Total chips each of `seats` seats receives from `awards`."""
    paid = [0] * seats
    for award in awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            paid[seat] += share
    return paid


def odd_chip_order(button: int, seats: int) -> list[int]:
    """Every seat in play order starting with the first after `button` (the button last)."""
    return [(button + i) % seats for i in range(1, seats + 1)]
