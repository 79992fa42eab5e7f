"""The `/healthz` storage check (`bot.discord.health`): a read, run at most once per
`STORAGE_EVERY` seconds however many GETs come, its verdict shared."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord import health
from bot.discord.health import STORAGE_EVERY, HealthServer, Probes
from bot.discord.metrics import BotMetrics, Live


class Storage:
    """A storage probe that counts its reads and answers when told (or fails)."""

    def __init__(self) -> None:
        self.reads = 0
        self.answer = asyncio.Event()
        self.answer.set()
        self.error: Exception | None = None

    async def read(self) -> None:
        self.reads += 1
        await self.answer.wait()
        if self.error is not None:
            raise self.error


def server(storage: Storage, now: list[float]) -> HealthServer:
    probes = Probes(lambda: True, storage.read, lambda: 0.0, 60.0)
    metrics = BotMetrics(lambda: Live({}, {}, 0, 0.0))
    return HealthServer(probes, metrics, 0, clock=lambda: now[0])


async def test_concurrent_and_repeated_checks_share_one_read() -> None:
    storage, now = Storage(), [100.0]
    endpoint = server(storage, now)
    storage.answer.clear()
    waiting = [asyncio.create_task(endpoint.checks()) for _ in range(50)]
    await asyncio.sleep(0)
    storage.answer.set()
    verdicts = await asyncio.gather(*waiting)
    assert storage.reads == 1 and all(v["storage"] == "ok" for v in verdicts)
    for _ in range(100):  # within the second: the verdict is reused
        assert (await endpoint.checks())["storage"] == "ok"
    assert storage.reads == endpoint.storage_reads == 1
    now[0] += STORAGE_EVERY
    storage.error = OSError("disk gone")
    assert (await endpoint.checks())["storage"] == "cannot read: OSError"
    assert storage.reads == 2


async def test_a_storage_that_does_not_answer_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(health, "STORAGE_WAIT", 0.01)
    storage, now = Storage(), [0.0]
    storage.answer.clear()  # never answers
    checks = await server(storage, now).checks()
    assert checks == {"gateway": "ok", "storage": "no answer within 0.01 s", "delivery": "ok"}
