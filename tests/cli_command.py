"""The ``playtest`` command run in the test's process against one database, as a user
runs it: ``DATABASE_URL`` names the database, and the command's output is returned."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from playtest.cli import main
from playtest.storage.db import dispose_engines


def run_cli(engine: Engine, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``playtest ARGS`` on ``engine``'s database: (exit status, standard output, standard
    error). The command's own engines are disposed of afterwards, so a SQLite file is not
    held open."""
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    try:
        status = main(list(args))
    finally:
        dispose_engines()
    captured = capsys.readouterr()
    return status, captured.out, captured.err
