"""One way to answer privately (issue 19, item 1): only `bot.discord.replies` calls
discord.py's ways of answering an interaction, so a deferral, a follow-up or an edit
cannot make a private answer public somewhere else in the code."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.discord

ANSWERING = {"send_message", "defer", "edit_message", "edit_original_response"}
"""discord.py's calls answering an interaction (`response.*`, `edit_original_response`)."""
ALLOWED = {"replies.py"}


def calls_answering(path: Path) -> list[str]:
    """Where `path` answers an interaction itself: ``line: call``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        through = owner.attr if isinstance(owner, ast.Attribute) else ""
        name = node.func.attr
        direct = name == "edit_original_response" or (name in ANSWERING and through == "response")
        if direct or through == "followup":
            found.append(f"{path.name}:{node.lineno}: {through}.{name}")
    return found


def test_only_replies_answers_interactions() -> None:
    root = Path(bot.discord.__file__).parent
    files = [p for p in root.rglob("*.py") if p.name not in ALLOWED]
    assert len(files) > 10
    found = [hit for path in files for hit in calls_answering(path)]
    assert found == []


def test_the_check_sees_a_direct_answer(tmp_path: Path) -> None:
    source = tmp_path / "leaky.py"
    source.write_text(
        "async def f(i):\n"
        "    await i.response.defer()\n"
        "    await i.followup.send('x')\n"
        "    await i.edit_original_response(content='x')\n"
    )
    assert len(calls_answering(source)) == 3
