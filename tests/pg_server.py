"""A throwaway PostgreSQL server for tests: Debian's binaries, a temp data dir, a free port.

Reuse from any test folder::

    from tests.pg_server import postgres_url_or_skip   # in a conftest.py

    @pytest.fixture(scope="session")
    def postgres_server_url():
        yield from postgres_url_or_skip()

``PLAYTEST_TEST_POSTGRES_URL`` (a server URL whose user may CREATE DATABASE) skips the
local start. Locally, when no server can be started, the fixture skips with the reason;
under ``CI=true`` it fails instead. ``create_database(server_url)`` makes a fresh empty
database and returns its URL (``drop_database`` removes it).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

# A commit is answered once its WAL is written (synchronous_commit=on, the production
# setting): a test that kills the server still finds every commit it was told of. Only
# fsync (and full-page images, which guard against torn pages after a power cut) are off:
# this server never outlives a crash of the machine.
SERVER_SETTINGS = ("fsync=off", "synchronous_commit=on", "full_page_writes=off",
                   "max_connections=200")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started here (the message says why)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _bin_dir() -> Path:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not candidates:
        found = shutil.which("initdb")
        if found is None:
            raise PostgresUnavailable(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; "
                "apt-get install postgresql)"
            )
        return Path(found).parent
    return Path(candidates[-1]).parent


def _as_user_prefix() -> list[str]:
    """initdb refuses root: run the server as Debian's ``postgres`` user then."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        raise PostgresUnavailable("running as root and there is no runuser to drop to postgres")
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable("running as root and there is no 'postgres' user") from None
    return [runuser, "-u", "postgres", "--"]


class PostgresServer:
    """Start with :meth:`start`, stop with :meth:`stop`; :attr:`url` is the server URL."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.prefix = _as_user_prefix()
        self.root = Path(tempfile.mkdtemp(prefix="playtest-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.prefix, *args], capture_output=True, text=True, check=False, timeout=120
        )

    def start(self) -> None:
        if self.prefix:
            shutil.chown(self.root, user="postgres", group="postgres")
        init = self._run(
            str(self.bin / "initdb"),
            "-D", str(self.data),
            "-U", "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )  # fmt: skip
        if init.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {init.stderr.strip()[-300:]}")
        self.resume()

    def resume(self) -> None:
        """Start the server on its data (again, after :meth:`pause`)."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
            f"{' '.join(f'-c {setting}' for setting in SERVER_SETTINGS)}"
        )
        started = self._run(
            str(self.bin / "pg_ctl"),
            "-D", str(self.data),
            "-o", options,
            "-l", str(self.root / "server.log"),
            "-w",
            "-t", "60",
            "start",
        )  # fmt: skip
        if started.returncode != 0:
            log = (self.root / "server.log").read_text(errors="replace")[-400:]
            raise PostgresUnavailable(f"pg_ctl start failed: {started.stderr.strip()} {log}")

    def pause(self) -> None:
        """Stop the server (the database server is down), keeping its data."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        if self.data.exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def _admin_connect(server_url: str) -> object:
    import psycopg

    return psycopg.connect(server_url, autocommit=True)


def create_database(server_url: str) -> str:
    """A new empty database on the server; returns its URL."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with _admin_connect(server_url) as conn:  # type: ignore[attr-defined]
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = server_url.rpartition("/")
    return f"{base}/{name}"


def drop_database(server_url: str, database_url: str) -> None:
    """Drop the database and the dashboard snapshots the app kept of it (by default in
    ``~/.cache/playtest-lab``, one folder per database URL: every PostgreSQL test left
    one there)."""
    from sqlalchemy import create_engine

    from playtest.study_snapshot import snapshot_folder

    name = database_url.rpartition("/")[2]
    with _admin_connect(server_url) as conn:  # type: ignore[attr-defined]
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    engine = create_engine(database_url)  # only for its URL: never connects
    folder = snapshot_folder(engine)
    engine.dispose()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def postgres_url_or_skip() -> Iterator[str]:
    """Generator for a session fixture: yields a server URL, skips (fails under CI)."""
    import pytest  # here, not above: benchmarks start servers without pytest installed

    given = os.environ.get("PLAYTEST_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    try:
        server = PostgresServer()
        server.start()
    except (PostgresUnavailable, OSError, subprocess.SubprocessError) as exc:
        if in_ci():
            pytest.fail(f"PostgreSQL is required under CI=true: {exc}")
        pytest.skip(f"no PostgreSQL server could be started: {exc}")
    try:
        yield server.url
    finally:
        server.stop()
