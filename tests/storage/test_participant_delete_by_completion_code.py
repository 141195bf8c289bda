"""``playtest participant delete`` takes the completion code a tester was given, too.

A tester who finished keeps the completion code of the thank-you page, not the code in
their link; a deletion request may quote either. Runs on a SQLite file and on PostgreSQL
(``engine`` fixture): the code is matched in SQL, where the two differ.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest.storage import repository as repo
from playtest.storage.privacy import AmbiguousCode, resolve_code
from tests.cli_command import run_cli
from tests.storage.helpers import populate


def test_delete_by_the_completion_code_removes_that_tester_only(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gone, kept, other = populate(engine)
    shown = repo.set_completion_code(engine, gone)
    repo.set_completion_code(engine, kept)
    # As a person types it from a note: lower case, a space around it.
    status, out, err = run_cli(engine, monkeypatch, capsys, "participant", "delete",
                            f" {shown.lower()} ")
    assert status == 0, err
    assert f"deleted participant {gone} (completion code {shown.lower()})" in out
    assert repo.get_participant(engine, gone) is None
    assert repo.get_participant(engine, kept) is not None
    assert repo.get_participant(engine, other) is not None
    # The tester's own code still works as before.
    status, out, _ = run_cli(engine, monkeypatch, capsys, "participant", "delete", kept)
    assert status == 0 and f"deleted participant {kept}:" in out


def test_a_completion_code_two_testers_share_deletes_nobody(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, _ = populate(engine)
    repo.set_completion_code(engine, first, "ABCD1234")
    repo.set_completion_code(engine, second, "ABCD1234")
    with pytest.raises(AmbiguousCode):
        resolve_code(engine, "abcd1234")
    status, out, err = run_cli(engine, monkeypatch, capsys, "participant", "delete", "ABCD1234")
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "belongs to 2 testers" in lines[0] and "Traceback" not in err
    assert repo.get_participant(engine, first) is not None
    assert repo.get_participant(engine, second) is not None


def test_an_unknown_code_is_one_line_and_deletes_nothing(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    codes = populate(engine)
    for code in ("NOPE0000", "", "   "):
        status, _, err = run_cli(engine, monkeypatch, capsys, "participant", "delete", code)
        assert status == 2 and "no participant" in err and len(err.strip().splitlines()) == 1
    assert all(repo.get_participant(engine, code) is not None for code in codes)


def test_the_installed_command_takes_a_completion_code(tmp_path: Path) -> None:
    """The real ``python -m playtest.cli`` process on a SQLite file."""
    url = f"sqlite:///{tmp_path / 'lab.sqlite'}"
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "-m", "playtest.cli", "db", "upgrade"], env=env,
                   cwd=tmp_path, check=True, capture_output=True, timeout=120)
    from playtest.storage.db import make_engine

    engine = make_engine(url)
    gone, kept, _ = populate(engine)
    shown = repo.set_completion_code(engine, gone)
    engine.dispose()
    result = subprocess.run([sys.executable, "-m", "playtest.cli", "participant", "delete",
                             shown], env=env, cwd=tmp_path, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert f"deleted participant {gone} (completion code {shown})" in result.stdout
    engine = make_engine(url)
    assert repo.get_participant(engine, gone) is None
    assert repo.get_participant(engine, kept) is not None
    engine.dispose()


def test_a_code_that_begins_with_a_dash_is_deleted_after_a_double_dash(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Codes made before new codes began with a letter or digit began with "-" 1 time
    in 32 (a CI run deleted one so and got click's usage text): ``--`` ends the options,
    and the code is deleted like any other."""
    _, kept, _ = populate(engine)
    dashed = "-OUsIp9Q4l5AkQDSIHhUDw"
    participants = repo.participants
    with engine.begin() as conn:  # as an import of such a tester stores it
        conn.execute(participants.insert().values(
            participant_id=dashed, study_id="s1", created_at_ms=0, consented_at_ms=0,
            consent={}, stage="consent", games_completed=0))
    assert repo.get_participant(engine, dashed) is not None
    status, out, err = run_cli(engine, monkeypatch, capsys, "participant", "delete", "--", dashed)
    assert status == 0, err
    assert f"deleted participant {dashed}:" in out
    assert repo.get_participant(engine, dashed) is None
    assert repo.get_participant(engine, kept) is not None


def test_new_codes_begin_with_a_letter_or_digit(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The code generator's draws that begin with "-" or "_" are drawn again."""
    draws = iter(["-OUsIp9Q4l5AkQDSIHhUDw", "_OUsIp9Q4l5AkQDSIHhUDw", "OUsIp9Q4l5AkQDSIHhUDw-"])
    monkeypatch.setattr(repo.secrets, "token_urlsafe", lambda _bytes: next(draws))
    repo.create_study(engine, title="t", study_id="dash")
    assert repo.create_consented_participant(engine, "dash", {}).participant_id == \
        "OUsIp9Q4l5AkQDSIHhUDw-"
