"""What the terminal says when asked for help or refused: only what can be done now, in
each language, and a next step named (sit out during a deal, the leaderboard without --db)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.i18n import LANGUAGES, explain, t
from bot.render import get_renderer
from bot.terminal.console import Console, _leaderboard
from engines.base import IllegalAction
from engines.draw.actions import SitOut
from tests.bot.render.test_draw_render import _draw_step


async def _help_lines(tmp_path: Path, game: str) -> list[str]:
    args = build_parser().parse_args(
        ["play", game, "--db", str(tmp_path / "h.sqlite3"), "--seed", "4", "--ai-delay", "0"]
    )
    out = io.StringIO()
    # Wait for your turn first (a typed line is answered at the prompt), then ask.
    console = Console(args, io.StringIO("board\nhelp\nquit\n"), out)  # type: ignore[arg-type]
    assert await console.run() == 0
    lines = out.getvalue().splitlines()
    at = lines.index(t("console.help", "en"))  # the help, after the game's own line
    return lines[at - 1 : at + 2]


async def test_help_lists_only_what_can_be_done_now(tmp_path: Path) -> None:
    lines = await _help_lines(tmp_path, "bigtwo")
    said = "\n".join(lines)
    assert t("console.help", "en") in said
    assert " back" not in t("console.help", "en")  # not away: back would only be refused
    assert "autopass on" in said and "(now off;" in said  # Big Two has passes to skip
    holdem = "\n".join(await _help_lines(tmp_path / "..", "holdem"))
    assert "autopass" not in holdem


def test_the_away_help_names_back() -> None:
    for lang in LANGUAGES:
        assert "back" in t("console.help.away", lang)


async def test_the_leaderboard_without_db_says_play_keeps_matches_only_with_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEUCEBOT_DB", str(tmp_path / "none.sqlite3"))
    said = await _leaderboard(build_parser().parse_args(["leaderboard", "holdem"]))
    assert "--db" in said and "play a match first" not in said
    named = await _leaderboard(
        build_parser().parse_args(["leaderboard", "holdem", "--db", str(tmp_path / "x.db")])
    )
    assert "play a match first" in named


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sitting_out_during_a_deal_says_when_it_can_be_done(lang: str) -> None:
    state, seat = _draw_step()
    with pytest.raises(IllegalAction) as refused:
        state.check(seat, SitOut())
    assert refused.value.code == "sit_out_during_deal"
    assert explain(refused.value, lang) == t("error.sit_out_during_deal", lang)


def test_french_duel_rules_name_the_french_moves_first() -> None:
    text = get_renderer("duel").input_help("fr")
    for french, english in (("parole", "check"), ("miser", "bet"), ("suivre", "call")):
        assert french in text
        assert english not in text.split("\n")[0], text  # the rules' line: French words only
