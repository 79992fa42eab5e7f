"""What a server admin meets, through the bot's own process (`python -m bot`) and the
stand-in: a permission taken away mid-match and given back, backups during play, the
health and metrics endpoint."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path

import aiohttp

from deucebot_dev.discord_standin import FakeDiscord
from storage import open_storage
from tests.e2e.bot_process import ROOT, spawn_bot
from tests.e2e.helpers import boards
from tests.e2e.process_play import check_ledger, env_for, match_over_shown, replay_match, stop


async def test_a_permission_lost_mid_match_in_the_bot_process_loses_nothing(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    bea = standin.add_user("Bea", locale="fr")
    env = env_for(standin, tmp_path, DEUCEBOT_AI_DELAY="0.05", DEUCEBOT_LOG_FORMAT="json")
    bot = await spawn_bot(env, tmp_path)
    try:
        await standin.wait_ready(60)
        await standin.command(ana, "table create", game="draw", deals=2)
        await standin.command(ana, "table start")
        standin.deny_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table leave")  # the AI plays every seat from here
        await standin.wait_for(lambda: standin.forbidden, 30)
        answer = await standin.command(bea, "table status")
        notice = await standin.wait_for(lambda: answer.followups, 10)
        assert notice[0].ephemeral and "Intégrer des liens" in notice[0].content
        assert not match_over_shown(standin)
        standin.allow_bot(standin.channel_id, "embed_links")
        await standin.command(ana, "table status")  # resumes the delivery
        await standin.wait_for(lambda: match_over_shown(standin), 60)
    finally:
        await stop(bot)
    # The logs were JSON lines: one event each, the paused table's with its ids.
    events = [json.loads(line) for line in bot.err().splitlines()]
    assert not [e for e in events if e["level"] in ("ERROR", "CRITICAL")], events
    if sys.platform != "win32":  # the process runs on uvloop (bot.process.event_loop)
        assert any(e["message"] == "event loop: uvloop" for e in events), events[:5]
    paused = [e for e in events if "channel delivery paused" in e["message"]]
    assert paused and paused[0]["level"] == "WARNING", events
    assert (paused[0]["guild"], paused[0]["table"]) == (str(standin.guild_id), "1")
    assert paused[0]["match"].isdigit()
    assert "standin-token" not in bot.err()
    db = tmp_path / "bot.sqlite3"
    await check_ledger(standin, db, await replay_match(db))


async def test_backups_taken_while_a_match_is_played_verify_and_open(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    ana = standin.owner
    db = tmp_path / "bot.sqlite3"
    bot = await spawn_bot(env_for(standin, tmp_path, DEUCEBOT_AI_DELAY="0.1"), tmp_path)
    copies: list[Path] = []
    try:
        await standin.wait_ready(60)
        await standin.command(ana, "table create", game="draw", deals=30)
        await standin.command(ana, "table start")
        await standin.command(ana, "table leave")  # the AI plays on while we copy
        for n in range(3):
            await standin.wait_for(lambda n=n: len(boards(standin)) > 2 * n + 1, 30)  # type: ignore[misc]
            copies.append(tmp_path / f"copy-{n}.sqlite3")
            status, out = await _cli("backup", "--db", str(db), str(copies[-1]))
            assert status == 0 and "verify: every check passed" in out, out
        assert not match_over_shown(standin), "the match ended before the last copy"
    finally:
        await stop(bot)
    seen: list[int] = []
    for copy in copies:
        status, out = await _cli("verify", "--db", str(copy))
        assert status == 0, out
        storage = await open_storage(str(copy))
        try:
            tables = await storage.live_tables()
            match = await storage.current_match(tables[0].id)
            assert match is not None
            seen.append(len(await storage.actions(match.id)))
        finally:
            await storage.close()
    assert seen == sorted(seen) and seen[0] > 0, seen  # each a later moment of the match


async def _cli(*argv: str) -> tuple[int, str]:
    """Run `deucebot ARGV` as its own process; its exit status and output."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        *argv,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return int(proc.returncode or 0), out.decode()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_the_bot_process_serves_health_and_metrics_on_loopback(
    standin: FakeDiscord, tmp_path: Path
) -> None:
    port = _free_port()
    env = env_for(standin, tmp_path, DEUCEBOT_HTTP_PORT=str(port), DEUCEBOT_AI_DELAY="0.05")
    bot = await spawn_bot(env, tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        await standin.wait_ready(60)
        await standin.command(standin.owner, "table create", game="draw", deals=3)
        await standin.command(standin.owner, "table start")
        await standin.command(standin.owner, "table leave")
        await standin.wait_for(lambda: len(boards(standin)) >= 3, 30)
        async with aiohttp.ClientSession() as session:
            for _ in range(100):  # 503 until logged in and ready (guilds received), then 200
                async with session.get(f"{base}/healthz") as answer:
                    health = await answer.json()
                    if answer.status == 200:
                        break
                    assert answer.status == 503 and not health["healthy"], health
                await asyncio.sleep(0.1)
            assert health["healthy"] and health["checks"]["storage"] == "ok", health
            async with session.get(f"{base}/metrics") as answer:
                text = await answer.text()
        assert 'deucebot_live_tables{game="draw"} 1.0' in text
        actions = [line for line in text.splitlines() if line.startswith("deucebot_actions_total")]
        assert actions and float(actions[0].split()[-1]) > 0, actions
    finally:
        await stop(bot)
    assert f"endpoint on http://127.0.0.1:{port}" in bot.err()
    async with aiohttp.ClientSession() as session:
        try:
            async with session.get(f"{base}/healthz"):
                raise AssertionError("the endpoint outlived the process")
        except aiohttp.ClientConnectionError:
            pass
