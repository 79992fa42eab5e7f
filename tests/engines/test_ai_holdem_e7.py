"""The hold'em AIs' table of eval7 cards (`engines.ai.holdem_e7`): defined once, right for
every card, and shared without pulling numpy into `strong`'s module or the policies into
the ranges."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import eval7
from hypothesis import given
from hypothesis import strategies as st

from engines.ai import holdem, holdem_ranges, holdem_train
from engines.ai.holdem_e7 import E7
from engines.cards import FULL_DECK, Card
from engines.poker.ranking import hand_value

ROOT = Path(__file__).resolve().parents[2]


def test_strong_the_ranges_and_the_trainer_read_one_table() -> None:
    assert holdem._E7 is E7
    assert holdem_ranges.E7 is E7
    assert holdem_train._E7 is E7


@given(st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=7, unique=True))
def test_each_code_is_its_cards_eval7_card(hand: list[Card]) -> None:
    assert [str(E7[c.code]) for c in hand] == [c.rank.char + c.suit.letter.lower() for c in hand]
    assert eval7.evaluate([E7[c.code] for c in hand]) == hand_value(hand)


def test_neither_module_pulls_in_the_other_s_weight() -> None:
    strong = "import sys, engines.ai.holdem; assert 'numpy' not in sys.modules"
    alone = "import sys, engines.ai.holdem_ranges; assert 'engines.ai.holdem' not in sys.modules"
    for code in (strong, alone):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True)
        assert done.returncode == 0, done.stderr.decode()
