"""A throwaway PostgreSQL server in a temporary folder, for the tests and the benchmark.

`TempPostgres` runs `initdb` and `pg_ctl start` from the installed binaries (Debian's
`postgresql` package puts them in /usr/lib/postgresql/<version>/bin) on a free loopback
port, with its unix socket inside the folder, and removes everything on `stop()`.
PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user
(created by the Debian package) through `runuser`, with the folder handed to that user.

    with TempPostgres() as server:
        url = server.create_database("demo")   # postgresql://postgres@127.0.0.1:PORT/demo

`python -m deucebot_dev.pg_server` starts one and prints its URL, until Ctrl+C or SIGTERM.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

SEARCH = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/opt/homebrew/opt/postgresql*/bin")
"""Where PostgreSQL's server binaries are looked for after the PATH."""


class NoPostgres(RuntimeError):
    """No PostgreSQL server binaries here, or no user to run them as."""


def find_binaries() -> Path:
    """The folder holding `initdb` and `pg_ctl` (PATH first, then the usual places, the
    newest version first); `NoPostgres` saying what is missing otherwise."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    for pattern in SEARCH:
        found = sorted(glob.glob(pattern), key=lambda p: (len(p), p), reverse=True)
        for folder in map(Path, found):
            if (folder / "pg_ctl").exists() and (folder / "initdb").exists():
                return folder
    raise NoPostgres(
        "no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in "
        f"{', '.join(SEARCH)}; install them, e.g. `apt-get install postgresql`"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class TempPostgres:
    """One PostgreSQL server for the life of this object (see the module docstring)."""

    def __init__(self, *, fsync: bool = True, user: str = "postgres") -> None:
        """`fsync=False` trades crash safety for speed (tests); `user` is the system user
        the server runs as when this process is root."""
        self.bin = find_binaries()
        self.fsync = fsync
        self.run_as: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(user)
            except KeyError as error:
                raise NoPostgres(
                    f"running as root and there is no {user!r} user to run PostgreSQL as"
                ) from error
            self.run_as = user
        self.folder: Path | None = None
        self.port = 0

    def _command(self, *args: str) -> list[str]:
        prefix = ["runuser", "-u", self.run_as, "--"] if self.run_as else []
        return [*prefix, *args]

    def _run(self, *args: str) -> None:
        done = subprocess.run(self._command(*args), capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stdout}{done.stderr}")

    def start(self) -> str:
        """initdb, then start on a free port; return the URL of the `postgres` database."""
        # Another user must reach the folder: /tmp, not a private TMPDIR.
        parent = "/tmp" if self.run_as and Path("/tmp").is_dir() else None
        folder = Path(tempfile.mkdtemp(prefix="deucebot-pg-", dir=parent))
        self.folder = folder
        if self.run_as:
            entry = pwd.getpwnam(self.run_as)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        data = folder / "data"
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-instructions",
            "--no-sync",  # a throwaway cluster: no need to flush its files at creation
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -c unix_socket_directories={folder} "
            f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=100 "
            "-c shared_buffers=32MB"
        )
        if not self.fsync:
            options += " -c synchronous_commit=off -c full_page_writes=off"
        for attempt in range(3):  # the port may be taken between probe and start
            self.port = free_port()
            try:
                self._run(
                    str(self.bin / "pg_ctl"),
                    "start",
                    "-D",
                    str(data),
                    "-l",
                    str(folder / "server.log"),
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    f"{options} -p {self.port}",
                )
                break
            except RuntimeError:
                if attempt == 2:
                    log = folder / "server.log"
                    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                    self.stop()
                    raise RuntimeError(f"PostgreSQL did not start: {tail}") from None
                time.sleep(0.2)
        return self.url("postgres")

    def url(self, database: str) -> str:
        """The URL of `database` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database (its name: letters, digits, _) and return its URL."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"database names here are letters, digits and _: {name!r}")
        self._run(
            str(self.bin / "psql") if (self.bin / "psql").exists() else "psql",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-q",
            "-c",
            f'CREATE DATABASE "{name}"',
        )
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (immediately: nothing in it is kept) and remove its folder."""
        if self.folder is None:
            return
        data = self.folder / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(
                self._command(str(self.bin / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate"),
                capture_output=True,
                check=False,
            )
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> TempPostgres:
        """Start on entering the block."""
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Stop on leaving it."""
        self.stop()


def main() -> None:
    """Start a server, print its URL, keep it until Ctrl+C or SIGTERM (then stop it)."""
    # In the background a shell ignores SIGINT for its children: take both back.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with TempPostgres() as server:
        print(server.url("postgres"), flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
