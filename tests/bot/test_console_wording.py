"""What the terminal says to its player, named "You" by default: second-person lines about
themself ("You sit down", never "You sits down"), counts that read right ("cards left: 1",
never "1 cards"), and the way back after two missed turns. Whole scripted matches of every
game, in English and French."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import ClassVar

import pytest

from bot.cli import build_parser
from bot.i18n import LANGUAGES, t
from bot.render import get_renderer
from bot.render.words import say_move
from bot.runtime import SeatAway, SeatBack, TurnTimedOut
from bot.terminal.console import HUMAN_ID, Console, ConsoleFront

# Enough generic moves for each game to go through many deals; refused ones are harmless.
SCRIPTS = {
    "bigtwo": "1\npass\n" * 120,
    "holdem": "call\ncheck\n" * 120,
    "draw": "no\nraise 4\ncall\ncheck\nstand\nrebuy 1\n" * 40,
    "duel": "1\ncall\ncheck\n" * 80,
}
# A third-person verb right after "You" (or "Vous" with a third-person form).
WRONG = {
    "en": re.compile(
        r"\bYou (sits|has|leads|is|wins|folds|checks|calls|bets|raises|deals|posts|passes|goes"
        r"|shows|takes|buys|antes|doubles|does|opens|draws|stands|proves|ran out of time: \S+"
        r" was played for them)\b"
    ),
    "fr": re.compile(r"\bYou (s'assoit|s'assied|a|est|gagne|se couche|checke|suit|mise|relance"
                     r"|distribue|donne|passe|joue|montre|ramasse|prend|pose|double|ouvre)\b"),
}  # fmt: skip
# A line each game is sure to print about you, in its second-person form.
SECOND_PERSON = {
    "bigtwo": {"en": "You played ", "fr": "Vous jouez "},
    "holdem": {"en": "You sit down with 1000 chips.", "fr": "Vous vous asseyez avec 1000 jetons."},
    "draw": {"en": "You buy in for 200.", "fr": "Vous prenez une cave de 200."},
    "duel": {"en": "You sit down with 20 chips.", "fr": "Vous vous asseyez avec 20 jetons."},
}
PLURAL = re.compile(r"\b1 (cards|cartes|chips|jetons)\b")


async def transcript(tmp_path: Path, game: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DEUCEBOT_LANGUAGE", lang)
    argv = ["play", game, "--db", str(tmp_path / f"{game}-{lang}.sqlite3"), "--seed", "2"]
    args = build_parser().parse_args([*argv, "--ai-delay", "0", "--ai", "random"])
    out = io.StringIO()
    console = Console(args, io.StringIO(SCRIPTS[game] + "quit\n"), out)
    assert await console.run() == 0
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(SCRIPTS))
async def test_lines_about_you_are_in_the_second_person(
    tmp_path: Path, game: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = await transcript(tmp_path, game, lang, monkeypatch)
    wrong = WRONG[lang].findall(output)
    assert not wrong, wrong
    assert not PLURAL.findall(output)
    assert SECOND_PERSON[game][lang] in output


async def test_big_two_counts_read_right_and_you_lead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = await transcript(tmp_path, "bigtwo", "en", monkeypatch)
    assert re.search(r"You played .*; cards left: \d+\.", output)
    assert "cards left" in output and " cards left." not in output


class _Table:
    """The little of a `Table` the console front reads: names and who you are."""

    names: ClassVar[list[str]] = ["You", "strong AI 2"]
    game = "holdem"
    place = "terminal:holdem"

    def seat_of(self, player_id: str) -> int | None:
        return 0 if player_id == HUMAN_ID else None


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_after_two_timeouts_you_are_told_to_type_back(lang: str) -> None:
    out = io.StringIO()
    front = ConsoleFront("terminal:holdem", out, lang, colour=False)
    await front.show(
        _Table(),  # type: ignore[arg-type]
        [
            TurnTimedOut(seat=0, action="check", in_a_row=2),
            SeatAway(seat=0, name="You", reason="timeout"),
            SeatBack(seat=0, name="You"),
            SeatAway(seat=1, name="strong AI 2", reason="timeout"),
        ],
    )
    lines = out.getvalue().splitlines()
    # The move in the reader's words, as they would type it ("чек" in Ukrainian).
    check = say_move("check", get_renderer("holdem").move_areas, lang)
    assert lines[0] == t("console.event.timed_out.you", lang, action=check)
    assert "back" in lines[1] and lines[1] == t("console.event.away.you", lang)
    assert lines[2] == t("console.event.back.you", lang)
    assert lines[3].startswith("strong AI 2")  # someone else: third person, no 'back' hint
