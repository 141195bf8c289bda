"""``playtest report`` reads the plan the dashboard keeps for the study's current state
(issue 12), on SQLite and on a real PostgreSQL: the files it writes are the same, byte
for byte, as when the plan is computed from the study (the HTML's chart ids aside: Plotly
draws a random one per chart on every run); after new data it computes again."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from playtest import demo, page_results, study_snapshot
from playtest.cli import main as cli_main
from playtest.storage.db import dispose_engines

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
#: A chart's element id in Plotly's HTML (a UUID, new on every drawing).
_CHART_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, engine: Engine) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(folder))
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    yield folder
    dispose_engines()


def _report(folder: Path) -> dict[str, bytes]:
    folder.mkdir()
    assert cli_main(["report", "--study", demo.DEMO_STUDY_ID, "--out", str(folder / "plan.md"),
                     "--json", str(folder / "plan.json")]) == 0
    files = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
    assert sorted(files) == ["plan.html", "plan.json", "plan.md"]
    files["plan.html"] = _CHART_ID.sub("<id>", files["plan.html"].decode()).encode()
    return files


def test_report_from_the_kept_plan_writes_the_same_files(
    engine: Engine, cache_dir: Path, tmp_path: Path
) -> None:
    demo.generate(engine, 12, seed=3, workers=1, now=NOW)
    study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)  # as `playtest demo` leaves it
    assert page_results.plan(engine, demo.DEMO_STUDY_ID).kept
    from_kept = _report(tmp_path / "kept")
    study_snapshot.discard(engine)  # nothing kept: the plan is computed from the study
    assert not page_results.plan(engine, demo.DEMO_STUDY_ID).kept
    study_snapshot.discard(engine)
    computed = _report(tmp_path / "computed")
    assert from_kept == computed
    assert b"Funnel" in computed["plan.html"] and b"12" in computed["plan.json"]
    # computing kept the plan again (with the snapshot), but the charts are not all kept
    # yet: read back once the dashboard's pages are
    demo.generate(engine, 2, seed=4, workers=1, now=NOW)  # new data: not current
    assert not page_results.plan(engine, demo.DEMO_STUDY_ID).kept
    study_snapshot.refresh(engine, demo.DEMO_STUDY_ID)
    made = page_results.plan(engine, demo.DEMO_STUDY_ID)
    assert made.kept and made.report["participants"] == 14
