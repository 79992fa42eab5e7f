"""Opening a SQLite database file safely: path checks, the one-writer process lock, and
SQLite's errors at opening as `CannotOpenDatabase` (one line saying what to do).

`storage.sqlite.SqliteStorage.open` uses these before and while it connects, so a bad
`--db` or `DEUCEBOT_DB` is refused before anything is written, with a message instead
of a traceback.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
import sys
from pathlib import Path

from storage.base import CannotOpenDatabase

if sys.platform != "win32":
    import fcntl

MEMORY = ":memory:"


def is_memory(path: str) -> bool:
    """True for SQLite's in-memory databases (":memory:" or ""): nothing outlives the process."""
    return path in ("", MEMORY) or path.startswith("file::memory:")


def check_path(path: str, *, read_only: bool) -> None:
    """Refuse a path SQLite cannot use as a database file, before connecting: a folder, a
    device, a missing file (read-only), a missing or read-only folder, a read-only file."""
    where = Path(path)
    if where.is_dir():
        raise CannotOpenDatabase(
            f"{path} is a folder, not a database file: give a file name, "
            f"e.g. {where / 'deucebot.sqlite3'}"
        )
    if where.exists() and not where.is_file():
        raise CannotOpenDatabase(
            f"{path} is not a regular file (a device, a pipe or a socket): give a database file"
        )
    if read_only:
        if not where.exists():
            raise CannotOpenDatabase(f"no database at {path}: play a match first")
        return
    folder = where.parent
    if not folder.is_dir():
        raise CannotOpenDatabase(
            f"the folder {folder} does not exist: create it (mkdir -p {shlex.quote(str(folder))}) "
            "or give another path"
        )
    if where.exists() and not os.access(where, os.R_OK | os.W_OK):
        raise read_only_file(path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CannotOpenDatabase(
            f"the folder {folder} is read-only, and SQLite writes files beside the database "
            "(-wal, -shm, -lock): make it writable or put the database elsewhere"
        )


def read_only_file(path: str) -> CannotOpenDatabase:
    """The error for a database file this process may not write."""
    return CannotOpenDatabase(
        f"{path} is read-only: make it writable (chmod u+rw) or give another database file"
    )


def cannot_open(error: sqlite3.Error, path: str, busy_seconds: float) -> CannotOpenDatabase:
    """SQLite's error while opening `path`, as one line saying what to do."""
    name = getattr(error, "sqlite_errorname", "") or ""
    if name == "SQLITE_NOTADB":
        return CannotOpenDatabase(
            f"{path} is not a SQLite database (it holds other data): give another database file"
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return CannotOpenDatabase(
            f"{path} is locked by another program (waited {busy_seconds:g} s): close the "
            "program using it, then try again"
        )
    if name.startswith("SQLITE_READONLY"):
        return read_only_file(path)
    if name.startswith("SQLITE_CANTOPEN"):
        return CannotOpenDatabase(
            f"cannot open {path}: check that it and its folder exist and are readable and writable"
        )
    if name.startswith("SQLITE_IOERR") or name == "SQLITE_FULL":
        return CannotOpenDatabase(
            f"cannot write {path} ({error}): check the disk (space, permissions) or give "
            "another database file"
        )
    return CannotOpenDatabase(f"cannot use {path} ({error}): give another database file")


def lock_path(path: str) -> Path:
    """The lock file beside the database `path`."""
    return Path(f"{path}-lock")


def holder() -> str:
    """Who this process is, as written in the lock file: pid and command line as typed
    ("deucebot play bigtwo ...", "python -m bot")."""
    typed = getattr(sys, "orig_argv", [])
    if typed[1:2] == ["-m"]:
        words = [Path(typed[0]).name, *typed[1:]]
    else:
        words = [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv else ["python"]
    return f"pid {os.getpid()}: {shlex.join(words)}"


class ProcessLock:
    """An exclusive lock on a database for as long as this process has it open.

    `fcntl.flock` on a file beside it (`<db>-lock`) holding the holder's pid and command;
    the holder removes the file when it closes the database. The kernel drops the lock when
    the process ends, however it ends (kill -9 included), so a left-over file never blocks
    anyone. Not on Windows (there, no lock is taken)."""

    def __init__(self, fd: int | None, path: Path | None) -> None:
        """Wrap the locked file descriptor of the lock file `path` (None: no lock)."""
        self._fd = fd
        self._path = path

    @classmethod
    def acquire(cls, path: str) -> ProcessLock:
        """Take the lock of the database `path`; `CannotOpenDatabase` naming the holder if
        another process (or another open storage in this one) has it."""
        if sys.platform == "win32":
            return cls(None, None)
        where = lock_path(path)
        while True:
            try:
                fd = os.open(where, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as error:
                raise CannotOpenDatabase(
                    f"cannot create the lock file {where} ({error.strerror}): make its folder "
                    "writable or put the database elsewhere"
                ) from error
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                who = os.read(fd, 4096).decode("utf-8", "replace").strip() or "another process"
                os.close(fd)
                raise CannotOpenDatabase(
                    f"{path} is in use by another Deucebot ({who}): stop it first, or give "
                    "another database file"
                ) from None
            if _same_file(fd, where):
                break
            os.close(fd)  # the holder removed it as we opened it: lock the new one
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder().encode("utf-8") + b"\n", 0)
        return cls(fd, where)

    def release(self) -> None:
        """Remove the lock file and drop the lock (closing the file releases it)."""
        if self._fd is not None:
            if self._path is not None:
                with contextlib.suppress(OSError):
                    self._path.unlink()
            os.close(self._fd)
            self._fd = None


def _same_file(fd: int, path: Path) -> bool:
    """Whether `fd` is still the file at `path` (not one removed and replaced meanwhile)."""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False
