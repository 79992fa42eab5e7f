"""`deucebot train bigtwo-hands`: Big Two's hand model, fitted on self-play deals of four
`net` players (declared by Big Two's `GameFace.trainers`)."""

from __future__ import annotations

import argparse

from bot.commands.train_bigtwo import train_and_save


def train(args: argparse.Namespace) -> int:
    """Fit the hand model from `args.seed` on `args.deals` self-play deals (110,000)."""
    from engines.ai.bigtwo_hands import HANDS_PATH
    from engines.ai.bigtwo_hands_train import train as train_hands

    return train_and_save(args, train_hands, HANDS_PATH, 110_000)
