"""`deucebot train bigtwo`: self-play training of Big Two's `net` player (declared by Big
Two's `GameFace.trainers`)."""

from __future__ import annotations

import argparse
from pathlib import Path


def train(args: argparse.Namespace) -> int:
    """Train the network from `args.seed` over `args.deals` self-play deals (150,000)."""
    from engines.ai.bigtwo_net import WEIGHTS_PATH
    from engines.ai.bigtwo_train import train as train_net

    out = Path(args.out) if args.out else WEIGHTS_PATH
    deals = args.deals if args.deals is not None else 150_000
    net, report = train_net(args.seed, deals, log=lambda line: print(line, flush=True))
    net.save(out)
    print(f"{report.deals} deals in {report.seconds:.0f} s; weights written to {out}")
    return 0
