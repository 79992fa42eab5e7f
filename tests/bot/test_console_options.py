"""`deucebot play GAME` options read the game's declarations (`GameSpec.options`): `--deals`
sets whatever field a game declares for its deals (hold'em: its hands)."""

from __future__ import annotations

from tests.bot.terminal import Terminal, is_prompt


def test_deals_limits_a_holdem_match_to_its_hands() -> None:
    term = Terminal("holdem", "--seed", "11", "--ai-delay", "0", "--deals", "1")
    try:
        while True:
            seen = term.read_until(lambda s: is_prompt(s) or s.startswith("Run the same"), 60)
            if seen[-1].startswith("Run the same"):
                break
            term.type("hint")
            hint = term.read_until(lambda s: s.startswith("Hint: "), 30)[-1]
            term.read_until(is_prompt, 10)
            term.type(hint.removeprefix("Hint: "))
        term.rest(10)
    finally:
        term.close()
    text = "\n".join(term.lines)
    assert "Hand 2" not in text and "hand 2" not in text, text[-2000:]
