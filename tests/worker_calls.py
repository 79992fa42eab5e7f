"""Functions the worker-process tests run in a child (`bot.runtime.worker_process`): they
live in an importable module, as every function sent to a worker must."""

from __future__ import annotations

import os
import pickle
import stat
import time
from pathlib import Path

from bot.runtime.worker_process import _HEADER

_kept: list[object] = []


def echo_after(value: object, delay: float) -> object:
    """`value`, after `delay` seconds."""
    time.sleep(delay)
    return value


def fail(message: str) -> None:
    """Raise a ValueError with `message`."""
    raise ValueError(message)


class Unpicklable(Exception):
    """An exception that does not survive a trip through pickle (its init needs two args)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} {second}")


def fail_unpicklably() -> None:
    """Raise an exception that pickle cannot rebuild."""
    raise Unpicklable("no", "way")


def keep(value: object) -> None:
    """Remember `value` in the child (a posted call)."""
    _kept.append(value)


def kept() -> list[object]:
    """What `keep` remembered."""
    return list(_kept)


def length(data: bytes) -> int:
    """How long `data` is."""
    return len(data)


def blob(size: int, marker: str) -> bytes:
    """`size` bytes of a pattern; touch `marker` (a path) just before returning them."""
    data = bytes(range(256)) * (size // 256) + b"!" * (size % 256)
    Path(marker).touch()
    return data


def forge(call_ids: list[int], value: object) -> str:
    """Answer calls `call_ids` (the parent never sent them to this child) with `value`,
    straight onto the pipe, then return normally: what a stale answer would look like."""
    sockets = [fd for fd in range(3, 256) if _is_socket(fd)]
    assert len(sockets) == 1, sockets  # the pipe to the parent is the one socket we hold
    [fd] = sockets
    for call_id in call_ids:
        body = pickle.dumps((True, value, ""))
        os.write(fd, _HEADER.pack(call_id, len(body), False) + body)
    return "forged"


def _is_socket(fd: int) -> bool:
    try:
        return stat.S_ISSOCK(os.stat(fd).st_mode)
    except OSError:
        return False


class Unloadable:
    """An argument that pickles here but raises when the child rebuilds it."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (fail, ("cannot be rebuilt",))
