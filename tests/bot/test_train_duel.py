"""`deucebot train duel`: the command solves every stack and writes tables the `cfr`
player reads (a 2-iteration solve here; the shipped one is docs/duel.md's)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from bot.cli import main
from engines.ai.duel_hard import CfrPolicy, load_tables
from engines.ai.duel_solve import MAX_EFFECTIVE
from engines.duel import DuelConfig, new_state


def test_train_duel_writes_tables_from_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "duel.npz"
    args = ["train", "duel", "--seed", "9", "--iterations", "2", "--out", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert f"{MAX_EFFECTIVE + 1} stacks solved" in printed and str(out) in printed
    assert "kept card values" in printed
    with np.load(out) as data:
        assert list(data["meta"][:2]) == [9, 2]
    state = new_state(DuelConfig(), random.Random(3))
    seat = state.to_act
    assert seat is not None
    player = CfrPolicy(random.Random(0), load_tables(out))
    assert player.distribution(state.view(seat))
    state.check(seat, player.decide(state.view(seat)))
