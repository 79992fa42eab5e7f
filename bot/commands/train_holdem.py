"""`deucebot train holdem`: solve hold'em's heads-up push/fold equilibrium, the chart of the
`hard` level (declared by hold'em's `GameFace.trainers`)."""

from __future__ import annotations

import argparse
from pathlib import Path


def train(args: argparse.Namespace) -> int:
    """Solve the chart from `args.seed` with `args.samples` boards per class pair."""
    from engines.ai.holdem_pushfold import CHART_PATH, save_chart
    from engines.ai.holdem_train import train as train_holdem

    path = Path(args.out) if args.out else CHART_PATH
    equity, solutions, done = train_holdem(
        args.seed, args.samples, log=lambda line: print(line, flush=True)
    )
    save_chart(path, equity, solutions)
    print(
        f"{done.samples:,} boards per class pair, seed {done.seed}, in {done.seconds:.0f} s; "
        f"worst exploitability {done.worst_exploitability:.1e} bb/hand; written to {path}"
    )
    return 0
