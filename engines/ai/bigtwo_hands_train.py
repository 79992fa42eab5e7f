"""Training of Big Two's hand model (`deucebot train bigtwo-hands`).

Four `net` players play self-play deals (`net` plays its best-scored move, as `NetPolicy`
does). At every decision with more than one legal move after the opening play, the seat to
act gives one example: its `PublicRecord.features` and, for each unseen card, which
opponent holds it. The model is fitted by Adam to the log-likelihood of those owners; the
last twentieth of the deals is held out, and the weights of the epoch that does best on it
are kept. Everything random comes from `seed`, so a run reproduces its weights (on the same
numpy version). Training is a tool, not part of the test suite.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from engines.ai.bigtwo_hands import INPUTS, HandModel, Numbers, PublicRecord
from engines.ai.bigtwo_net import Net, shipped_net
from engines.ai.bigtwo_train import TrainReport, argmax_agent, play_deal
from engines.ai.small_net import Adam
from engines.bigtwo_combos import ALL_CARDS, Combo

_BATCH = 512


class _Examples:
    """Collects an example at each decision a deal's `play_deal` shows it (a `Watcher`)."""

    def __init__(self) -> None:
        self.rows: list[Numbers] = []
        self.owners: list[Numbers] = []
        self.new_deal()

    def new_deal(self) -> None:
        """Start the public record afresh."""
        self.record = PublicRecord()
        self.played = 0

    def __call__(
        self,
        turn: int,
        hands: list[int],
        moves: list[int],
        move: int,
        table: Combo | None,
        opening: bool,
    ) -> None:
        if len(moves) > 1 and not opening:
            hand = hands[turn]
            unseen = ALL_CARDS & ~hand & ~self.played
            self.rows.append(
                self.record.features(turn, hand, unseen, [h.bit_count() for h in hands])
            )
            owner = np.full(52, -1, np.int8)
            for k in (1, 2, 3):
                other = hands[(turn + k) % 4]
                for card in range(52):
                    if other >> card & 1:
                        owner[card] = k - 1
            self.owners.append(owner)
        self.record.record(turn, move, table)
        self.played |= move


def self_play_examples(rng: random.Random, deals: int, net: Net) -> tuple[Numbers, Numbers]:
    """Examples from `deals` deals of four `net` players: features (rows of `INPUTS` bytes)
    and owners (per card, the opponent holding it: 0-2 in turn order, -1 if not unseen)."""
    examples = _Examples()
    agents = [argmax_agent(net)] * 4
    for _ in range(deals):
        examples.new_deal()
        play_deal(rng, agents, examples)
    rows = np.array(examples.rows, np.uint8).reshape(-1, INPUTS)
    return rows, np.array(examples.owners, np.int8).reshape(-1, 52)


def mean_loss(model: HandModel, rows: Numbers, owners: Numbers) -> float:
    """The mean over unseen cards of minus the log-probability of the true owner."""
    total = 0.0
    cards = 0
    for start in range(0, len(rows), 4096):
        batch, known = rows[start : start + 4096], owners[start : start + 4096]
        logp = model.forward(batch)[2]
        mask = known >= 0
        picked = np.take_along_axis(logp, np.where(mask, known, 0)[..., None], axis=2)[..., 0]
        total -= float((picked * mask).sum())
        cards += int(mask.sum())
    return total / max(cards, 1)


def _gradients(model: HandModel, rows: Numbers, owners: Numbers) -> list[Numbers]:
    """The gradient of the batch's mean log-likelihood (per unseen card)."""
    x, hidden, logp = model.forward(rows)
    mask = owners >= 0
    target = np.zeros_like(logp)
    np.put_along_axis(target, np.where(mask, owners, 0)[..., None].astype(np.int64), 1.0, axis=2)
    dz = np.nan_to_num((target - np.exp(logp)) * mask[..., None]).reshape(len(rows), 156)
    dz /= max(int(mask.sum()), 1)
    w2 = model.params[2]
    dh = (dz @ w2.T) * (hidden > 0)
    return [x.T @ dh, dh.sum(0), hidden.T @ dz, dz.sum(0)]


def train(
    seed: int, deals: int, epochs: int = 6, lr: float = 5e-4, log: Callable[[str], None] = print
) -> tuple[HandModel, TrainReport]:
    """Fit a hand model on `deals` self-play deals (the last twentieth held out). The
    report's `checks` are (epoch, held-out loss), not edges against greedy."""
    started = time.perf_counter()
    rng = random.Random(seed)
    net = shipped_net()
    held = max(1, deals // 20)
    rows, owners = self_play_examples(rng, deals - held, net)
    test_rows, test_owners = self_play_examples(rng, held, net)
    log(f"{len(rows)} examples from {deals - held} deals, {len(test_rows)} held out")
    gen = np.random.default_rng(seed)
    model = HandModel.fresh(gen)
    adam = Adam(model.params, lr)
    best = HandModel([w.copy() for w in model.params])
    best_loss = mean_loss(model, test_rows, test_owners)
    log(f"held-out loss at random (the counts alone): {best_loss:.4f}")
    checks: list[tuple[int, float]] = []
    for epoch in range(1, epochs + 1):
        order = gen.permutation(len(rows))
        for start in range(0, len(rows) - _BATCH + 1, _BATCH):
            picked = order[start : start + _BATCH]
            adam.step(_gradients(model, rows[picked], owners[picked]))
        loss = mean_loss(model, test_rows, test_owners)
        checks.append((epoch, loss))
        log(f"epoch {epoch}: held-out loss {loss:.4f} ({time.perf_counter() - started:.0f} s)")
        if loss < best_loss:
            best_loss = loss
            best = HandModel([w.copy() for w in model.params])
    return best, TrainReport(deals, time.perf_counter() - started, checks)
