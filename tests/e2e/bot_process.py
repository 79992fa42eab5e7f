"""A bot process (`python -m bot`) started by a test, its output in files."""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from deucebot_dev.discord_standin import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def bot_env(extra: dict[str, str], cwd: Path) -> dict[str, str]:
    """The environment of a bot process: ours without Discord and Deucebot settings, then
    `extra`; no AI delay, no edit spacing, a database in `cwd` unless `extra` names one."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEUCEBOT_", "DEV_"))
    }
    env.update(extra)
    env["PYTHONPATH"] = str(ROOT)
    env.setdefault("DEUCEBOT_AI_DELAY", "0")
    env.setdefault("DEUCEBOT_BOARD_EDIT_SECONDS", "0")
    env.setdefault("DEUCEBOT_DB", str(cwd / "bot.sqlite3"))
    return env


def shard_env(fake: FakeDiscord, db: str, shard: int, cwd: Path, **extra: str) -> dict[str, str]:
    """`bot_env` for the process of shard `shard` of two on database `db` (global
    commands, AI in the process, a 6-second shard lease), plus `extra` settings."""
    env = {k: v for k, v in fake.env().items() if k != "DEV_GUILD_ID"}  # global commands
    env.update(
        DEUCEBOT_DB=db,
        DEUCEBOT_SHARD_COUNT="2",
        DEUCEBOT_SHARD_IDS=str(shard),
        DEUCEBOT_SHARD_LEASE_SECONDS="6",
        DEUCEBOT_AI_PROCESSES="0",
        **extra,
    )
    return bot_env(env, cwd)


@dataclass
class BotProcess:
    """A `python -m bot` child whose output goes to files (a pipe nobody reads can fill up
    and block the child, and asyncio's `wait()` waits for its pipes to close too)."""

    proc: asyncio.subprocess.Process
    logs: Path

    def out(self) -> str:
        """Everything the process printed on stdout so far."""
        return (self.logs / "stdout").read_text()

    def err(self) -> str:
        """Everything the process printed on stderr so far."""
        return (self.logs / "stderr").read_text()

    async def wait(self, timeout: float) -> int:
        """Wait for the process to exit (killing it after `timeout` s); its exit code."""
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(f"the bot did not exit within {timeout} s") from None


async def spawn_bot(env: dict[str, str], cwd: Path, name: str = "bot") -> BotProcess:
    """Start `python -m bot` in `cwd` with `env`; its output goes to `cwd/<name>-logs`."""
    logs = cwd / f"{name}-logs"
    logs.mkdir()
    with (logs / "stdout").open("wb") as out, (logs / "stderr").open("wb") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
    return BotProcess(proc, logs)


async def ready_or_ended(fake: FakeDiscord, bot: BotProcess, timeout: float = 60) -> None:
    """Wait until the bot's gateway session is ready, or its process has ended: a restart
    delivers what the process before it left first thing, and on a slow machine it may die
    at its `DEUCEBOT_KILL_AT` point before it is connected (the caller checks how it
    ended)."""
    ready = asyncio.ensure_future(fake.wait_ready(timeout))
    ended = asyncio.ensure_future(bot.proc.wait())
    done, pending = await asyncio.wait({ready, ended}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if ready in done:
        ready.result()  # a TimeoutError: neither connected nor ended
