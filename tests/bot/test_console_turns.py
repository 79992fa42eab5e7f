"""The terminal's turns, in a child process fed line by line as a person types: `play GAME`
drives only its own game's table (every ordered pair of games in one database), its front
reading each table with that table's game's renderer; a line typed while it is not your
turn is refused at once and never played later; with a turn timer the time left is shown
and a timed-out turn is followed by the next turn's board and prompt; a deal's opening
lines come before its board and prompt. Every wait is bounded."""

from __future__ import annotations

import io
import logging
import re
import sqlite3
from pathlib import Path

import pytest

from bot.runtime import Player, RuntimeConfig, TableManager
from bot.terminal.console import HUMAN_ID, ConsoleFront, place_of
from storage import open_storage
from tests.bot.terminal import Terminal, is_prompt

GAMES = ("bigtwo", "holdem", "draw", "duel")
NOT_YOURS = "Not your turn: "
RAW_CARD = re.compile(r"\b[2-9TJQKA][DCHS]\b")
YOUR_MOVE = re.compile(r"^You (fold|check|call|bet|raise|go all)")
TIME_LEFT = re.compile(r"Time left: [1-6] s\.")
HAND_OPENS = re.compile(r"^Hand (\d+): ")
HAND_BOARD = re.compile(r"^Hand (\d+) · ")


def test_a_hand_opens_before_its_board_and_prompt(terminal: list[Terminal]) -> None:
    # You fold at once, so hands end on an AI's move and the pause between hands (0.5 s)
    # holds the next hand's opening lines. A line typed in that pause used to wake the
    # console, which drew the board and prompt from the live table, ahead of those lines
    # (you are first to act in hand 2).
    term = Terminal("holdem", "--seed", "5", "--ai-delay", "0.25")
    terminal.append(term)
    hands = 0
    while hands < 5:
        seen = term.read_until(lambda s: is_prompt(s) or s.startswith("Standings:"), 60)
        if seen[-1].startswith("Standings:"):
            term.type("")  # Enter, in the pause between hands
            hands += 1
        else:
            term.type("check" if any(s.startswith("Refused:") for s in seen) else "fold")
    term.read_until(is_prompt, 60)
    term.type("quit")
    term.rest(30)
    opened: int | None = None
    opening: list[str] = []
    boards = 0
    for line in term.lines:
        if match := HAND_OPENS.match(line):
            opened, opening = int(match.group(1)), []
        opening.append(line)
        if match := HAND_BOARD.match(line):
            boards += 1
            assert int(match.group(1)) == opened, (line, term.lines)
            assert any(s.startswith("Your cards: ") for s in opening), (line, opening)
        if is_prompt(line):
            assert opened is not None and any(HAND_BOARD.match(s) for s in opening), opening
    assert boards >= 5 and opened is not None and opened >= 5


async def shown(follows: str, place: str, game: str) -> str:
    """What a console front following `follows` prints of a `game` table in `place`, from its
    start (seed 3) to your first turn."""
    out = io.StringIO()
    front = ConsoleFront(follows, out, "en", colour=False)
    storage = await open_storage(":memory:")
    config = RuntimeConfig(ai_delay=0, ai_in_thread=True, timers=False)
    manager = TableManager(storage, front, config=config)
    try:
        table = await manager.create(
            guild="terminal", place=place, game=game, owner=Player(HUMAN_ID, "You")
        )
        await table.start(seed=3)
        await table.idle()
    finally:
        await manager.close()
        await storage.close()
    return out.getvalue()


@pytest.mark.parametrize(("follows", "game"), [(a, b) for a in GAMES for b in GAMES if a != b])
async def test_the_front_reads_a_table_with_its_own_games_renderer(
    follows: str, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    # Another place's table (another game's terminal table): nothing of it is printed.
    assert await shown(place_of(follows), place_of(game), game) == ""
    # A table of another game in the place followed is read with its own game's renderer:
    # the same lines as in its own place.
    alone = await shown(place_of(game), place_of(game), game)
    assert alone and await shown(place_of(follows), place_of(follows), game) == alone
    assert "front failed" not in caplog.text


def played(db: Path) -> dict[str, tuple[int, int]]:
    """Per game: (actions stored, of which yours) over the database's tables."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT t.game, count(a.seq), coalesce(sum(a.actor = 'human'), 0) FROM tables t "
            "LEFT JOIN matches m ON m.table_id = t.id LEFT JOIN actions a ON a.match_id = m.id "
            "GROUP BY t.game"
        ).fetchall()
    return {game: (int(count), int(yours)) for game, count, yours in rows}


def one_move_then_quit(term: Terminal) -> None:
    """At the first prompt: the hint's move, and quit typed with it (the AI, slowed down,
    has not answered it yet when quit is read)."""
    term.read_until(is_prompt, 60)
    term.type("hint")
    hint = term.read_until(lambda s: s.startswith("Hint: "), 30)[-1]
    term.read_until(is_prompt, 10)
    term.type(hint.removeprefix("Hint: ") + "\nquit")
    rest = term.rest(30)
    assert rest[-1].startswith("Saved."), rest


@pytest.mark.slow
@pytest.mark.parametrize("first", GAMES)
def test_play_drives_only_its_own_games_table(
    terminal: list[Terminal], tmp_path: Path, first: str
) -> None:
    # `first` is left with an AI seat to act; each other game is then played in the same
    # database: the first table must not be resumed there (its AI moves, unwatched, were
    # rendered by the other game's renderer: a traceback after every hand).
    db = tmp_path / "shared.sqlite3"
    term = Terminal(first, "--db", str(db), "--seed", "3", "--ai-delay", "1")
    terminal.append(term)
    one_move_then_quit(term)
    for game in (g for g in GAMES if g != first):
        before = played(db)
        term = Terminal(game, "--db", str(db), "--seed", "3", "--ai-delay", "0")
        terminal.append(term)
        one_move_then_quit(term)
        after = played(db)
        assert not any("Traceback" in s or "front failed" in s for s in term.lines), term.lines
        assert after[game][1] > before.get(game, (0, 0))[1]  # you played it
        assert {g: n for g, n in after.items() if g != game} == before  # nothing else moved
    stored = played(db)[first][0]
    term = Terminal(first, "--db", str(db), "--ai-delay", "0")
    terminal.append(term)
    resumed = term.read_until(lambda s: s.startswith("Resuming"), 60)[-1]
    assert resumed == f"Resuming the saved match at turn {stored}."
    term.read_until(is_prompt, 60)
    term.type("quit")
    term.rest(30)
    assert not any("Traceback" in s for s in term.lines), term.lines


def test_lines_typed_while_it_is_not_your_turn_are_refused_and_never_played(
    terminal: list[Terminal],
) -> None:
    # Seed 11: after the blinds an AI seat acts first (2 s); then you hold Q♦ 9♥ facing
    # 20. Typed at once, call and fold reach the console before that AI's move.
    term = Terminal("holdem", "--seed", "11", "--ai-delay", "2")
    terminal.append(term)
    term.type("call")
    term.type("fold")
    early = term.read_until(lambda s: is_prompt(s) or s.startswith(f"{NOT_YOURS}“fold”"), 30)
    assert not any(is_prompt(s) for s in early), early
    assert any(s.startswith(f"{NOT_YOURS}“call”") for s in early), early
    # At the prompt: a call, and two more lines typed at once, before the next prompt.
    seen = term.read_until(is_prompt, 30)
    assert not any(s.startswith(("You call", "You fold")) for s in seen), seen
    term.type("call\nfold\nraise 100")
    after = term.read_until(lambda s: s.startswith(f"{NOT_YOURS}“raise 100”"), 30)
    assert any(s.startswith(f"{NOT_YOURS}“fold”") for s in after), after
    assert any(s == "You call 20." for s in after), after
    assert not any(is_prompt(s) for s in after), after
    # The next prompt reads only what is typed at it: help is answered, nothing was played.
    term.read_until(is_prompt, 30)
    term.type("help")
    term.read_until(lambda s: s.startswith("Also: "), 10)
    term.type("quit")
    term.rest(10)
    yours = [s for s in term.lines if YOUR_MOVE.match(s)]
    assert yours == ["You call 20."], yours


def test_a_line_out_of_turn_is_refused_in_your_language(terminal: list[Terminal]) -> None:
    term = Terminal("holdem", "--seed", "11", "--ai-delay", "2", lang="fr")
    terminal.append(term)
    term.type("suivre")  # before the AI seat to act first has played
    refused = term.read_until(lambda s: is_prompt(s) or "votre tour" in s, 30)[-1]
    assert refused.startswith("Ce n'est pas votre tour : « suivre »"), refused
    term.type("quit")
    term.rest(10)


def test_the_turn_timer_shows_time_left_and_the_next_turn_after_a_timeout(
    terminal: list[Terminal],
) -> None:
    # Seed 7: you hold 3♦ and lead; nothing is typed, so both turns time out.
    # A 6 s timer: the warning comes with 2 s left, well before the time runs out.
    term = Terminal("bigtwo", "--seed", "7", "--ai-delay", "0", "--turn-seconds", "6")
    terminal.append(term)
    first = term.read_until(is_prompt, 30)
    assert TIME_LEFT.fullmatch(first[-2]), first
    warned = term.read_until(
        lambda s: (
            s.startswith(("Your time ran out", "You are away"))
            or s.endswith("s left: play now, or the safe move is played for you.")
        ),
        30,
    )
    assert not warned[-1].startswith("Your"), warned  # warned before the time ran out
    out = term.read_until(lambda s: s.startswith("Your time ran out"), 30)[-1]
    # Leading, the safe move plays a card: said in words with its suit, not as a code.
    assert out == "Your time ran out: play 3♦ was played for you.", out
    assert not RAW_CARD.search(out), out
    # The next turn gets its board and prompt (with the time left) like any other.
    second = term.read_until(lambda s: is_prompt(s) or s.startswith("Your time ran out"), 60)
    assert is_prompt(second[-1]), second
    assert "You to play." in second and TIME_LEFT.fullmatch(second[-2]), second
    term.read_until(lambda s: s.startswith("Your time ran out"), 30)
    term.read_until(lambda s: s.startswith("You are away"), 10)
    term.type("quit")
    term.rest(10)
