"""If storing succeeded, the import says so: a failure while refreshing the dashboard's
data after an import is one warning line, exit 0, the data stored (issue 22, item 2).

The failure is real: a study stored before its settings were checked (an experiment whose
``variants`` is a number, as an old version could store) cannot be analysed, so the
refresh after an import into it fails in the analysis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.engine import Engine

from playtest.storage.models import participants
from playtest.study_snapshot import refresh
from tests.generated.cli_runs import import_clean, run_cli

REGRESSIONS = Path(__file__).parent / "regressions"
STUDY = "two-messages"


def _more_testers(source: Path, target: Path) -> None:
    """The source file's testers again under new ids, without the study record (a second
    site's data for a study the database holds)."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["record"] == "study":
            continue
        for key in ("participant_id", "session_id", "game_id"):
            if key in record:
                record[key] = f"{record[key]}-second-site"
        if "game_id" in record.get("props", {}):
            record["props"]["game_id"] = f"{record['props']['game_id']}-second-site"
        lines.append(json.dumps(record))
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _stored_testers(db: Engine) -> int:
    with db.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(participants)
                                .where(participants.c.study_id == STUDY)).scalar_one())


def test_refresh_failure_after_import_is_one_warning(db: Engine, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    import_clean(capsys, REGRESSIONS / "two_messages_one_turn.jsonl")
    broken = {"rules": "standard", "experiments": [
        {"key": "wording", "target": "message:extra_turn", "variants": 5}]}
    with db.begin() as conn:
        conn.execute(text("UPDATE studies SET config = :config WHERE study_id = :study"),
                     {"config": json.dumps(broken), "study": STUDY})
    with pytest.raises(TypeError):  # the premise: refreshing this study really fails
        refresh(db, STUDY)
    second = tmp_path / "second-site.jsonl"
    _more_testers(REGRESSIONS / "two_messages_one_turn.jsonl", second)

    run = run_cli(capsys, "import", str(second))

    assert run.status == 0, run
    assert "added 0 studies, 4 participants" in run.out
    assert "Traceback" not in run.out + run.err
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith(f"playtest: warning: study {STUDY} is stored, but its "
                               "dashboard data could not be refreshed (TypeError")
    assert lines[0].endswith("the next visit of its pages tries again")
    assert _stored_testers(db) == 8
    # the details went to the server log, not the terminal
    log = tmp_path / "playtest-logs" / "app.log"
    assert "TypeError" in log.read_text(encoding="utf-8")
    # stored once: importing the file again adds nothing (and warns again)
    again = run_cli(capsys, "import", str(second))
    assert again.status == 0 and "added 0 studies, 0 participants" in again.out
    assert _stored_testers(db) == 8
