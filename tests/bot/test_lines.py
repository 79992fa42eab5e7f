"""`bot.terminal.lines.LineReader`: the lines of a pipe however its bytes arrive, end of
input as None, and a wait for input that a cancellation (Ctrl-C) ends at once."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.terminal.lines import LineReader

TEXT = st.lists(
    # What a pipe can carry as UTF-8: any character but a lone surrogate (category Cs).
    st.text(
        alphabet=st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)),
        max_size=20,
    )
)


class PipeText:
    """The read end of a pipe as a text stream that only offers its descriptor."""

    encoding = "utf-8"

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


async def read_all(reader: LineReader) -> list[str]:
    lines = []
    while (line := await reader.readline()) is not None:
        lines.append(line)
    return lines


@settings(max_examples=60, deadline=None)
@given(TEXT, st.booleans(), st.lists(st.integers(min_value=1, max_value=7), min_size=1))
def test_a_pipe_gives_back_its_lines_however_the_bytes_arrive(
    lines: list[str], final_newline: bool, cuts: list[int]
) -> None:
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    data = text.encode("utf-8")

    async def scenario() -> list[str]:
        read, write = os.pipe()
        loop = asyncio.get_running_loop()

        async def feed() -> None:
            rest, index = data, 0
            while rest:
                size = cuts[index % len(cuts)]
                os.write(write, rest[:size])
                rest, index = rest[size:], index + 1
                await asyncio.sleep(0)
            os.close(write)

        feeding = loop.create_task(feed())
        try:
            return await read_all(LineReader(PipeText(read)))  # type: ignore[arg-type]
        finally:
            await feeding
            os.close(read)

    *complete, last = text.split("\n")
    assert asyncio.run(scenario()) == [part + "\n" for part in complete] + ([last] if last else [])


def test_a_stream_without_a_descriptor_is_read_directly() -> None:
    reader = LineReader(io.StringIO("a\nb"))
    assert asyncio.run(read_all(reader)) == ["a\n", "b"]


def test_waiting_for_input_ends_at_once_when_cancelled() -> None:
    async def scenario() -> float:
        read, write = os.pipe()
        try:
            waiting = asyncio.create_task(LineReader(PipeText(read)).readline())  # type: ignore[arg-type]
            await asyncio.sleep(0.05)
            started = time.monotonic()
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiting
            return time.monotonic() - started
        finally:
            os.close(read)
            os.close(write)

    begun = time.monotonic()
    assert asyncio.run(scenario()) < 1.0
    assert time.monotonic() - begun < 2.0, "asyncio.run waited for a reader thread"
