"""Reading lines of a text stream (stdin) in asyncio without a thread shutdown waits for.

`asyncio.to_thread(sys.stdin.readline)` leaves a worker thread blocked in `readline`;
`asyncio.run` joins its executor on the way out, so Ctrl-C at a prompt did nothing until
Enter. `LineReader` waits for the file descriptor with `loop.add_reader` instead and reads
what is there with `os.read`: cancelling the wait (Ctrl-C) ends it at once. Streams without
a descriptor (`io.StringIO` in tests) and regular files never block, so they are read
directly; where the loop cannot watch the descriptor (Windows consoles) a daemon thread
reads, which nothing joins.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import os
import stat
import threading
from typing import TextIO


def _watchable_fd(stream: TextIO) -> int | None:
    """The stream's descriptor if reading it may block (a terminal, a pipe), else None."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return None
    except OSError:
        return None
    return fd


class LineReader:
    """`await readline()` returns the next line (with its newline) or None at end of input."""

    def __init__(self, stream: TextIO) -> None:
        """Read from `stream` (decoded with its encoding, UTF-8 if it has none)."""
        self._stream = stream
        self._fd = _watchable_fd(stream)
        self._watchable = True
        self._buffer = b""
        self._eof = False
        encoding = getattr(stream, "encoding", None) or "utf-8"
        self._decoder = codecs.getincrementaldecoder(encoding)("replace")

    @property
    def live(self) -> bool:
        """True when lines come as someone types them (a terminal, a pipe): reading may
        wait. False for a stream read straight through (a file, `io.StringIO`): a script."""
        return self._fd is not None

    async def readline(self) -> str | None:
        """The next line, or None once the input is closed."""
        if self._fd is None:
            text = self._stream.readline()
            return text or None
        while b"\n" not in self._buffer and not self._eof:
            chunk = await self._read(self._fd)
            self._eof = not chunk
            self._buffer += chunk
        if not self._buffer:
            return None
        line, newline, rest = self._buffer.partition(b"\n")
        self._buffer = rest
        return self._decoder.decode(line + newline, final=self._eof and not rest)

    async def _read(self, fd: int) -> bytes:
        """What is available on `fd` once it is readable (b"" at end of input)."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        if self._watchable:
            try:
                loop.add_reader(fd, _settle, ready)
            except (NotImplementedError, OSError, ValueError):
                self._watchable = False
        if not self._watchable:
            return await _in_daemon_thread(loop, fd)
        try:
            await ready
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(fd)
        return os.read(fd, 65536)


def _settle(future: asyncio.Future[None]) -> None:
    """Mark `future` done (the descriptor is readable); later calls do nothing."""
    if not future.done():
        future.set_result(None)


def _in_daemon_thread(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.Future[bytes]:
    """`os.read(fd)` in a daemon thread nobody joins: a blocked read never delays exit."""
    future: asyncio.Future[bytes] = loop.create_future()

    def deliver(data: bytes) -> None:
        if not future.done():
            future.set_result(data)

    def work() -> None:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(deliver, data)

    threading.Thread(target=work, name="stdin-reader", daemon=True).start()
    return future
