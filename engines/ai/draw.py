"""AI players for French draw poker. Every policy decides from a `DrawView` only.

- `random`: a random legal action (amounts between the minimum and all-in).

Broke, every policy buys back one cave unit, except in a match with no deal limit once
it has bought `AI_CAVES` caves in all: then it sits out, so a table of AI players alone
(or of people who all went away) still comes to an end.
- `calling`: always checks or calls (comes in at the entry price when the
  blind may not just be matched), opens a jackpot whenever it can, stands
  pat with a pair or better, else keeps its two best cards and draws three.
- `strong`: sound draws (keeps pairs and trips, draws to four-card flushes
  and open-ended straights, stands pat with made hands and now and then as a
  bluff); bets, calls, raises and opens by its winning chances, estimated by
  a quick Monte Carlo over the cards it cannot see where each opponent's
  hand is shaped by how many cards that opponent drew (public), and by the
  pot odds; takes the surblind short-handed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engines.cards import FULL_DECK, Card
from engines.draw.actions import (
    STAND,
    AllIn,
    Bet,
    Call,
    Check,
    Draw,
    DrawAction,
    Fold,
    NoSurblind,
    Open,
    Raise,
    Rebuy,
    SitOut,
    Surblind,
)
from engines.draw.view import DrawView
from engines.poker.ranking import hand_value
from engines.registry import PolicyFactory


def _with_amount(action: DrawAction, amount: int) -> DrawAction:
    if isinstance(action, Open):
        return Open(amount)
    if isinstance(action, Bet):
        return Bet(amount)
    return Raise(amount)


def _amount_action(view: DrawView) -> DrawAction | None:
    """The kind of bet this seat may make now (open, bet or raise), or None."""
    for action in view.legal:
        if isinstance(action, (Open, Bet, Raise)):
            return action
    return None


def pot_fraction_to(view: DrawView, fraction: float) -> int:
    """The stake a bet or raise of `fraction` of the pot (the call included) makes, within
    the legal range."""
    target = view.highest + max(1, int((view.pot + view.to_call) * fraction))
    return max(view.min_raise_to, min(view.max_to, target))


def stay_in(view: DrawView, kind: DrawAction | None) -> DrawAction | None:
    """Staying in at the current price: call, else come in at the entry price (`kind`, the
    seat's open, bet or raise) when nobody may just match the blind, else all-in; None
    when none of them is legal."""
    if Call() in view.legal:
        return Call()
    if kind is not None and view.entry:
        return _with_amount(kind, view.min_raise_to)
    if AllIn() in view.legal:
        return AllIn()
    return None


class RandomPolicy:
    """Any legal action, at random."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        """A policy drawing every choice from `rng`."""
        self.rng = rng

    def decide(self, view: DrawView) -> DrawAction:
        """A random legal action; a random amount for bets; one cave unit when broke."""
        if view.phase == "rebuy":
            return rebuy_or_sit_out(view)
        action = self.rng.choice(view.legal)
        if isinstance(action, (Open, Bet, Raise)) and view.max_to > view.min_raise_to:
            return _with_amount(action, self.rng.randint(view.min_raise_to, view.max_to))
        return action


AI_CAVES = 5
"""Caves (buy-in included) an AI buys at most in a match with no deal limit."""


def rebuy_or_sit_out(view: DrawView) -> DrawAction:
    """Broke: one cave unit, or sit out in a match with no deal limit once `AI_CAVES`
    caves are spent."""
    seat = view.seat if view.seat is not None else 0
    if view.deal_limit is None and view.bought[seat] >= AI_CAVES * view.cave_unit:
        return SitOut()
    return Rebuy(1)


def keep_for_pat(hand: Sequence[Card]) -> bool:
    """A pair or better."""
    return len({c.rank for c in hand}) < 5 or hand_value(hand) >= 4 << 24


def calling_draw(hand: Sequence[Card]) -> Draw:
    """Stand pat with a pair or better, else keep the two highest cards and draw three."""
    if keep_for_pat(hand):
        return STAND
    order = sorted(range(5), key=lambda i: -hand[i].rank)
    return Draw(tuple(sorted(i + 1 for i in order[2:])))


class CallingPolicy:
    """The calling station: check or call, open when possible, simple draws."""

    name = "calling"

    def __init__(self, rng: random.Random) -> None:
        """`rng` is unused: this policy is deterministic."""
        self.rng = rng

    def decide(self, view: DrawView) -> DrawAction:
        """See the module docstring."""
        if view.phase == "rebuy":
            return rebuy_or_sit_out(view)
        if view.phase == "surblind":
            return NoSurblind()
        if view.phase == "draw":
            return calling_draw(view.hand)
        legal = view.legal
        for action in legal:
            if isinstance(action, Open):
                return action
        for wanted in (Check(), Call()):
            if wanted in legal:
                return wanted
        # Nobody may just match the blind: coming in at the entry price is this policy's call.
        kind = _amount_action(view)
        if kind is not None and view.entry:
            return _with_amount(kind, view.min_raise_to)
        if AllIn() in legal and view.entry:
            return AllIn()
        return Fold() if Fold() in legal else legal[0]


# --------------------------------------------------------------------- strong


def _straight_draw(ranks: set[int]) -> tuple[int, ...] | None:
    """Four ranks in a row open at both ends (not ending in an ace), if any."""
    for low in range(2, 11):
        run = set(range(low, low + 4))
        if run <= ranks and low + 3 < 14:
            return tuple(sorted(run))
    return None


def strong_draw(hand: Sequence[Card]) -> Draw:
    """The positions a sound player changes (1-based, in the order of `hand`)."""
    value = hand_value(hand)
    category = value >> 24
    if category >= 4:  # straight or better: stand pat
        return STAND
    counts = Counter(c.rank for c in hand)
    groups = {r for r, n in counts.items() if n >= 2}
    if groups:
        # Trips keep three, two pair keep four, a pair keeps two.
        return Draw(tuple(i + 1 for i, c in enumerate(hand) if c.rank not in groups))
    suits = Counter(c.suit for c in hand)
    suit, n = suits.most_common(1)[0]
    if n == 4:
        return Draw(tuple(i + 1 for i, c in enumerate(hand) if c.suit != suit))
    run = _straight_draw({int(c.rank) for c in hand})
    if run is not None:
        return Draw(tuple(i + 1 for i, c in enumerate(hand) if c.rank not in run))
    # Nothing: keep the highest card, and an ace's kicker when it is a king.
    order = sorted(range(5), key=lambda i: -hand[i].rank)
    keep = order[:2] if hand[order[0]].rank == 14 and hand[order[1]].rank == 13 else order[:1]
    return Draw(tuple(i + 1 for i in range(5) if i not in keep))


def _keep_best(cards: list[Card], keep: int) -> list[Card]:
    """The `keep` cards a player drawing `5 - keep` most likely kept: groups first, then high."""
    ranks = [c.rank for c in cards]
    return sorted(cards, key=lambda c: (-ranks.count(c.rank), -c.rank))[:keep]


def _opponent_draw(cards: list[Card]) -> int:
    """How many cards a typical player changes from `cards` (used before the draw)."""
    ranks = [c.rank for c in cards]
    paired = sum(1 for r in ranks if ranks.count(r) >= 2)
    return 5 - paired if paired else 3


_POOL: list[tuple[list[Card], int]] = []
_POOL_FLOOR = (1 << 24) | ((11 - 2) << 16)  # a pair of jacks


def _pool() -> list[tuple[list[Card], int]]:
    """Random hands of a pair of jacks or better (built once, from a fixed seed)."""
    if not _POOL:
        maker = random.Random(2024)
        while len(_POOL) < 4000:
            cards = maker.sample(FULL_DECK, 5)
            value = hand_value(cards)
            if value >= _POOL_FLOOR:
                _POOL.append((cards, value))
    return _POOL


def _strong_hand(floor: int, exclude: frozenset[Card], rng: random.Random) -> list[Card] | None:
    """A random hand worth at least `floor` (>= a pair of jacks) avoiding `exclude`, or None."""
    pool = _pool()
    for _ in range(24):
        cards, value = pool[rng.randrange(len(pool))]
        if value >= floor and exclude.isdisjoint(cards):
            return cards
    return None


def equity(
    hand: Sequence[Card],
    my_draw: Draw | None,
    opponent_draws: Sequence[int | None],
    rng: random.Random,
    trials: int = 100,
    opener_needs: int = 0,
) -> float:
    """My chance to hold the best hand at the showdown (ties shared), by Monte Carlo.

    `my_draw` is the draw I will make (None: the draw is over). Each opponent
    is a random hand; one whose draw count is known keeps the cards a player
    changing that many most likely keeps, one yet to draw draws as most
    players do; a pat opponent is sampled until it holds two pair or better.
    `opener_needs`, when not 0, is the pair rank one opponent opened with.
    """
    unknown = [c for c in FULL_DECK if c not in hand]
    mine_set = frozenset(hand)
    opponents = list(opponent_draws)[:3]
    kept = list(hand)
    if my_draw is not None and my_draw.positions:
        kept = [c for i, c in enumerate(hand) if i + 1 not in my_draw.positions]
    need_me = 5 - len(kept)
    # Cards one trial uses: my draw, then each opponent's five and draw (3 when unknown).
    need = need_me + sum(5 + (3 if d is None else d) for d in opponents)
    need = min(len(unknown), need)
    score = 0.0
    sample = rng.sample
    for _ in range(trials):
        deck = sample(unknown, need)
        pos = 0
        mine = kept + deck[pos : pos + need_me]
        pos += need_me
        best = hand_value(mine)
        result = 1.0
        for index, drawn in enumerate(opponents):
            cards = deck[pos : pos + 5]
            pos += 5
            # Shape the hand by what the table saw: a pat hand is two pair or better, the
            # opener held the pair it needed (overlaps with other sampled cards are negligible).
            floor = 2 << 24 if drawn == 0 else 0
            if index == 0 and opener_needs and drawn is None:
                floor = (1 << 24) | ((opener_needs - 2) << 16)
            if floor:
                cards = _strong_hand(floor, mine_set, rng) or cards
            change = _opponent_draw(cards) if drawn is None else drawn
            if change:
                cards = _keep_best(cards, 5 - change) + deck[pos : pos + change]
                pos += change
            if len(cards) < 5:  # the sample ran short (six players, big draws): skip this one
                continue
            theirs = hand_value(cards)
            if theirs > best:
                result = 0.0
                break
            if theirs == best:
                result *= 0.5
        score += result
    return score / trials


class StrongPolicy:
    """Equity-driven play; see the module docstring."""

    name = "strong"

    def __init__(self, rng: random.Random, trials: int = 100) -> None:
        """A policy with its own `rng` (Monte Carlo and mixed strategies)."""
        self.rng = rng
        self.trials = trials
        self.bluffing = False
        self.deal = -1

    def decide(self, view: DrawView) -> DrawAction:
        """See the module docstring."""
        if view.deal != self.deal:
            self.deal = view.deal
            self.bluffing = False
        if view.phase == "rebuy":
            return rebuy_or_sit_out(view)
        if view.phase == "surblind":
            players = sum(view.in_deal)
            deep = view.stacks[view.seat or 0] >= 40 * view.blind_unit
            return Surblind() if deep and players <= 3 and self.rng.random() < 0.5 else NoSurblind()
        if view.phase == "draw":
            return self._draw(view)
        return self._bet(view)

    def _draw(self, view: DrawView) -> Draw:
        hand = view.hand
        choice = strong_draw(hand)
        opponents = sum(view.in_deal) - sum(view.folded) - 1
        if (
            len(choice.positions) >= 3
            and opponents == 1
            and view.pot >= 6 * view.blind_unit
            and self.rng.random() < 0.08
        ):
            self.bluffing = True
            return STAND
        return choice

    def _opponents(self, view: DrawView) -> list[int | None]:
        me = view.seat
        order = [(view.dealer + 1 + i) % view.seats for i in range(view.seats)]
        if view.opener is not None and view.opener in order:
            order.remove(view.opener)
            order.insert(0, view.opener)
        return [
            view.drawn[s] if view.phase == "bet2" else None
            for s in order
            if s != me and view.in_deal[s] and not view.folded[s]
        ]

    def _bet(self, view: DrawView) -> DrawAction:
        legal = view.legal
        opponents = self._opponents(view)
        before_draw = view.phase == "bet1"
        needs = 0
        if view.opener is not None and view.opener != view.seat and view.requirement:
            needs = {"jacks": 11, "queens": 12, "kings": 13, "aces": 14}[view.requirement]
        win = equity(
            view.hand,
            strong_draw(view.hand) if before_draw else None,
            opponents,
            self.rng,
            self.trials,
            opener_needs=needs,
        )
        if len(opponents) > 3:
            win = win ** (len(opponents) / 3)
        fair = 1.0 / (len(opponents) + 1)
        pot = view.pot
        kind = _amount_action(view)
        can_check = Check() in legal
        # Before anyone came in over the blind, staying in costs the entry price.
        to_pay = view.to_call
        if view.entry and Call() not in legal:
            to_pay = view.min_raise_to - view.stakes[view.seat or 0]

        def sized(fraction: float) -> DrawAction | None:
            return None if kind is None else _with_amount(kind, pot_fraction_to(view, fraction))

        strong = win > min(0.85, fair + 0.3)
        good = win > min(0.7, fair + 0.12)
        if self.bluffing and not before_draw and kind is not None and self.rng.random() < 0.6:
            action = sized(0.6)
            if action is not None:
                return action
        if strong and kind is not None:
            action = sized(0.9 if win > 0.8 else 0.6)
            if action is not None:
                return action
        if can_check:
            if good and kind is not None:
                action = sized(0.5)
                if action is not None:
                    return action
            return Check()
        price = to_pay / (pot + to_pay) if to_pay > 0 else 0.0
        if win >= price * 1.15 or (before_draw and win > fair):
            return stay_in(view, kind) or Fold()
        return Fold()


POLICIES: dict[str, PolicyFactory] = {
    "random": RandomPolicy,
    "calling": CallingPolicy,
    "strong": StrongPolicy,
}
"""Policy name -> factory taking the policy's own `random.Random`."""
