"""The duel's `cfr` player (the `hard` level): the CFR+ solver on a game with a known
equilibrium, the exploitability calculator on cases worked out by hand, the shipped tables,
legal moves from the seat's view only, and the levels' order of strength."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands.simulate import simulate
from engines.ai.duel import CasualPolicy
from engines.ai.duel_cfr import BettingSolver, Node, StrategyFn
from engines.ai.duel_exploit import action_distribution, best_response_gain
from engines.ai.duel_hard import CfrPolicy, load_tables, pseudo_harmonic
from engines.ai.duel_solve import (
    HANDS,
    MAX_EFFECTIVE,
    PAIRS,
    RANKS,
    betting_tree,
    hands_of,
    solve,
    train,
)
from engines.cards import parse_card
from engines.duel import SPEC, DuelConfig, DuelView, Lock, new_state, timeout_action
from engines.poker.actions import AllIn, Bet, Check, Fold
from tests.engines.test_ai_duel import rigged

# --- the solver -------------------------------------------------------------


def kuhn_tree() -> list[Node]:
    """Kuhn poker: ante 1, one bet of 1; player 0 checks or bets, and so on."""
    return [
        Node(0, (1, 1), (("check", 0), ("bet", 1)), (1, 4)),
        Node(1, (1, 1), (("check", 0), ("bet", 1)), (2, 3)),
        Node(-1, (1, 1)),
        Node(0, (1, 2), (("fold", 0), ("call", 1)), (5, 6)),
        Node(1, (2, 1), (("fold", 0), ("call", 1)), (7, 8)),
        Node(-1, (1, 2), folder=0),
        Node(-1, (2, 2)),
        Node(-1, (2, 1), folder=1),
        Node(-1, (2, 2)),
    ]


def test_cfr_finds_kuhn_pokers_equilibrium() -> None:
    """Kuhn poker's value for the first player is -1/18; CFR+ gets there and its average
    strategy is nearly unexploitable."""
    ranks = np.arange(3)
    win = np.sign(ranks[:, None] - ranks[None, :]).astype(float)
    deal = (1 - np.eye(3)) / 6  # three cards, one each, no replacement
    solver = BettingSolver(kuhn_tree(), win, deal, batch=1)
    reach = (np.ones((1, 3)), np.ones((1, 3)))
    for t in range(1, 1001):
        for player in (0, 1):
            solver.iterate(reach, player, float(t))
    average = StrategyFn({i: solver.average_strategy(i) for i in solver.regret})
    value = solver.values(reach, 0, False, average).sum()
    gains = [solver.values(reach, p, True, average).sum() for p in (0, 1)]
    assert value == pytest.approx(-1 / 18, abs=1e-3)
    assert 0 <= gains[0] + gains[1] < 2e-3
    # The second player with the king always calls a bet and bets after a check.
    assert solver.average_strategy(4)[0, 2, 1] == pytest.approx(1.0, abs=1e-3)
    assert solver.average_strategy(1)[0, 2, 1] == pytest.approx(1.0, abs=1e-3)


def test_duel_solve_converges_on_a_short_stack() -> None:
    """Two chips behind: the abstract game's exploitability shrinks with iterations to
    almost nothing, and the first player's value is the same from both sides."""
    rough, game = solve(2, iterations=5)
    fine, game = solve(2, iterations=300)
    _, first, second = game.evaluate(rough)
    value, best_first, best_second = game.evaluate(fine)
    assert (best_first + best_second) / 2 < 1e-3 < (first + second) / 2
    assert best_first >= value - 1e-9 and best_second >= -value - 1e-9


def test_hands_of_a_signal_weigh_every_pair_of_ranks() -> None:
    mixed = hands_of(1)
    assert len(mixed.cards) == HANDS == 42 and sum(mixed.prior) == pytest.approx(1.0)
    down = hands_of(0)
    pair = down.cards.index((0, 0))
    two_three = down.cards.index((0, 1))
    assert down.prior[two_three] == pytest.approx(2 * down.prior[pair])  # 2-3 or 3-2


# --- exploitability, by hand ------------------------------------------------


class Timid:
    """The timeout player: locks its lower card, checks, folds to any bet."""

    name = "timid"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: DuelView) -> Lock | Check | Fold:
        return timeout_action(view)  # type: ignore[return-value]


@pytest.mark.parametrize(("seat", "signals"), [(0, (0, 0)), (1, (2, 1)), (0, (1, 2))])
def test_best_response_takes_the_ante_from_a_player_who_always_folds(
    seat: int, signals: tuple[int, int]
) -> None:
    """Whatever the cards, betting 1 wins the timid player's ante: +1 chip per deal, and no
    strategy wins more (the timid player never puts in more than its ante)."""
    assert best_response_gain(Timid, seat, (5, 5), signals) == pytest.approx(1.0)


def test_best_response_without_betting_is_the_lock_duel_worked_out_by_hand() -> None:
    """No chips behind, both DOWN DOWN (six ranks 2-7, no ace): the timid player locks the
    lower of two ranks, the best response the higher. With ranks 1..6, P(max = j) =
    (2j - 1)/36 and P(min = k) = (13 - 2k)/36; the gain is the sum of their products times
    +1 (j > k) or -1 (j < k): 840/1296 = 35/54 chips per deal."""
    by_hand = sum(
        Fraction((2 * j - 1) * (13 - 2 * k), 1296) * ((j > k) - (j < k))
        for j in range(1, 7)
        for k in range(1, 7)
    )
    assert by_hand == Fraction(35, 54)
    assert best_response_gain(Timid, 0, (0, 0), (0, 0)) == pytest.approx(35 / 54)
    assert best_response_gain(Timid, 1, (0, 0), (0, 0)) == pytest.approx(35 / 54)


def test_best_response_counts_the_kept_cards_worked_out_by_hand() -> None:
    """Both UP UP, 5 chips behind, each rank worth minus its index when kept. The timid
    player keeps its higher card; the best response still takes the ante (+1) and keeps its
    lower card. Two independent ranks among 7: E|a - b| = 2 * sum d(7 - d) / 49 = 16/7, so
    the gain is 1 + 16/7 = 23/7."""
    keep = -np.arange(len(RANKS), dtype=float)
    gain = best_response_gain(Timid, 1, (5, 5), (2, 2), keep=keep)
    assert gain == pytest.approx(23 / 7)
    # Worth increasing with rank: both keep their higher card, the keep terms cancel.
    assert best_response_gain(Timid, 0, (5, 5), (2, 2), keep=-keep) == pytest.approx(1.0)


def test_a_mixed_decision_is_read_by_its_threshold() -> None:
    """A policy that bets when its one random draw is below 0.3 bets with chance 0.3."""

    class Sometimes:
        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def decide(self, view: DuelView) -> Bet | Check:
            return Bet(2) if self.rng.random() < 0.3 else Check()

    state = rigged("KS 4C", "9D 2H")
    state.apply(0, Lock(parse_card("KS")))
    state.apply(1, Lock(parse_card("9D")))
    spread = dict((str(a), p) for a, p in action_distribution(Sometimes, state.view(0)))
    assert spread == {"bet 2": pytest.approx(0.3, abs=1e-9), "check": pytest.approx(0.7)}


# --- the shipped tables and the player --------------------------------------


def test_shipped_tables_load_with_a_strategy_for_every_stack() -> None:
    tables = load_tables()
    assert len(tables.lock) == MAX_EFFECTIVE + 1
    for effective in range(MAX_EFFECTIVE + 1):
        lock = tables.lock[effective]
        assert lock.shape == (2, PAIRS, HANDS, 2)
        assert np.allclose(lock.sum(-1), 1.0, atol=2e-3)
        bet = tables.bet[effective]
        nodes = betting_tree(effective)
        decisions = [n for n in nodes if not n.leaf]
        if not decisions:
            assert bet is None
            continue
        assert bet is not None and bet.shape[:3] == (len(decisions), PAIRS, len(RANKS))
        for row, node in zip(bet, decisions, strict=True):
            assert np.allclose(row[..., : len(node.actions)].sum(-1), 1.0, atol=5e-3)
            assert not row[..., len(node.actions) :].any()


def test_cfr_keeps_its_ace_and_calls_with_a_sure_winner() -> None:
    """An ace and a 4 against two DOWN cards: the ace is worth more kept for the next deal
    than what it adds now (the 4 also wins against DOWN cards often), so lock the 4. A king
    locked against a first player who holds two DOWN cards wins whatever it locked: call
    its all-in, never fold."""
    player = CfrPolicy(random.Random(1))
    state = rigged("AS 4C", "3D 4H")
    lock = dict((str(a), p) for a, p in player.distribution(state.view(0)) or [])
    assert lock["lock 4C"] > 0.99
    sure = rigged("3D 5H", "KS 4C")
    sure.apply(0, Lock(parse_card("3D")))
    sure.apply(1, Lock(parse_card("KS")))
    sure.apply(0, AllIn())
    answer = dict((str(a), p) for a, p in player.distribution(sure.view(1)) or [])
    assert answer["call"] > 0.99


def test_an_off_tree_bet_is_read_by_the_pseudo_harmonic_mapping() -> None:
    """f(A) = 1 at the lower size, 0 at the upper, decreasing in between, and a size just
    above an abstract one is read as that one."""
    assert pseudo_harmonic(0.5, 1.0, 0.5) == 1.0 and pseudo_harmonic(0.5, 1.0, 1.0) == 0.0
    sizes = [pseudo_harmonic(0.5, 1.0, 0.5 + k / 20) for k in range(11)]
    assert sizes == sorted(sizes, reverse=True)
    # 0.5 pot -> 0.75: f = 0.25 * 1.5 / (0.5 * 1.75) = 3/7, read as the pot-sized bet.
    assert pseudo_harmonic(0.5, 1.0, 0.75) == pytest.approx(3 / 7)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    chips=st.sampled_from([2, 3, 8, 20, 20, 20, 30]),
    rival=st.sampled_from(["random", "honest", "strong", "cfr"]),
)
def test_cfr_only_plays_legal_actions(seed: int, chips: int, rival: str) -> None:
    """Against every other player (the random one's odd bet sizes included), at every
    stack, the solved player's choices are legal, and inside the solved game (up to 20
    chips each) every view maps onto its tables (30 chips: outside, `strong` plays)."""
    state = new_state(DuelConfig(starting_chips=chips), random.Random(seed))
    players = [
        SPEC.make_policy("cfr", random.Random(seed)),
        SPEC.make_policy(rival, random.Random(seed + 1)),
    ]
    for _ in range(300):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if seat == 0 and chips <= 20:
            assert isinstance(players[0], CfrPolicy) and players[0].distribution(view)
        action = players[seat].decide(view)
        state.check(seat, action)  # raises if illegal
        state.apply(seat, action)


def test_cfr_decides_from_the_view_only() -> None:
    """Two states that differ only in the opponent's hidden cards (same signals) give the
    same mixed strategy, at the lock and facing a bet."""
    a = rigged("KS 4C", "9D 2H")
    b = rigged("KS 4C", "QC 6S")
    player = CfrPolicy(random.Random(5))
    assert a.view(0) == b.view(0)
    assert player.distribution(a.view(0)) == player.distribution(b.view(0))
    for state in (a, b):
        state.apply(0, Lock(parse_card("KS")))
        state.apply(1, Lock(state.hands[1][0]))
        state.apply(0, Check())
        state.apply(1, Bet(3))
    assert a.view(0) == b.view(0)
    assert player.distribution(a.view(0)) == player.distribution(b.view(0))


def test_the_levels_are_three_players_in_order_of_strength() -> None:
    """hard (cfr) beats normal (strong) and normal beats easy (casual), in chips per deal
    with the 95% interval above zero, on fixed seeds."""
    assert len({SPEC.level_policy(level) for level in ("easy", "normal", "hard")}) == 3
    for stronger, weaker, matches in (("hard", "normal", 150), ("normal", "easy", 60)):
        players = [SPEC.level_policy(stronger), SPEC.level_policy(weaker)]
        result = simulate(SPEC, players, matches, seed=7, rotate=True).to_json()["seats"][0]
        assert result["chips_per_deal"]["low"] > 0, (stronger, weaker, result)


def test_training_is_reproducible_and_writes_loadable_tables(tmp_path: Path) -> None:
    """A short solve (3 iterations per stack) written twice gives the same tables, which
    load and play."""
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    train(4, first, iterations=3, log=lambda line: None)
    train(4, second, iterations=3, log=lambda line: None)
    with np.load(first) as a, np.load(second) as b:
        assert sorted(a.files) == sorted(b.files)
        assert all(np.array_equal(a[key], b[key]) for key in a.files)
        assert list(a["meta"][:2]) == [4, 3]
    tables = load_tables(first)
    state = rigged("AS 4C", "3D 4H")
    assert CfrPolicy(random.Random(0), tables).distribution(state.view(0)) is not None


# --- easy ---------------------------------------------------------------------


def test_casual_bets_good_cards_folds_bad_ones_and_sometimes_bluffs() -> None:
    """The easy player is no calling station: a 3 folds to a pot-sized bet, a king bets,
    a 4 with nothing owed bluffs one time in eight (and its chances add up to 1)."""
    casual = CasualPolicy(random.Random(0))
    state = rigged("KS 3C", "9D 2H")
    state.apply(0, Lock(parse_card("3C")))
    state.apply(1, Lock(parse_card("9D")))
    spread = dict((str(a), p) for a, p in casual.distribution(state.view(0)))
    assert spread == pytest.approx({"bet 1": 0.125, "check": 0.875})
    state.apply(0, Check())
    state.apply(1, Bet(2))
    assert dict((str(a), p) for a, p in casual.distribution(state.view(0))) == {"fold": 1.0}
    king = rigged("KS 3C", "9D 2H")
    king.apply(0, Lock(parse_card("KS")))
    spread = dict((str(a), p) for a, p in casual.distribution(king.view(1)))
    assert sum(spread.values()) == pytest.approx(1.0)
    king.apply(1, Lock(parse_card("9D")))
    bets = dict((str(a), p) for a, p in casual.distribution(king.view(0)))
    assert bets.get("check", 0.0) == 0.0 and sum(bets.values()) == pytest.approx(1.0)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), chips=st.integers(2, 20))
def test_in_self_play_every_betting_view_maps_back_to_its_own_abstract_node(
    seed: int, chips: int
) -> None:
    """Two cfr players put in only abstract sizes, so each betting view must map to the
    abstract node whose chips match the real round exactly (the history rebuilt from the
    totals and the size mapping lose nothing on the tree)."""
    state = new_state(DuelConfig(starting_chips=chips), random.Random(seed))
    player = CfrPolicy(random.Random(seed))
    for _ in range(200):
        if state.finished:
            break
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if view.phase == "bet":
            effective = min(view.chips[s] + view.bets[s] for s in (0, 1))
            first = view.first
            pair = 3 * view.signals[first][0] + view.signals[1 - first][0]
            role = 0 if seat == first else 1
            spot = player._walk(view, effective, role, pair)
            assert spot is not None
            node = player.tables.trees[effective][spot.node]
            real = (view.bets[first], view.bets[1 - first])
            assert node.put == (1 + min(real[0], effective), 1 + min(real[1], effective))
        action = player.decide(view)
        state.apply(seat, action)
