"""The dashboard snapshot on both databases: built, refreshed by tester, same analytics."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from analytics import derive
from analytics.report import build_report
from playtest import demo, study_snapshot
from playtest.study_data import load_bundle

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _report_direct(engine: Engine) -> str:
    bundle = load_bundle(engine, demo.DEMO_STUDY_ID)
    derive.prepare(bundle.data)
    return json.dumps(build_report(bundle.data, bundle.scores, bundle.quiz), sort_keys=True,
                      default=str)


def test_snapshot_refresh_matches_a_full_derivation(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAYTEST_CACHE_DIR", str(tmp_path / "cache"))
    demo.generate(engine, 12, seed=11, workers=1, now=NOW)
    built = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID)
    assert (built.how, built.written) == ("built", True)
    assert any((tmp_path / "cache").rglob("turns.parquet"))
    demo.generate(engine, 2, seed=12, workers=1, now=NOW)
    refreshed = study_snapshot.load_prepared(engine, demo.DEMO_STUDY_ID)
    assert (refreshed.how, refreshed.changed) == ("refreshed", 2)
    b = refreshed.bundle
    via_snapshot = json.dumps(build_report(b.data, b.scores, b.quiz), sort_keys=True,
                              default=str)
    assert via_snapshot == _report_direct(engine)
