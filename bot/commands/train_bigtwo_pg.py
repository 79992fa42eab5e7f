"""`deucebot train bigtwo-pg`: policy-gradient training of Big Two's `pg` sparring partner
against a mixed pool (declared by Big Two's `GameFace.trainers`)."""

from __future__ import annotations

import argparse

from bot.commands.train_bigtwo import train_and_save


def train(args: argparse.Namespace) -> int:
    """Train the `pg` player from `args.seed` over `args.deals` deals (30,000)."""
    from engines.ai.bigtwo_pg import PG_WEIGHTS_PATH
    from engines.ai.bigtwo_pg_train import train_pg

    return train_and_save(args, train_pg, PG_WEIGHTS_PATH, 30_000)
