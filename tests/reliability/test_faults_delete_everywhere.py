"""``playtest participant delete`` reaches what app processes keep of the tester (issue 25
item 1): the dashboard's cache files (snapshots and page results) and, in a running app
process, its copies in memory (the dashboard's snapshot held per study, the event
logger's codes and input buckets). The delete runs as the designer runs it, a command in
another process; the app process here notices the database's deletion mark and drops
its copies.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from faults_support import ROOT

from playtest import demo, runtime, study_snapshot
from playtest.storage import repository as repo


def _text_of_files(folder: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file())


def test_a_delete_in_another_process_reaches_the_cache_and_the_app_processes_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"sqlite:///{tmp_path / 'playtest.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("PLAYTEST_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    engine = runtime.database()  # this process plays the app process
    demo.generate(engine, 3, seed=4, workers=1)
    code = repo.list_participants(engine, demo.DEMO_STUDY_ID)[0].participant_id
    study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)  # and the pages' results
    cache = tmp_path / "playtest.sqlite.cache"
    assert code.encode() in _text_of_files(cache)  # snapshots and page results hold it
    assert study_snapshot._IN_MEMORY  # this process's copy of the snapshot
    logger = runtime.event_logger()
    logger.study_of(code)
    logger.admit(code)
    assert code in logger._study_of
    later = time.monotonic() + runtime.DELETION_CHECK_S + 1
    runtime._forget_if_deleted(url, engine, now=later)  # the mark as this process saw it

    done = subprocess.run([sys.executable, "-m", "playtest", "participant", "delete", code],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr

    assert not cache.exists() or code.encode() not in _text_of_files(cache)
    # The app process drops its copies at its next look at the database.
    assert runtime._forget_if_deleted(url, engine, now=later + runtime.DELETION_CHECK_S + 1)
    assert code not in logger._study_of
    assert not study_snapshot._IN_MEMORY
    assert logger.limit is not None and code not in logger.limit._buckets
    runtime._database(url).dispose()


def test_a_code_that_starts_with_a_dash_is_deleted_as_pasted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """One code in 64 starts with "-" (``secrets.token_urlsafe``): the command line used
    to take it for an option and refused it."""
    from playtest.cli import main
    from playtest.storage.db import dispose_engines, make_engine, upgrade

    url = f"sqlite:///{tmp_path / 'playtest.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    engine = make_engine(url)
    upgrade(engine)
    repo.create_study(engine, title="Dash", study_id="dash")
    monkeypatch.setattr(repo, "new_participant_code", lambda: "-EiXu0W8ZcmEAQWDWqYfwQ")
    code = repo.create_consented_participant(engine, "dash", {}).participant_id
    assert code.startswith("-")
    assert main(["participant", "delete", code]) == 0, capsys.readouterr().err
    assert repo.get_participant(engine, code) is None
    engine.dispose()
    dispose_engines()
