"""`deucebot train bigtwo-pg`: policy-gradient training of Big Two's `pg` sparring partner
against a mixed pool (declared by Big Two's `GameFace.trainers`)."""

from __future__ import annotations

import argparse
from pathlib import Path


def train(args: argparse.Namespace) -> int:
    """Train the `pg` player from `args.seed` over `args.deals` deals (30,000)."""
    from engines.ai.bigtwo_pg import PG_WEIGHTS_PATH
    from engines.ai.bigtwo_pg_train import train_pg

    out = Path(args.out) if args.out else PG_WEIGHTS_PATH
    deals = args.deals if args.deals is not None else 30_000
    policy, done = train_pg(args.seed, deals, log=lambda line: print(line, flush=True))
    policy.save(out)
    print(f"{done.deals} deals in {done.seconds:.0f} s; weights written to {out}")
    return 0
