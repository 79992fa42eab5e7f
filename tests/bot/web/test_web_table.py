"""The web table served in this process: sign-in, the page's headers, actions through the
runtime exactly once, reconnecting, several tabs, a restart, and no frame ever naming a card
its viewer was not shown."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSServerHandshakeError

from bot.i18n import explain, t
from bot.runtime import errors
from bot.runtime.ai_pool import AiPoolClosed
from bot.web.frames import alt_text
from tests.bot.web.harness import TOKEN, frame_cards, play_deal, web_table

GAMES = ("bigtwo", "holdem", "draw", "duel")


async def test_the_page_and_its_socket_need_a_sign_in(tmp_path: Path) -> None:
    async with web_table(tmp_path, "holdem", 1) as web:
        missing = await web.session.get(web.url("/"))
        assert missing.status == 403
        assert await missing.text() == t("web.auth.none", "en")
        forged = await web.session.get(web.url("/", token="nope", lang="fr"))
        assert forged.status == 403
        assert await forged.text() == t("web.auth.wrong_token", "fr")
        with pytest.raises(WSServerHandshakeError) as refused:
            await web.session.ws_connect(web.url("/ws", token="nope"))
        assert refused.value.status == 403
        page = await web.session.get(web.url("/", token=TOKEN))
        assert page.status == 200
        policy = page.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        # The page's own origin allows its WebSocket (CSP 3): no host is named.
        assert "connect-src 'self';" in policy and "127.0.0.1" not in policy
        assert page.headers["Referrer-Policy"] == "no-referrer"
        html = await page.text()
        # Relative URLs only (a proxy's path prefix keeps working), no inline script.
        assert 'src="static/app.js"' in html and 'href="/' not in html and 'src="/' not in html
        assert "<script>" not in html
        for name in ("app.js", "cards.js", "style.css"):
            assert (await web.session.get(web.url(f"/static/{name}"))).status == 200
        assert (await web.session.get(web.url("/static/..%2Fserver.py"))).status == 404


async def test_a_repeated_click_is_played_once_and_refused_in_discords_words(
    tmp_path: Path,
) -> None:
    async with web_table(tmp_path, "holdem", 4) as web:
        page = await web.open()
        state = await page.until("state")
        while state["to_act"] != state["seat"]:
            state = await page.until("state")
        actions = len(await web.storage.actions(web.table.match.id))  # type: ignore[union-attr]
        call = next(m for m in state["controls"]["moves"] if m["action"] in ("call", "check"))
        for _ in range(2):
            await page.ws.send_json({"t": "act", "action": call["action"], "turn": state["n"]})
        refused = await page.until("refused")
        stale = errors.stale_turn(state["n"], state["n"] + 1)
        assert refused["text"] == "⛔ " + explain(stale, "en")
        await page.until("state")
        played = await web.storage.actions(web.table.match.id)  # type: ignore[union-attr]
        mine = [a for a in played[actions:] if a.seat == state["seat"]]
        assert [a.action for a in mine] == [call["action"]]


async def test_bad_messages_are_refused_and_nothing_changes(tmp_path: Path) -> None:
    async with web_table(tmp_path, "duel", 2) as web:
        page = await web.open(lang="uk")
        state = await page.until("state")
        while state["to_act"] != state["seat"]:
            state = await page.until("state")
        turn = web.table.turn
        await page.ws.send_str("not json")
        assert (await page.until("refused"))["text"] == "⛔ " + t("error.web.bad_message", "uk")
        await page.ws.send_json({"t": "pick", "verb": "lock", "cards": [], "turn": state["n"]})
        assert (await page.until("refused"))["text"] == "⛔ " + t("error.web.no_cards", "uk")
        await page.ws.send_json({"t": "raise", "verb": "raise", "amount": "lots", "turn": 0})
        assert "lots" in (await page.until("refused"))["text"]
        assert web.table.turn == turn


async def test_a_page_that_comes_back_gets_the_lines_it_missed(tmp_path: Path) -> None:
    async with web_table(tmp_path, "bigtwo", 7) as web:
        steady = await web.open()
        leaving = await web.open()
        first = await leaving.until("state")
        await leaving.ws.close()
        state = await play_deal(steady)
        while state["to_act"] != state["seat"]:  # the table then waits for the player
            state = await steady.until("state")
        back = await web.open(since=first["n"])
        state = await back.until("state", n=steady.states()[-1]["n"])
        assert state["fresh"] is False
        assert all(f["fresh"] is False for f in back.frames if f["t"] == "log")
        # Exactly the lines the steady page got after that turn, in the same order.
        assert back.lines(first["n"]) == steady.lines(first["n"])
        assert back.lines() == back.lines(first["n"])
        # Its state is the steady page's (two tabs of one member agree).
        assert {**state, "fresh": None} == {**steady.states()[-1], "fresh": None}


async def test_a_closed_page_leaves_nothing_behind(tmp_path: Path) -> None:
    async with web_table(tmp_path, "holdem", 3) as web:
        pages = [await web.open() for _ in range(3)]
        assert web.front.watchers(web.table.place) == 3
        for page in pages:
            await page.ws.close()
        for _ in range(1000):  # the server's handlers end once they read the close
            if web.front.watchers(web.table.place) == 0:
                break
            await asyncio.sleep(0.01)
        assert web.front.watchers(web.table.place) == 0


async def test_after_a_restart_the_page_resumes_at_the_committed_turn(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    async with web_table(tmp_path, "holdem", 9, db=db) as web:
        page = await web.open()
        state = await page.until("state")
        while state["to_act"] != state["seat"]:
            state = await page.until("state")
        acted = state["n"]
        await page.ws.send_json({"t": "act", "action": "call", "turn": acted})
        state = await page.until("state")
        while state["n"] == acted or state["to_act"] != state["seat"]:
            state = await page.until("state")
        hand = state["hand"]
    async with web_table(tmp_path, "holdem", 9, db=db) as web:
        page = await web.open(since=state["n"])
        again = await page.until("state")
        # The page had that turn: nothing missed, the same committed state.
        assert again["fresh"] is False and again["n"] == state["n"] and again["hand"] == hand
        # A page further behind: the new process has no journal back there, a fresh state.
        behind = await web.open(since=acted - 1)
        assert {**await behind.until("state"), "fresh": False} == again
        assert behind.states()[-1]["fresh"] is True
        move = again["controls"]["moves"][0]
        await page.ws.send_json({"t": "act", "action": move["action"], "turn": again["n"]})
        assert (await page.until("state"))["n"] > again["n"]


@pytest.mark.parametrize("game", GAMES)
async def test_no_frame_names_a_card_its_viewer_was_not_shown(tmp_path: Path, game: str) -> None:
    async with web_table(tmp_path, game, 11) as web:
        watcher = await web.open(watch="1")
        player = await web.open()
        checked = 0

        def check(page_frames: list[dict[str, object]], seat: int | None) -> None:
            nonlocal checked
            for frame in page_frames:
                named = frame_cards(frame)
                leaked = named - web.front.known(seat)
                assert not leaked, f"{frame['t']} frame shows {leaked} to seat {seat}: {frame}"
                checked += len(named)

        # Checked as they arrive: what a seat may know only grows.
        seen = 0
        state = None
        for _ in range(3):
            state = await play_deal(player, state)
            check(player.frames[seen:], 0)
            seen = len(player.frames)
        last = player.states()[-1]["n"]
        while not watcher.states() or watcher.states()[-1]["n"] < last:
            await watcher.receive()
        check(watcher.frames, None)
        assert checked > 20  # the check read cards
        spectator = watcher.states()[-1]
        assert spectator["hand"] == [] and spectator["seat"] is None
        assert spectator["controls"]["moves"] == []


async def test_the_table_region_says_what_the_picture_says(tmp_path: Path) -> None:
    async with web_table(tmp_path, "holdem", 5) as web:
        before = time.time()
        page = await web.open()
        state = await page.until("state")
        after = time.time()
        snapshot = await web.table.committed(0)
        assert snapshot.turn == state["n"]
        # The picture's alt text at the moment the frame was built (it says the seconds left).
        said = {alt_text(snapshot, "en", now) for now in range(int(before), int(after) + 2)}
        assert state["alt"] in said
        assert "Ann" in state["alt"] and "AI 4" in state["alt"]
        # The plates say what the picture draws: each seat's stack and bet; the live
        # region's summary the pot.
        plates = state["picture"]
        view = snapshot.public_view
        for seat, plate in zip(view.seats, plates["seats"], strict=True):
            assert t("pictures.alt.stack", "en", n=seat.stack) in plate["figures"]
            assert (t("pictures.alt.bet", "en", n=seat.bet) in plate["figures"]) == (seat.bet > 0)
        assert f"pot {view.pot_total}" in state["summary"]


async def test_a_raise_of_any_amount_and_auto_pass_go_through_the_runtime(
    tmp_path: Path,
) -> None:
    async with web_table(tmp_path, "holdem", 4) as web:
        page = await web.open()
        state = await page.until("state")
        while state["to_act"] != state["seat"]:
            state = await page.until("state")
        form = state["controls"]["raise"]
        amount = form["low"] + 7
        await page.ws.send_json(
            {"t": "raise", "verb": form["verb"], "amount": str(amount), "turn": state["n"]}
        )
        await page.until("state")
        played = await web.storage.actions(web.table.match.id)  # type: ignore[union-attr]
        mine = [a.action for a in played if a.seat == state["seat"]]
        assert mine == [f"{form['verb']} {amount}"]
    (tmp_path / "b").mkdir()
    async with web_table(tmp_path / "b", "bigtwo", 7) as web:
        page = await web.open()
        state = await page.until("state")
        assert state["autopass"] == {"on": False, "label": "Auto-pass: off"}
        await page.ws.send_json({"t": "autopass", "on": True})
        state = await page.until("state")
        while state["autopass"]["on"] is not True:
            state = await page.until("state")
        assert state["autopass"]["label"] == "Auto-pass: on"
        assert web.table.autopasses("terminal")


async def test_the_match_end_shows_its_result_and_says_it_is_over(tmp_path: Path) -> None:
    async with web_table(tmp_path, "bigtwo", 3, deals=1) as web:
        page = await web.open()
        state = await play_deal(page)
        while state["status"] == "playing":
            state = await page.until("state")
        assert state["turn_text"] == t("web.turn.over", "en")
        assert state["controls"]["moves"] == [] and state["hint"] is None
        results = [f for f in page.frames if f["t"] == "log" and f["result"]]
        assert len(results) == 1
        # The deal's result and the match's end come together, apart from any opening.
        assert not any(line.startswith("Deal 2") for line in results[0]["lines"])
        assert len(results[0]["lines"]) >= 2
        assert state["picture"]["banner"]  # the match summary, as the picture's banner


async def test_a_hint_the_ai_cannot_give_now_is_refused_in_the_viewers_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The AI workers are stopping for a restart (or one died) as the page asks for a hint:
    # the viewer is told there is none this time, in their language, and nothing changes.
    async with web_table(tmp_path, "duel", 2) as web:
        page = await web.open(lang="fr")
        state = await page.until("state")
        while state["to_act"] != state["seat"]:
            state = await page.until("state")

        async def stopping(*args: Any) -> Any:
            raise AiPoolClosed("the AI pool is shut down")

        monkeypatch.setattr(web.manager.ai, "hint", stopping)
        turn = web.table.turn
        await page.ws.send_json({"t": "hint"})
        assert (await page.until("refused"))["text"] == "⛔ " + t("error.hint_unavailable", "fr")
        assert web.table.turn == turn
