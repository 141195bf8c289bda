"""A Bricks & Walls study through the dashboard's snapshot: its game's tables (clicks,
walls, removals …) are kept, read back and spliced like the core's, so the pages and
``playtest report`` show what deriving the raw events gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy.engine import Engine

from analytics import derive
from analytics.data import StudyData
from analytics.games.morris import decisions, hesitation, points
from analytics.report import build_report
from playtest import study_snapshot
from playtest.storage.exchange import import_jsonl
from playtest.study_data import load_bundle
from tests.analytics.test_morris_analytics import hand_morris_study

STUDY = "m"


def _lines(data: StudyData, testers: list[str], with_study: bool) -> list[dict[str, Any]]:
    """Exchange records of copies of the hand-made tester T1 named ``testers``."""
    lines: list[dict[str, Any]] = [{"record": "study", **data.study}] if with_study else []
    for number, pid in enumerate(testers):
        at = (pd.Timestamp("2026-03-01T10:00:00Z") + pd.Timedelta(hours=number)).isoformat()
        lines.append({"record": "participant", "study_id": STUDY, "participant_id": pid,
                      "created_at": at, "consented_at": at})
        shift = pd.Timedelta(hours=number)
        for row in data.events.to_dict("records"):
            props = dict(row["props"])
            if pid == "T3" and row["type"] == "click" and props.get("reason") == "walled":
                props["reason"] = "remove_own"  # the testers differ a little
            lines.append({"record": "event", "participant_id": pid,
                          "session_id": f"s-{pid}", "seq": int(row["seq"]),
                          "at": (row["at"] + shift).isoformat(), "type": row["type"],
                          "props": props, "game_id": f"{pid}-{row['game_id']}"})
    return lines


def _import(db: Engine, folder: Path, lines: list[dict[str, Any]], name: str) -> None:
    path = folder / f"{name}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    import_jsonl(db, path)


def _analytics(data: StudyData) -> str:
    report = build_report(data, *_no_scores())
    extra = {"points": points.points_table(data).to_dict("records"),
             "removals": hesitation.removals(data).to_dict("records"),
             "decisions": decisions.decisions(data).to_dict("records")}
    return json.dumps({"report": report, **extra}, sort_keys=True, default=str)


def _no_scores() -> tuple[pd.DataFrame, pd.DataFrame]:
    from analytics.data import empty_quiz, empty_scores

    return empty_scores(), empty_quiz()


def _direct(db: Engine) -> str:
    bundle = load_bundle(db, STUDY)
    derive.prepare(bundle.data)
    return _analytics(bundle.data)


def test_the_snapshot_keeps_the_games_tables(db: Engine, tmp_path: Path) -> None:
    data = hand_morris_study()
    _import(db, tmp_path, _lines(data, ["T1", "T2", "T3", "T4", "T5", "T6", "T7"], True),
            "first")
    built = study_snapshot.load_prepared(db, STUDY)
    read = study_snapshot.load_prepared(db, STUDY)
    assert read.how == "read" and read.bundle.data.events.empty
    assert "props:wall:seat" in derive.prepared_keys(read.bundle.data)
    direct = _direct(db)
    assert _analytics(built.bundle.data) == _analytics(read.bundle.data) == direct
    # and the numbers are there: 7 testers × 2 due removals
    assert len(hesitation.removals(read.bundle.data)) == 14


def test_new_testers_of_the_game_are_spliced_in(db: Engine, tmp_path: Path) -> None:
    data = hand_morris_study()
    everyone = ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"]
    _import(db, tmp_path, _lines(data, everyone[:7], True), "first")
    study_snapshot.load_prepared(db, STUDY)
    _import(db, tmp_path, _lines(data, everyone[7:], False), "more")
    refreshed = study_snapshot.load_prepared(db, STUDY)
    assert refreshed.how == "refreshed" and refreshed.changed == 1
    assert _analytics(refreshed.bundle.data) == _direct(db)
    assert len(hesitation.removals(refreshed.bundle.data)) == 16
