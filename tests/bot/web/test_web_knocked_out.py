"""A hold'em player knocked out while the others play on is told so on the page and, on
the local table (`deucebot play --web`), offered Watch and New match, as the terminal's
watch / new; a table on Discord gives only the line. Through the real server and runtime."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.i18n import t
from tests.bot.web.harness import Page, web_table

SEED = 2
"""A deal order where the player, all in at every turn, is knocked out within a few hands."""


async def knocked_out(page: Page) -> dict[str, Any]:
    """Go all in (else call or check) at every turn until the page says the player is out;
    that state."""
    for _ in range(400):
        state = await page.until("state")
        assert state["status"] == "playing", "the match ended with the player in it"
        if state["out"] is not None:
            return state
        if state["to_act"] == state["seat"] and state["controls"]["moves"]:
            moves = state["controls"]["moves"]
            move = next((m for m in moves if m["action"].startswith("allin")), None)
            move = move or next(m for m in moves if m["action"] != "fold")
            await page.ws.send_json({"t": "act", "action": move["action"], "turn": state["n"]})
    raise AssertionError("the player was never knocked out")


async def test_the_local_page_offers_watch_and_a_new_match(tmp_path: Path) -> None:
    async with web_table(tmp_path, "holdem", SEED, app={"restarts": True}) as web:
        page = await web.open()
        out = await knocked_out(page)
        assert out["out"] == {
            "line": t("web.out.line", "en"),
            "watching": t("web.out.watching", "en"),
            "watch": t("web.out.watch", "en"),
            "new": t("web.out.new", "en"),
        }
        match = web.table.match
        assert match is not None
        await page.ws.send_json({"t": "new"})
        fresh = await page.until("state", out=None)
        assert web.table.match is not None and web.table.match.id != match.id
        assert fresh["status"] == "playing" and fresh["seats"][fresh["seat"]]["name"] == "Ann"
        # Fresh stacks: the player has chips again, the others their starting stacks.
        view = web.table.snapshot(fresh["seat"]).view(fresh["seat"])
        assert not any(s.eliminated for s in view.seats), view.seats
        # A second New match (a double click) is refused: the player is in the new match.
        await page.ws.send_json({"t": "new"})
        refused = await page.until("refused")
        assert refused["text"] == "⛔ " + t("error.web.not_out", "en")
        assert web.table.match.id != match.id


async def test_a_table_on_discord_says_only_that_the_player_is_out(tmp_path: Path) -> None:
    async with web_table(tmp_path, "holdem", SEED) as web:
        page = await web.open(lang="fr")
        out = await knocked_out(page)
        assert out["out"] == {"line": t("web.out.discord", "fr"), "watch": None, "new": None}
        match = web.table.match
        await page.ws.send_json({"t": "new"})
        refused = await page.until("refused")
        assert refused["text"] == "⛔ " + t("error.web.bad_message", "fr")
        assert web.table.match == match


async def test_a_player_in_the_match_is_offered_nothing_and_cannot_restart(
    tmp_path: Path,
) -> None:
    async with web_table(tmp_path, "holdem", SEED, app={"restarts": True}) as web:
        page = await web.open()
        state = await page.until("state")
        assert state["out"] is None
        match = web.table.match
        await page.ws.send_json({"t": "new"})
        refused = await page.until("refused")
        assert refused["text"] == "⛔ " + t("error.web.not_out", "en")
        assert web.table.match == match
