"""The gate that holds board edits back while the event loop runs late
(`bot.discord.loop_pressure`): on a real loop, made late by blocking it."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.discord.loop_pressure import LoopPressure


def _block(seconds: float) -> None:
    time.sleep(seconds)  # what a loop iteration full of ready work does to the timer


async def _late(pressure: LoopPressure) -> None:
    """Make the loop late once and wait for the timer to see it."""
    asyncio.get_running_loop().call_soon(_block, 0.08)
    while pressure.lag <= pressure.late:
        await asyncio.sleep(0.001)


async def test_while_the_loop_keeps_time_an_edit_goes_at_once() -> None:
    pressure = LoopPressure(period=0.01, late=0.05)  # a busy test machine is not late
    await pressure.calm()  # not started: never holds
    pressure.start()
    try:
        await asyncio.sleep(0.05)
        assert pressure.lag < pressure.late
        started = time.monotonic()
        assert not await pressure.calm()  # not held
        assert time.monotonic() - started < 0.005 and pressure.held == 0
    finally:
        pressure.stop()


async def test_a_late_loop_holds_edits_and_lets_urgent_ones_go_first() -> None:
    pressure = LoopPressure(period=0.01, late=0.02, per_tick=1, most_held=5.0)
    pressure.start()
    order: list[str] = []

    async def edit(name: str, urgent: bool) -> None:
        assert await pressure.calm(urgent)  # held
        order.append(name)

    try:
        await _late(pressure)
        tasks = [asyncio.create_task(edit(f"other {i}", False)) for i in range(3)]
        tasks.append(asyncio.create_task(edit("urgent", True)))
        await asyncio.sleep(0)
        assert pressure.waiting() == 4 and order == []  # held while the loop was late
        await asyncio.wait_for(asyncio.gather(*tasks), 2)
        # One a tick once the loop keeps time again, the person's table first.
        assert order == ["urgent", "other 0", "other 1", "other 2"]
        assert pressure.held == 4 and pressure.waiting() == 0
    finally:
        pressure.stop()


async def test_no_edit_is_held_longer_than_most_held_even_if_the_loop_stays_late() -> None:
    pressure = LoopPressure(period=0.01, late=-1.0, per_tick=0, while_late=0, most_held=0.15)
    pressure.start()  # always late, nothing let go a tick: only the time bound lets it go
    try:
        await _late(pressure)
        started = time.monotonic()
        await asyncio.wait_for(pressure.calm(), 2)
        held = time.monotonic() - started
        assert 0.14 <= held < 1.0, held
    finally:
        pressure.stop()


async def test_a_cancelled_wait_leaves_the_queue_and_stop_lets_every_edit_go() -> None:
    pressure = LoopPressure(period=0.01, late=-1.0, per_tick=0, while_late=0, most_held=60.0)
    pressure.start()
    await _late(pressure)
    gone = asyncio.create_task(pressure.calm())
    kept = asyncio.create_task(pressure.calm(urgent=True))
    await asyncio.sleep(0.03)
    assert pressure.waiting() == 2
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert pressure.waiting() == 1
    pressure.stop()
    await asyncio.wait_for(kept, 1)
    assert pressure.waiting() == 0 and pressure.lag == 0.0
    await pressure.calm()  # stopped: never holds


async def test_held_work_goes_after_the_held_edits_commands_before_ai_moves() -> None:
    pressure = LoopPressure(period=0.01, late=0.02, per_tick=1, most_held=5.0)
    pressure.start()
    order: list[str] = []

    async def edit(name: str) -> None:
        await pressure.calm()
        order.append(name)

    async def work(name: str, command: bool) -> None:
        await pressure.admit(command)
        order.append(name)

    try:
        assert pressure.keeps_time()
        await asyncio.wait_for(pressure.admit(), 0.01)  # a calm loop holds nothing
        await _late(pressure)
        assert not pressure.keeps_time()
        tasks = [
            asyncio.create_task(work("move", False)),
            asyncio.create_task(work("command", True)),
            asyncio.create_task(edit("edit 0")),
            asyncio.create_task(edit("edit 1")),
        ]
        await asyncio.sleep(0)
        assert pressure.waiting() == 2 and pressure.work_waiting() == 2 and order == []
        await asyncio.wait_for(asyncio.gather(*tasks), 2)
        assert order == ["edit 0", "edit 1", "command", "move"]
        assert pressure.work_held == 2 and pressure.work_waiting() == 0
    finally:
        pressure.stop()


async def test_the_work_rate_grows_while_the_loop_keeps_time_and_halves_when_late() -> None:
    pressure = LoopPressure(period=0.01, late=0.02, work_step=1.0, most_work_per_tick=8)
    pressure.start()
    try:
        await _late(pressure)
        held = [asyncio.create_task(pressure.admit()) for _ in range(200)]
        await asyncio.sleep(0.15)  # about fifteen calm ticks: 1, 2, 3 ... up to 8 a tick
        assert pressure.work_rate == 8.0
        assert 0 < sum(t.done() for t in held) < 200
        await _late(pressure)
        assert pressure.work_rate == 4.0  # one late tick halves it
        pressure.stop()
        await asyncio.wait_for(asyncio.gather(*held), 1)
    finally:
        pressure.stop()


async def test_work_past_its_bound_trickles_out_one_a_tick_while_the_loop_stays_late() -> None:
    pressure = LoopPressure(period=0.01, late=-1.0, most_work_held=0.05)
    pressure.start()  # always late: only the bound lets work go
    try:
        await asyncio.sleep(0.03)
        held = [asyncio.create_task(pressure.admit()) for _ in range(5)]
        started = time.monotonic()
        done, _ = await asyncio.wait(held, timeout=1, return_when=asyncio.FIRST_COMPLETED)
        assert time.monotonic() - started >= 0.045  # not before its bound
        assert len(done) == 1  # the first alone: the others follow a tick apart
        await asyncio.wait_for(asyncio.gather(*held), 1)
    finally:
        pressure.stop()


async def test_by_default_a_ten_ms_iteration_makes_the_loop_late_and_holds_work() -> None:
    """An answer crosses four or five loop iterations, so an iteration of 10 ms is already
    too long to let work nobody waits on start (at 1,000 busy tables the gate kept the loop
    at about its bound: at 15 ms the 99th percentile answer took 60-100 ms)."""
    pressure = LoopPressure()
    pressure.start()
    loop = asyncio.get_running_loop()
    try:
        await asyncio.sleep(0.05)
        for _ in range(20):  # a busy test machine may oversleep: until a 8-15 ms lag is seen
            # An iteration about 10 ms long that begins just before a tick is due.
            loop.call_at(pressure._due - 0.0005, _block, 0.0105)
            until = loop.time() + 0.06
            while pressure.lag < 0.008 and loop.time() < until:
                await asyncio.sleep(0.001)
            if 0.008 <= pressure.lag < 0.015:
                break
            await asyncio.sleep(0.05)
        assert 0.008 <= pressure.lag < 0.015  # late now; not by the old bound of 15 ms
        assert not pressure.keeps_time()
        move = asyncio.create_task(pressure.admit())
        await asyncio.sleep(0)
        assert not move.done() and pressure.work_waiting() == 1  # the move waits its turn
        await asyncio.wait_for(move, 1)  # and goes once the loop keeps time again
    finally:
        pressure.stop()
