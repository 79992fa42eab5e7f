"""The terminal's flows as a person meets them, in a child process fed line by line: being
knocked out of hold'em (watch, a new match, quit at once), quitting while the AI plays, a
draw poker match that ends by itself, the standings between deals. Every run is bounded."""

from __future__ import annotations

import re
import time

import pytest

from tests.bot.terminal import Terminal, is_prompt

OUT = "You are out of the match."
AI_ACTION = re.compile(r"^AI \d (folds|checks|calls|bets|raises)")


def knocked_out(started: list[Terminal], *extra: str) -> Terminal:
    """Hold'em seed 11, all-in at every prompt until you are out (the choices shown)."""
    term = Terminal("holdem", "--seed", "11", *extra)
    started.append(term)
    while True:
        line = term.read_until(lambda s: is_prompt(s) or s.startswith(OUT))
        if line[-1].startswith(OUT):
            return term
        term.type("allin")


def test_knocked_out_you_choose_at_once_and_quit_ends_it(terminal: list[Terminal]) -> None:
    term = knocked_out(terminal, "--ai-delay", "0.05")
    assert any(line == "You are out of chips." for line in term.lines)
    term.read_until(is_prompt, 10)
    # Nothing streams on while you choose: the AI-only hands are not printed.
    time.sleep(1.0)
    term.type("help")
    answer = term.read_until(is_prompt, 10)
    assert not any(AI_ACTION.match(line) for line in answer), answer
    assert answer[0].startswith(OUT), answer
    started = time.monotonic()
    term.type("quit")
    rest = term.rest(10)
    assert time.monotonic() - started < 5
    assert any("This match was not saved" in line for line in rest), rest


def test_watching_is_one_summary_per_hand_and_quit_works_while_watching(
    terminal: list[Terminal],
) -> None:
    term = knocked_out(terminal, "--ai-delay", "0.05")
    term.read_until(is_prompt, 10)
    term.type("watch")
    term.read_until(lambda s: s.startswith("Watching:"), 10)
    watched = term.read_until(lambda s: s.startswith("Standings:"), 60)
    watched += term.read_until(lambda s: s.startswith("Standings:"), 60)
    assert any(line.startswith("Hand ") for line in watched), watched
    assert not any(AI_ACTION.match(line) for line in watched), watched
    assert not any("committed" in line for line in watched), watched
    started = time.monotonic()
    term.type("quit")  # no prompt is waiting: the AI is playing
    term.rest(10)
    assert time.monotonic() - started < 5


def test_a_new_match_after_being_knocked_out(terminal: list[Terminal]) -> None:
    term = knocked_out(terminal, "--ai-delay", "0")
    term.read_until(is_prompt, 10)
    term.type("new")
    term.read_until(lambda s: s == "A new match starts, with fresh stacks.", 10)
    fresh = term.read_until(is_prompt, 30)
    assert "— Match 2 starts —" in fresh
    # The abandoned match's seeds are public now: said once, before the new match starts.
    revealed = "The match's secret seeds are now all revealed."
    assert fresh.count(revealed) == 1, fresh
    assert fresh.index(revealed) < fresh.index("— Match 2 starts —"), fresh
    assert "You sit down with 1000 chips." in fresh
    term.type("quit")
    term.rest(10)


def test_quit_is_answered_while_the_ai_plays(terminal: list[Terminal]) -> None:
    # With a 2 s AI delay, the three AI seats before you take 6 s: quit comes first.
    term = Terminal("holdem", "--seed", "11", "--ai-delay", "2")
    terminal.append(term)
    term.read_until(lambda s: s.startswith("Your cards:"), 30)
    started = time.monotonic()
    term.type("quit")
    rest = term.rest(10)
    assert time.monotonic() - started < 3
    assert not any(is_prompt(line) for line in rest), rest


def test_a_draw_match_ends_by_itself_with_standings_between_deals(
    terminal: list[Terminal],
) -> None:
    term = Terminal("draw", "--seed", "5", "--ai-delay", "0", "--deals", "3")
    terminal.append(term)
    term.play_hints()
    text = "\n".join(term.lines)
    assert text.count("Standings: ") == 2, text  # between deals 1-2 and 2-3
    assert "Deal 1 of 3" in text and "Deal 3 of 3" in text
    assert "Match over" in text


def test_a_draw_table_has_a_deal_limit_unless_asked() -> None:
    from engines.draw import DEFAULT_DEALS, DrawConfig

    assert DrawConfig().deals == DEFAULT_DEALS
    # A stored match keeps its own settings (the whole config is stored): no limit stays.
    assert DrawConfig(**DrawConfig(deals=None).model_dump(mode="json")).deals is None


@pytest.mark.parametrize(
    ("lang", "meant"),
    [("en", "did you mean raise 60?"), ("fr", "vouliez-vous dire raise 60 ?")],
)
def test_typed_traps_are_answered_in_the_terminal(
    terminal: list[Terminal], lang: str, meant: str
) -> None:
    term = Terminal("holdem", "--seed", "11", "--ai-delay", "0", lang=lang)
    terminal.append(term)
    term.read_until(is_prompt, 30)
    term.type("rasie 60")
    answer = term.read_until(is_prompt, 10)
    assert any(meant in line for line in answer), answer
    term.type("min")  # the Min button's move, typed: played (the table moves on)
    after = term.read_until(is_prompt, 30)
    assert not any(line.startswith(("Refused", "Refusé")) for line in after), after
    term.type("quit")
    term.rest(10)
