"""`deucebot play GAME` options read the game's declarations (`GameSpec.options`): `--deals`
sets whatever field a game declares for its deals (hold'em: its hands)."""

from __future__ import annotations

from tests.bot.terminal import Terminal


def test_deals_limits_a_holdem_match_to_its_hands() -> None:
    term = Terminal("holdem", "--seed", "11", "--ai-delay", "0", "--deals", "1")
    try:
        term.play_hints()
    finally:
        term.close()
    text = "\n".join(term.lines)
    assert "Hand 2" not in text and "hand 2" not in text, text[-2000:]
