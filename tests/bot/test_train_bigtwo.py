"""`deucebot train bigtwo`, `bigtwo-pg` and `bigtwo-hands`: each writes the weights its seed
gives (to `--out`), after the deals asked for, and says where."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.cli import main
from engines.ai.bigtwo_net import Net
from engines.ai.bigtwo_train import train


def test_train_bigtwo_writes_the_weights_its_seed_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "net.npz"
    assert main(["train", "bigtwo", "--seed", "4", "--deals", "24", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("24 deals in ") and printed[-1].endswith(f"written to {out}")
    expected, _ = train(4, 24, log=lambda _: None)
    written = Net.load(out)
    assert all(np.array_equal(a, b) for a, b in zip(written.params, expected.params, strict=True))
    other, _ = train(5, 24, log=lambda _: None)
    assert not np.array_equal(written.params[0], other.params[0])


def test_train_bigtwo_pg_writes_its_weights_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pg.npz"
    assert main(["train", "bigtwo-pg", "--seed", "3", "--deals", "8", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("8 deals in ")
    assert out.stat().st_size > 0


def test_train_bigtwo_hands_writes_the_weights_its_seed_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from engines.ai.bigtwo_hands import HandModel
    from engines.ai.bigtwo_hands_train import train as train_hands

    out = tmp_path / "hands.npz"
    args = ["train", "bigtwo-hands", "--seed", "4", "--deals", "60", "--out", str(out)]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("60 deals in ")
    expected, _ = train_hands(4, 60, log=lambda _: None)
    written = HandModel.load(out)
    assert all(np.array_equal(a, b) for a, b in zip(written.params, expected.params, strict=True))
