"""The `strong` Big Two player: rule-based, from the view only.

Ideas from published rule-based Big Two players:

- split the hand into the fewest plays (`plan`), and never break a
  combination of that plan for a cheap answer;
- lead the weakest part of the plan, larger combinations first, and keep
  control cards (what no unseen card can beat) for the end;
- count cards: a play is "safe" when no combination of the unseen cards of the
  same size can beat it; with at most one unsafe play left, play the safe ones
  first and finish (a forced finish);
- block an opponent close to going out: lead what they cannot answer, answer
  with the highest play, never let a single through to a one-card player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engines.ai.bigtwo_fast import deal_unseen, greedy_move, play_out
from engines.bigtwo import PASS, Action, BigTwoView, Play, play_of_mask
from engines.bigtwo_combos import (
    ALL_CARDS,
    Combo,
    classify_mask,
    combos_of_size,
    keys_of_mask,
    mask_of_cards,
    penalty,
    same_rank_sets,
)

_NIBBLE = 0xF
_MIN_SAMPLES = 6
_TWO_RANK = 12
_RETRIES = 6


def plan(hand: int) -> tuple[Combo, ...]:
    """The hand split into the fewest plays (ties: fewer loose low singles), lowest first.

    Five-card hands first (none, one or two of them, whichever leaves the best split of the
    rest), then the rest by rank. Remembered per hand (`_PLANS`)."""
    found = _PLANS.get(hand)
    if found is None:
        found = _remember(hand, _plan(hand, combos_of_size(hand, 5)))
    return found


def plan_after(hand: int, move: int) -> tuple[Combo, ...]:
    """`plan(hand & ~move)`, the rest's five-card hands taken from those of `hand` (a
    play's rest, as the network's features ask for each legal play)."""
    rest = hand & ~move
    found = _PLANS.get(rest)
    if found is None:
        fives = [c for c in combos_of_size(hand, 5) if not c.mask & move]
        found = _remember(rest, _plan(rest, fives))
    return found


_PLANS: dict[int, tuple[Combo, ...]] = {}
"""Hand -> `plan(hand)`; emptied when it holds 50,000 hands."""


def forget_plans() -> None:
    """Empty `plan`'s memory of hands (to time it as a search of new hands meets it)."""
    _PLANS.clear()


def _remember(hand: int, parts: tuple[Combo, ...]) -> tuple[Combo, ...]:
    if len(_PLANS) >= 50_000:
        _PLANS.clear()
    _PLANS[hand] = parts
    return parts


def _plan(hand: int, fives: list[Combo]) -> tuple[Combo, ...]:
    """`plan(hand)` given the five-card hands of `hand`, in `combos_of_size` order.

    Every split tried is scored by `_rest_score` (table look-ups, no combinations built);
    only the winner is built."""
    best_score = _rest_score(hand)
    best: tuple[Combo, ...] = ()
    pairs_of_fives = len(fives) <= 40  # bounds the work for hands rich in straights
    masks = [c.mask for c in fives]
    one, two = 1 << _COUNT_SHIFT, 2 << _COUNT_SHIFT
    for i, first in enumerate(masks):
        left = hand & ~first
        score = _rest_score(left) + one
        if score < best_score:
            best_score, best = score, (fives[i],)
        if not pairs_of_fives:
            continue
        for j in range(i + 1, len(masks)):
            second = masks[j]
            if second & first:
                continue
            score = _rest_score(left & ~second) + two
            if score < best_score:
                best_score, best = score, (fives[i], fives[j])
    used = 0
    for combo in best:
        used |= combo.mask
    return best + _rest_parts(hand & ~used)


_COUNT_SHIFT = 16


def _slice_scores(first_rank: int) -> tuple[int, ...]:
    """`_rest_score`'s share of the two ranks of one byte of a hand, for each byte value."""
    out = []
    for byte in range(256):
        score = 0
        for half in (0, 1):
            r = first_rank + half
            count = (byte >> (4 * half) & _NIBBLE).bit_count()
            if r > 12 or not count:
                continue
            score += (2 if count == 4 else 1) << _COUNT_SHIFT
            if count == 1 and r < 10:
                score += 1 << 8
            score -= r
        out.append(score)
    return tuple(out)


_S0, _S1, _S2, _S3, _S4, _S5, _S6 = (_slice_scores(2 * j) for j in range(7))


def _rest_score(hand: int) -> int:
    """How good the split of `hand` by rank (`_rest_parts`) is, lower better, packed in one
    int: its plays << 16, plus its loose singles below the ace << 8, minus the sum of the
    ranks it holds (at most 78), so the ints compare as those three in that order."""
    return (
        _S0[hand & 0xFF]
        + _S1[hand >> 8 & 0xFF]
        + _S2[hand >> 16 & 0xFF]
        + _S3[hand >> 24 & 0xFF]
        + _S4[hand >> 32 & 0xFF]
        + _S5[hand >> 40 & 0xFF]
        + _S6[hand >> 48]
    )


def _rest_parts(hand: int) -> tuple[Combo, ...]:
    """Split what is left after the five-card hands by rank: triples, pairs, singles (four of
    a rank make two pairs), lowest rank first."""
    parts: tuple[Combo, ...] = ()
    ranks = _RANK_PARTS
    while hand:
        r = ((hand & -hand).bit_length() - 1) >> 2
        shift = r * 4
        parts += ranks[r][hand >> shift & _NIBBLE]
        hand &= ~(_NIBBLE << shift)
    return parts


def _parts_of_rank(r: int, nibble: int) -> tuple[Combo, ...]:
    shift = r * 4
    if not nibble:
        return ()
    if nibble == _NIBBLE:
        return (_combo(0x3 << shift), _combo(0xC << shift))
    return (_combo(nibble << shift),)


def _combo(mask: int) -> Combo:
    combo = classify_mask(mask)
    assert combo is not None
    return combo


_RANK_PARTS: tuple[tuple[tuple[Combo, ...], ...], ...] = tuple(
    tuple(_parts_of_rank(r, nibble) for nibble in range(16)) for r in range(13)
)
"""Rank, nibble of that rank's cards -> its parts in `_rest_parts`."""


def _beaten_by_unseen(combo: Combo, unseen: int, max_other: int) -> bool:
    """Could some combination of the unseen cards of the same size beat `combo`?"""
    if combo.size > max_other:
        return False
    if combo.size == 1:
        return unseen >> (combo.power + 1) != 0
    if combo.size in (2, 3):
        return any(c.power > combo.power for c in map(_combo, same_rank_sets(unseen, combo.size)))
    if unseen.bit_count() > 12:
        # Too many unseen cards to enumerate cheaply: only the strongest hands are safe.
        return combo.kind not in ("straight_flush",) and combo.kind != "four_of_a_kind"
    return any(c.power > combo.power for c in combos_of_size(unseen, 5))


class HeuristicPolicy:
    """Rule-based player: plans its hand, counts cards, blocks short opponents."""

    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        """Decisions are deterministic given the view; `rng` breaks nothing but is kept."""
        self.rng = rng

    def decide(self, view: BigTwoView) -> Action:
        """Choose a legal action for the seat of `view`."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        assert seat is not None
        hand = view.hand_mask
        unseen = ALL_CARDS & ~hand & ~mask_of_cards(view.played)
        others = [view.cards_left[(seat + k) % 4] for k in (1, 2, 3)]
        whole = classify_mask(hand)
        if whole is not None and any(
            isinstance(a, Play) and len(a.cards) == len(view.hand) for a in legal
        ):
            return play_of_mask(hand)
        if view.table is None:
            return self._lead(view, hand, unseen, others)
        return self._answer(view, hand, unseen, others)

    # Leading -----------------------------------------------------------------------------------

    def _lead(self, view: BigTwoView, hand: int, unseen: int, others: list[int]) -> Action:
        parts = plan(hand)
        max_other = max(others)
        if view.must_include is not None:
            with_three = [c for c in parts if c.mask & 1]
            if with_three:
                return play_of_mask(with_three[0].mask)
            return play_of_mask(1)
        unsafe = [c for c in parts if _beaten_by_unseen(c, unseen, max_other)]
        safe = [c for c in parts if c not in unsafe]
        if len(unsafe) <= 1 and safe:
            # Forced finish: keep the lead with the safe plays, the unsafe one goes last.
            return play_of_mask(max(safe, key=lambda c: c.size).mask)
        danger = min(others)
        candidates = unsafe or list(parts)
        if danger <= 2:
            # Lead what the short opponent cannot answer: a size they cannot match, else high.
            avoid = {c for c in candidates if c.size <= danger}
            fitting = [c for c in candidates if c not in avoid]
            if fitting:
                candidates = fitting
            elif others[0] <= danger:
                return play_of_mask(max(candidates, key=_high).mask)
        return play_of_mask(min(candidates, key=_lead_order).mask)

    # Answering ---------------------------------------------------------------------------------

    def _answer(self, view: BigTwoView, hand: int, unseen: int, others: list[int]) -> Action:
        table = view.table
        assert table is not None
        plays = [a for a in view.legal if isinstance(a, Play)]
        if not plays:
            return PASS
        parts = plan(hand)
        base = len(parts)
        max_other = max(others)
        danger = min(others)
        table_seat = view.table_seat
        seat = view.seat
        assert seat is not None and table_seat is not None
        scored = []
        for play in plays:
            mask = mask_of_cards(play.cards)
            combo = _combo(mask)
            rest = hand & ~mask
            rest_parts = plan(rest) if rest else ()
            broke = len(rest_parts) + 1 - base
            safe = not _beaten_by_unseen(combo, unseen, max_other)
            unsafe_left = sum(_beaten_by_unseen(c, unseen, max_other) for c in rest_parts)
            if safe and unsafe_left <= 1:
                return play  # forced finish: we keep the lead and go out
            scored.append((broke, combo.power, play, combo, safe))
        if danger <= 2 or (danger <= 4 and others[0] == danger):
            # Someone is close to going out: answer with the strongest play we have.
            best = max(scored, key=lambda s: (s[4], s[1]))
            return best[2]
        scored.sort(key=lambda s: (s[0], s[1]))
        broke, _, play, combo, _ = scored[0]
        if broke > 0:
            return PASS
        if _is_control(combo) and len(parts) > 3 and danger > 5:
            # Keep 2s and top combinations for the end, while nobody threatens to go out.
            return PASS
        return play


def _high(combo: Combo) -> tuple[int, int]:
    return (combo.size, combo.power)


def _lead_order(combo: Combo) -> tuple[int, int]:
    """Lead the combination with the lowest card, and bigger combinations first on ties."""
    lowest = (combo.mask & -combo.mask).bit_length() - 1
    return (lowest >> 2, -combo.size)


def _is_control(combo: Combo) -> bool:
    """2s, and pairs or triples of aces and 2s."""
    top_rank = (combo.mask.bit_length() - 1) >> 2
    if combo.size == 1:
        return top_rank >= _TWO_RANK
    if combo.size in (2, 3):
        return top_rank >= _TWO_RANK - 1
    return False


class _Reads:
    """What the opponents' past plays say about their hands, for one deal.

    Read as a player who never passes when it can beat the table, answers with its
    lowest play that beats it, and leads its lowest card would play (the `greedy` way,
    and a common habit): a pass on a table means nothing in the hand beats it, a lead
    means nothing in the hand is lower than its lowest card, an answer means nothing
    between the table and the answer. Single-card facts become cards a seat cannot
    hold (`forbid`); the others are checked on each sampled hand (`checks`).
    """

    def __init__(self) -> None:
        self.hand = -1
        self.played = 0
        self.forbid = [0, 0, 0, 0]
        self.checks: set[tuple[int, int, int]] = set()
        """(seat, table mask, answer mask or 0 for a pass)."""
        self.after: Combo | None = None
        """The table our last action left (None: cleared, or not known)."""
        self.played_after = -1
        """How many cards were played after our last action."""

    def update(self, view: BigTwoView, seat: int) -> None:
        """Add what the trick of `view` shows; start afresh on a new deal."""
        hand = view.hand_mask
        played = len(view.played)
        if self.hand < 0 or hand & ~self.hand or played < self.played:
            self.forbid = [0, 0, 0, 0]
            self.checks = set()
            self.after = None
        self.hand = hand
        self.played = played
        trick = view.trick
        if self.after is not None and len(trick) < 4:
            # The table was cleared since our last action, so its trick is gone: the
            # players after us whose turns are not in the new trick passed on what we left.
            shown = sum(len(e.cards) for e in trick)
            if played == self.played_after + shown:
                for k in range(1, 4 - len(trick)):
                    self._passed((seat + k) % 4, self.after)
        self.after = None
        table: Combo | None = None
        for entry in view.trick:
            who = entry.seat
            if entry.cards:
                mask = mask_of_cards(entry.cards)
                combo = classify_mask(mask)
                if combo is None:
                    return
                if who != seat:
                    self._played(who, table, combo)
                table = combo
            elif who != seat and table is not None:
                self._passed(who, table)

    def acted(self, view: BigTwoView, action: Action) -> None:
        """Remember the table our `action` leaves, to read the passes that follow it."""
        if isinstance(action, Play):
            self.after = classify_mask(mask_of_cards(action.cards))
            self.played_after = len(view.played) + len(action.cards)
        else:
            self.after = view.table if view.passes < 2 else None
            self.played_after = len(view.played)

    def _passed(self, who: int, table: Combo) -> None:
        if table.size == 1:
            self.forbid[who] |= ALL_CARDS & ~((2 << table.power) - 1)
        else:
            self.checks.add((who, table.mask, 0))

    def _played(self, who: int, table: Combo | None, combo: Combo) -> None:
        low = combo.mask & -combo.mask
        if table is None:
            self.forbid[who] |= low - 1
            if combo.size <= 2:
                rank_shift = ((low.bit_length() - 1) >> 2) * 4
                self.forbid[who] |= 0xF << rank_shift
        elif combo.size == 1:
            self.forbid[who] |= ((1 << combo.power) - 1) & ~((2 << table.power) - 1)
        else:
            self.checks.add((who, table.mask, combo.mask))


def _misreads(hands: list[int], checks: list[tuple[int, Combo, int]]) -> int:
    """How many of the combination facts the sampled `hands` break."""
    wrong = 0
    for who, table, floor in checks:
        move = greedy_move(hands[who], table)
        if move and (not floor or _combo(move).power < floor):
            wrong += 1
    return wrong


class _Dealer:
    """Deals the unseen cards like `deal_unseen`, but never a card to a seat that cannot
    hold it (`forbid`). Cards only one seat can hold go there; cards two seats can hold
    go next, in random order, each to one of the two in proportion to the room left; the
    rest fill up at random. `ok` is False when the reads leave no way to deal."""

    def __init__(
        self, unseen: list[int], counts: list[int], hands: list[int], me: int, forbid: list[int]
    ) -> None:
        self.me = me
        self.base = list(hands)
        self.room = list(counts)
        self.room[me] = 0
        self.pairs: list[tuple[int, int, int]] = []
        self.free: list[int] = []
        self.ok = True
        for s in range(4):
            if s != me:
                self.base[s] = 0
        for key in unseen:
            bit = 1 << key
            seats = [s for s in range(4) if s != me and not forbid[s] & bit]
            if len(seats) == 3:
                self.free.append(key)
            elif len(seats) == 2:
                self.pairs.append((bit, seats[0], seats[1]))
            elif seats:
                self.base[seats[0]] |= bit
                self.room[seats[0]] -= 1
            else:
                self.ok = False
        if any(r < 0 for r in self.room):
            self.ok = False

    def deal(self, rng: random.Random) -> list[int] | None:
        """One deal of the unseen cards, or None on a dead end."""
        out = list(self.base)
        room = list(self.room)
        pairs = self.pairs
        if pairs:
            pairs = pairs[:]
            rng.shuffle(pairs)
            for bit, a, b in pairs:
                ra, rb = room[a], room[b]
                if not ra and not rb:
                    return None
                pick = a if rng.randrange(ra + rb) < ra else b
                room[pick] -= 1
                out[pick] |= bit
        free = self.free[:]
        rng.shuffle(free)
        start = 0
        for s in range(4):
            if room[s]:
                for key in free[start : start + room[s]]:
                    out[s] |= 1 << key
                start += room[s]
        return out


class StrongPolicy:
    """Determinised Monte Carlo over the unseen cards, with greedy play-outs.

    The candidates are a handful of sensible actions (the plan's combinations,
    the lowest and highest answers, pass). For each of `samples` deals of the
    unseen cards to the opponents (respecting how many each holds and what their
    past plays say they cannot hold, see `_Reads`), every candidate is played out
    to the end of the deal with greedy players; the candidate with the lowest
    average penalty for this seat wins (a won deal counts as `-win_bonus`). The
    same sampled deals serve every candidate, so their comparison is fair. The
    number of samples is fixed, so the choice never depends on the machine's speed;
    with `zero_sum` a play-out is worth what the table's score counts instead: this seat's
    penalty minus the other three's average (`strong3`, the `normal` level on 6 December 2026
    from 08:00 to 10:00 UTC, and `HardPolicy`, which both levels now are);
    with a `budget_ms`, sampling stops after that time (at least 6 samples), which
    bounds the decision time but makes the choice depend on the machine's load.
    """

    name = "strong"

    def __init__(
        self,
        rng: random.Random,
        rollouts: int = 480,
        max_candidates: int = 10,
        win_bonus: float = 8.0,
        budget_ms: float | None = None,
        zero_sum: bool = False,
    ) -> None:
        """`rollouts` play-outs per decision in total, spread over the candidates; a won deal
        counts as a penalty of `-win_bonus` (winning matters beyond the penalty it saves),
        unless `zero_sum` (see the class docstring). `budget_ms` None: no time cut-off (the
        choice never depends on the machine's speed)."""
        self.rng = rng
        self.win_bonus = win_bonus
        self.zero_sum = zero_sum
        self.budget = budget_ms / 1000 if budget_ms is not None else None
        self.rollouts = rollouts
        self.max_candidates = max_candidates
        self.fallback = HeuristicPolicy(rng)
        self.reads = _Reads()

    def decide(self, view: BigTwoView) -> Action:
        """Choose a legal action for the seat of `view`."""
        seat = view.seat
        assert seat is not None
        self.reads.update(view, seat)
        action = self._decide(view, seat)
        self.reads.acted(view, action)
        return action

    def _decide(self, view: BigTwoView, seat: int) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        hand = view.hand_mask
        if any(isinstance(a, Play) and len(a.cards) == len(view.hand) for a in legal):
            return play_of_mask(hand)
        candidates = self._candidates(view, hand)
        if len(candidates) == 1:
            return _action(candidates[0])
        samples = self._samples(view, len(candidates))
        totals = self.values(view, seat, candidates, samples)
        return _action(candidates[self._pick(candidates, totals, samples)])

    def _samples(self, view: BigTwoView, candidates: int) -> int:
        """How many sampled deals serve a decision between `candidates` moves."""
        return max(_MIN_SAMPLES, self.rollouts // candidates)

    def _pick(self, candidates: list[int], totals: list[float], samples: int) -> int:
        """The index of the candidate to play, given their total sampled values."""
        return min(range(len(candidates)), key=lambda i: (totals[i], i))

    def _value(self, penalties: list[int], seat: int) -> float:
        """What one play-out's `penalties` are worth to `seat` (lower is better): with
        `zero_sum` its penalty minus the other three's average, else its penalty, a won deal
        counting as `-win_bonus`."""
        mine = penalties[seat]
        if self.zero_sum:
            return mine - (sum(penalties) - mine) / 3
        return mine if mine else -self.win_bonus

    def values(
        self, view: BigTwoView, seat: int, candidates: list[int], samples: int
    ) -> list[float]:
        """Each candidate's total value (`_value`) over `samples` sampled deals; lower is
        better. The same deals serve every candidate."""
        hand = view.hand_mask
        unseen_mask = ALL_CARDS & ~hand & ~mask_of_cards(view.played)
        unseen = keys_of_mask(unseen_mask)
        counts = list(view.cards_left)
        hands = [0, 0, 0, 0]
        hands[seat] = hand
        forbid = [f & unseen_mask for f in self.reads.forbid]
        checks = [
            (who, _combo(table), _combo(answer).power if answer else 0)
            for who, table, answer in self.reads.checks
            if view.cards_left[who]
        ]
        dealer = _Dealer(unseen, counts, hands, seat, forbid) if any(forbid) else None
        reading = dealer is not None and dealer.ok
        totals = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.budget if self.budget is not None else None
        dead_ends = 0
        for done in range(samples):
            if deadline is not None and done >= _MIN_SAMPLES and time.perf_counter() > deadline:
                break  # a busy machine: decide on the samples so far
            dealt = None
            if reading and dealer is not None:
                dealt = dealer.deal(self.rng)
                if dealt is None:
                    dead_ends += 1
                    if dead_ends >= 4:
                        reading = False  # the reads contradict each other: drop them
            if dealt is None:
                dealt = deal_unseen(self.rng, unseen, counts, hands, seat)
            if checks:
                wrong = _misreads(dealt, checks)
                for _ in range(_RETRIES):
                    if not wrong:
                        break
                    again = (
                        dealer.deal(self.rng)
                        if reading and dealer is not None
                        else deal_unseen(self.rng, unseen, counts, hands, seat)
                    )
                    if again is None:
                        continue
                    again_wrong = _misreads(again, checks)
                    if again_wrong < wrong:
                        dealt, wrong = again, again_wrong
            self._play_out(dealt, view, seat, candidates, totals)
        return totals

    def _play_out(
        self,
        dealt: list[int],
        view: BigTwoView,
        seat: int,
        candidates: list[int],
        totals: list[float],
    ) -> None:
        """Add to `totals` each candidate's value (`_value`) on the sampled deal `dealt`."""
        table_seat = view.table_seat if view.table_seat is not None else seat
        for i, move in enumerate(candidates):
            penalties = _after(dealt, seat, move, view.table, table_seat, view.passes, self._finish)
            totals[i] += self._value(penalties, seat)

    def _finish(
        self, hands: list[int], turn: int, table: Combo | None, table_seat: int, passes: int
    ) -> list[int]:
        """Play a sampled deal from `turn` to its end; each seat's penalty (greedy here)."""
        return play_out(hands, turn, table, table_seat, passes)

    def _candidates(self, view: BigTwoView, hand: int) -> list[int]:
        """A few sensible moves as masks (0 = pass), the heuristic's favourite first."""
        favourite = self.fallback.decide(view)
        first = mask_of_cards(favourite.cards) if isinstance(favourite, Play) else 0
        out = [first]
        legal_masks = [mask_of_cards(a.cards) for a in view.legal if isinstance(a, Play)]
        legal_set = set(legal_masks)
        extra: list[int] = []
        if view.table is None:
            extra += [c.mask for c in plan(hand) if c.mask in legal_set]
            extra.append(greedy_move(hand, None))
        else:
            extra.append(0)
            extra += [c.mask for c in plan(hand) if c.mask in legal_set]
            if legal_masks:
                extra += [legal_masks[0], legal_masks[-1]]
        extra += legal_masks  # then the rest, lowest first, while there is room
        for move in extra:
            if move not in out and (move in legal_set or (move == 0 and view.table is not None)):
                out.append(move)
            if len(out) >= self.max_candidates:
                break
        return out


def _action(move: int) -> Action:
    return play_of_mask(move) if move else PASS


def _after(
    hands: list[int],
    seat: int,
    move: int,
    table: Combo | None,
    table_seat: int,
    passes: int,
    finish: Callable[[list[int], int, Combo | None, int, int], list[int]],
) -> list[int]:
    """Every seat's penalty after `seat` plays `move` (0 = pass) and `finish` plays the deal
    to its end."""
    hands = list(hands)
    if move:
        hands[seat] &= ~move
        if not hands[seat]:
            return [penalty(h.bit_count()) for h in hands]
        turn, table, table_seat, passes = (seat + 1) % 4, classify_mask(move), seat, 0
    else:
        passes += 1
        if passes == 3:
            turn, table, passes = table_seat, None, 0
        else:
            turn = (seat + 1) % 4
    return finish(hands, turn, table, table_seat, passes)
