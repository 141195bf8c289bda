"""Deleting a tester, and the ``playtest`` command line (run as a real subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import Engine, func, select

from playtest.storage import repository as repo
from playtest.storage.db import make_engine
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


def test_cli_export_import_and_delete(tmp_path: Path) -> None:
    source_url = f"sqlite:///{tmp_path}/source.sqlite"
    assert _cli("db", "upgrade", cwd=tmp_path, url=source_url).returncode == 0
    engine = make_engine(source_url)
    codes = populate(engine)
    engine.dispose()
    out = tmp_path / "s1.jsonl"
    exported = _cli("export", "--study", "s1", "--out", str(out), cwd=tmp_path, url=source_url)
    assert exported.returncode == 0, exported.stderr
    text = out.read_text()
    # Nothing identifying: only pseudonymous codes (the user agent stays inside).
    assert "pytest" not in text and codes[0] in text

    target_url = f"sqlite:///{tmp_path}/target.sqlite"
    imported = _cli("import", str(out), cwd=tmp_path, url=target_url)
    assert imported.returncode == 0, imported.stderr
    assert "added 1 study, 3 participants, 6 assignments, 18 events, 15 responses" in imported.stdout
    again = _cli("import", str(out), cwd=tmp_path, url=target_url)
    assert "added 0 studies, 0 participants, 0 assignments, 0 events, 0 responses" in again.stdout

    bad = tmp_path / "bad.jsonl"
    bad.write_text(text + json.dumps({"record": "mystery"}) + "\n")
    rejected = _cli("import", str(bad), cwd=tmp_path, url=f"sqlite:///{tmp_path}/third.sqlite")
    assert rejected.returncode == 2 and "Traceback" not in rejected.stderr
    assert f"bad.jsonl:{len(text.splitlines()) + 1}: unknown record 'mystery'" in rejected.stderr

    deleted = _cli("participant", "delete", codes[0], cwd=tmp_path, url=target_url)
    assert deleted.returncode == 0 and "deleted participant" in deleted.stdout
    missing = _cli("participant", "delete", codes[0], cwd=tmp_path, url=target_url)
    assert missing.returncode == 2 and "no participant" in missing.stderr
    check = make_engine(target_url)
    export_jsonl(check, "s1", tmp_path / "after.jsonl")
    assert codes[0] not in (tmp_path / "after.jsonl").read_text()
    check.dispose()
