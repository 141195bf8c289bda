"""Deleting a tester, and the ``playtest`` command line (subprocess where it matters)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from playtest.cli import main
from playtest.storage import repository as repo
from playtest.storage.db import dispose_engines, make_engine
from playtest.storage.exchange import export_jsonl
from playtest.storage.models import ALL_TABLES
from playtest.storage.privacy import delete_participant
from tests.storage.helpers import populate

PLAYTEST = [sys.executable, "-m", "playtest.cli"]


def _rows_of(engine: Engine, participant_id: str) -> int:
    total = 0
    with engine.connect() as conn:
        for table in ALL_TABLES:
            if "participant_id" in table.__table__.c:  # type: ignore[attr-defined]
                total += conn.execute(
                    select(func.count())
                    .select_from(table)
                    .where(table.__table__.c.participant_id == participant_id)  # type: ignore[attr-defined]
                ).scalar_one()
    return total


def test_delete_participant_removes_everything_of_that_tester(engine: Engine) -> None:
    gone, kept, _ = populate(engine)
    game = repo.latest_unfinished_game(engine, gone)
    assert game is not None and _rows_of(engine, gone) > 0
    deleted = delete_participant(engine, gone)
    assert deleted["events"] == 6 and deleted["participants"] == 1 and deleted["games"] == 1
    assert _rows_of(engine, gone) == 0
    assert repo.load_game(engine, game.game_id) is None
    assert _rows_of(engine, kept) > 0


def _cli(*args: str, cwd: Path, url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [*PLAYTEST, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False,
        timeout=120,
    )  # fmt: skip


def test_help_lists_the_commands(tmp_path: Path) -> None:
    result = _cli("--help", cwd=tmp_path, url="sqlite:///unused.sqlite")
    assert result.returncode == 0
    for name in ("db upgrade", "export", "import", "participant delete", "bench-db"):
        assert f"playtest {name}" in result.stdout


def test_unreachable_database_gives_one_clear_line(tmp_path: Path) -> None:
    for url in (
        f"sqlite:///{tmp_path}/missing-dir/x.sqlite",
        "postgresql://nobody@127.0.0.1:9/none",
    ):
        result = _cli("db", "upgrade", cwd=tmp_path, url=url)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("playtest: error: cannot reach the database")


def test_cli_export_import_and_delete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same commands in-process (``main(argv)``), to keep the suite quick."""

    def run(url: str, *args: str) -> tuple[int, str, str]:
        monkeypatch.setenv("DATABASE_URL", url)
        status = main(list(args))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    source_url = f"sqlite:///{tmp_path}/source.sqlite"
    assert run(source_url, "db", "upgrade")[0] == 0
    engine = make_engine(source_url)
    codes = populate(engine)
    engine.dispose()
    out = tmp_path / "s1.jsonl"
    status, _, err = run(source_url, "export", "--study", "s1", "--out", str(out))
    assert status == 0, err
    text = out.read_text()
    # Nothing identifying: only pseudonymous codes (the user agent stays inside).
    assert "pytest" not in text and codes[0] in text

    target_url = f"sqlite:///{tmp_path}/target.sqlite"
    status, stdout, err = run(target_url, "import", str(out))
    assert status == 0, err
    assert "added 1 study, 3 participants, 6 assignments, 18 events, 15 responses" in stdout
    status, stdout, _ = run(target_url, "import", str(out))
    assert "added 0 studies, 0 participants, 0 assignments, 0 events, 0 responses" in stdout

    bad = tmp_path / "bad.jsonl"
    bad.write_text(text + json.dumps({"record": "mystery"}) + "\n")
    status, _, err = run(f"sqlite:///{tmp_path}/third.sqlite", "import", str(bad))
    assert status == 2 and "Traceback" not in err
    assert f"bad.jsonl:{len(text.splitlines()) + 1}: unknown record 'mystery'" in err

    status, stdout, _ = run(target_url, "participant", "delete", codes[0])
    assert status == 0 and "deleted participant" in stdout
    status, _, err = run(target_url, "participant", "delete", codes[0])
    assert status == 2 and "no participant" in err
    check = make_engine(target_url)
    export_jsonl(check, "s1", tmp_path / "after.jsonl")
    assert codes[0] not in (tmp_path / "after.jsonl").read_text()
    check.dispose()
    dispose_engines()
