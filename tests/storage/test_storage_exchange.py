"""Export → import round trips, idempotent import, and malformed files stored not at all."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import Engine, func, select

from analytics.data import EVENT_COLUMNS, PARTICIPANT_COLUMNS, RESPONSE_COLUMNS
from playtest.storage.db import make_engine, upgrade
from playtest.storage.errors import ImportRejected
from playtest.storage.exchange import (
    RECORD_KINDS,
    export_jsonl,
    export_tables,
    import_jsonl,
    load_study_data,
)
from playtest.storage.models import ALL_TABLES
from tests.storage.helpers import populate


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _row_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            table.__tablename__: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for table in ALL_TABLES
        }


@pytest.fixture
def fresh_sqlite(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    upgrade(engine)
    return engine


def test_export_import_round_trip_is_equal_and_idempotent(
    engine: Engine, fresh_sqlite: Engine, tmp_path: Path
) -> None:
    populate(engine)
    first = tmp_path / "s1.jsonl"
    counts = export_jsonl(engine, "s1", first)
    # umux_lite of the helper is no survey the project has: no survey record to export
    assert counts == {"study": 1, "participant": 3, "assignment": 6, "event": 18, "response": 15,
                      "survey": 0}
    records = _lines(first)
    assert [r["record"] for r in records][:2] == ["study", "participant"]
    event = next(r for r in records if r["record"] == "event")
    assert str(event["at"]).endswith("Z") and len(str(event["at"])) == 24  # ms and zone

    report = import_jsonl(fresh_sqlite, first)
    assert report.added == counts
    # its answers are kept, and the import names and counts them as unscorable
    assert [(u.survey, u.answers, u.testers) for u in report.unscorable] == [
        ("umux_lite", 15, 3)]
    assert "15 answers from 3 testers to survey 'umux_lite'" in report.summary()
    second = tmp_path / "again.jsonl"
    export_jsonl(fresh_sqlite, "s1", second)
    assert _lines(second) == records  # exactly the same records, unknown keys included

    again = import_jsonl(fresh_sqlite, first)
    assert again.added == dict.fromkeys(RECORD_KINDS, 0)
    assert import_jsonl(engine, first).added == dict.fromkeys(RECORD_KINDS, 0)


def test_import_keeps_unknown_keys_and_continues_sessions(engine: Engine, tmp_path: Path) -> None:
    lines = [
        {"record": "study", "study_id": "x", "title": "X", "game": "vapoosh", "rules": "standard",
         "experiments": [], "site": "school-7"},
        {"record": "participant", "study_id": "x", "participant_id": "p1",
         "created_at": "2026-01-01T10:00:00.000+01:00", "consented_at": "2026-01-01T09:00:01.5Z",
         "cohort": 3},
        {"record": "event", "participant_id": "p1", "session_id": "t1", "seq": 1,
         "at": "2026-01-01T09:00:02.123Z", "type": "page", "props": {"page": "play"},
         "device": "tablet"},
        {"record": "response", "participant_id": "p1", "survey": "ueq", "survey_version": "1",
         "phase": "post", "item": "q1", "value": 3, "at": "2026-01-01T09:10:00.000Z"},
    ]  # fmt: skip
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert import_jsonl(engine, path).added["event"] == 1
    out = tmp_path / "out.jsonl"
    export_jsonl(engine, "x", out)
    exported = _lines(out)
    assert exported[0]["site"] == "school-7"
    assert exported[1]["cohort"] == 3
    assert exported[1]["created_at"] == "2026-01-01T09:00:00.000Z"
    assert exported[1]["consented_at"] == "2026-01-01T09:00:01.500Z"
    assert next(r for r in exported if r["record"] == "event")["device"] == "tablet"
    # The imported session continues without a gap when the app logs into it.
    from playtest.storage.events import EventLogger, session_seqs

    EventLogger(engine).log("t1", "p1", "page", {"page": "done"}, "later")
    assert session_seqs(engine, "t1") == [1, 2]


BASE = [
    '{"record":"study","study_id":"b","title":"B","game":"vapoosh","rules":"standard","experiments":[]}',
    '{"record":"participant","study_id":"b","participant_id":"p1","created_at":"2026-01-01T09:00:00.000Z","consented_at":"2026-01-01T09:00:00.000Z"}',
    '{"record":"event","participant_id":"p1","session_id":"s1","seq":1,"at":"2026-01-01T09:00:01.000Z","type":"page","props":{"page":"play"}}',
]
BAD_LINES = {
    "unknown record": ('{"record":"badge","participant_id":"p1"}', "unknown record"),
    "missing key": (
        '{"record":"event","participant_id":"p1","session_id":"s1","seq":2,"type":"page","props":{}}',
        "missing key 'at'",
    ),
    "unknown participant": (
        '{"record":"event","participant_id":"ghost","session_id":"s9","seq":1,"at":"2026-01-01T09:00:01.000Z","type":"page","props":{}}',
        "unknown participant ghost",
    ),
    "no consent with events": (
        '{"record":"participant","study_id":"b","participant_id":"p2","created_at":"2026-01-01T09:00:00.000Z","consented_at":null}\n'
        '{"record":"event","participant_id":"p2","session_id":"s2","seq":1,"at":"2026-01-01T09:00:01.000Z","type":"page","props":{}}',
        "has no consent",
    ),
    "not json": ("{not json", "not valid JSON"),
    "time without zone": (
        '{"record":"event","participant_id":"p1","session_id":"s1","seq":2,"at":"2026-01-01T09:00:01","type":"page","props":{}}',
        "ISO 8601",
    ),
    "seq gap": (
        '{"record":"event","participant_id":"p1","session_id":"s1","seq":3,"at":"2026-01-01T09:00:01.000Z","type":"page","props":{}}',
        "seq 2 is missing",
    ),
    "bad optional value": (
        '{"record":"participant","study_id":"b","participant_id":"p4","created_at":"2026-01-01T09:00:00.000Z","consented_at":null,"games_completed":"many"}',
        "games_completed must be a whole number",
    ),
    "duplicate seq": (
        '{"record":"event","participant_id":"p1","session_id":"s1","seq":1,"at":"2026-01-01T09:00:01.000Z","type":"page","props":{}}',
        "seq 1 of session s1 appears twice",
    ),
    "unknown study": (
        '{"record":"participant","study_id":"nope","participant_id":"p3","created_at":"2026-01-01T09:00:00.000Z","consented_at":"2026-01-01T09:00:00.000Z"}',
        "unknown study nope",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_LINES))
def test_a_bad_line_is_reported_with_its_number_and_nothing_is_stored(
    kind: str, fresh_sqlite: Engine, tmp_path: Path
) -> None:
    bad, message = BAD_LINES[kind]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([*BASE, bad]) + "\n")
    before = _row_counts(fresh_sqlite)
    with pytest.raises(ImportRejected) as caught:
        import_jsonl(fresh_sqlite, path)
    lines = [line for line, _ in caught.value.problems]
    expected_line = len(BASE) + len(bad.splitlines())
    assert expected_line in lines, caught.value.problems
    assert any(message in text for _, text in caught.value.problems), caught.value.problems
    assert _row_counts(fresh_sqlite) == before


def test_malformed_import_into_postgres_stores_nothing(engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([*BASE, BAD_LINES["unknown participant"][0]]) + "\n")
    before = _row_counts(engine)
    with pytest.raises(ImportRejected, match=r"bad.jsonl:4: unknown participant ghost"):
        import_jsonl(engine, path)
    assert _row_counts(engine) == before


def test_load_study_data_has_exchange_columns(engine: Engine) -> None:
    codes = populate(engine)
    data = load_study_data(engine, "s1")
    assert list(data.participants.columns) == PARTICIPANT_COLUMNS
    assert list(data.events.columns) == EVENT_COLUMNS
    assert list(data.responses.columns) == RESPONSE_COLUMNS
    assert sorted(data.participants["participant_id"]) == sorted(codes)
    assert len(data.events) == 18 and str(data.events["at"].dt.tz) == "UTC"
    clicks = data.events[data.events["type"] == "click"]
    assert all(isinstance(props, dict) and "ok" in props for props in clicks["props"])
    assert set(data.assignments["experiment"]) == {"extra_turn_msg", "highlight"}
    assert data.responses.set_index(["participant_id", "item"]).loc[
        (codes[0], "likes"), "value"
    ] == [
        "dice",
        "board",
    ]
    assert set(data.attributes["age_band"]) == {"8-10"}
    assert data.study["experiments"][0]["target"] == "message:extra_turn"


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_tables_export_one_tidy_table_per_kind(engine: Engine, tmp_path: Path, fmt: str) -> None:
    populate(engine)
    files = export_tables(engine, "s1", tmp_path / f"s1.{fmt}", fmt)
    assert {path.name for path in files.values()} == {
        f"s1.{name}.{fmt}"
        for name in ("study", "participants", "assignments", "events", "responses")
    }
    read = pd.read_csv if fmt == "csv" else pd.read_parquet
    events = read(files["event"])
    assert len(events) == 18
    assert {"participant_id", "session_id", "seq", "at", "type", "props", "props.ok"} <= set(
        events.columns
    )
    responses = read(files["response"])
    assert len(responses) == 15
