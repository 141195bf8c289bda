"""What the dashboard reads in SQL (aggregates on the 0005 index, attributes as JSON
text) equals what pandas counts from the study's records, on a SQLite file and on
PostgreSQL: the numbers a designer sees do not depend on where they were counted."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine

from playtest import demo
from playtest.storage import repository as repo
from playtest.storage.exchange import load_study_data
from playtest.study_snapshot import participant_marks

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_sql_marks_and_fingerprint_equal_pandas_counts_of_a_planted_study(
        engine: Engine) -> None:
    demo.generate(engine, 9, seed=5, workers=1, now=NOW)
    study = demo.DEMO_STUDY_ID
    # a tester who consented and did nothing yet: zero marks, still counted
    idle = repo.create_consented_participant(engine, study, {}, attributes={
        "age_band": "adult", "note": "ünïcode ' \" quotes", "n": 3}).participant_id
    data = load_study_data(engine, study)
    events = data.events.groupby("participant_id").size().to_dict()
    answered: dict[str, int] = {}
    latest: dict[str, int] = {}
    for tester, at in zip(data.responses["participant_id"].tolist(),
                          data.responses["at"].tolist(), strict=True):
        answered[tester] = answered.get(tester, 0) + 1
        latest[tester] = max(latest.get(tester, 0), round(at.timestamp() * 1000))

    def pandas_mark(tester: str) -> tuple[int, int, int]:
        return (int(events.get(tester, 0)), answered.get(tester, 0), latest.get(tester, 0))

    marks = participant_marks(engine, study)
    assert len(marks) == 10 and marks[idle] == (0, 0, 0)
    assert sum(mark[1] for mark in marks.values()) == len(data.responses) > 0
    assert marks == {tester: pandas_mark(tester) for tester in data.participants["participant_id"]}
    assert repo.study_fingerprint(engine, study) == (
        len(data.participants), len(data.events), len(data.responses),
        max(mark[2] for mark in marks.values()))
    # Attributes read as JSON text and decoded once per distinct set: the same values
    # the JSON column type gives, tester by tester.
    stored = {p.participant_id: p.attributes or {} for p in repo.list_participants(engine, study)}
    read = data.attributes.set_index("participant_id")
    for tester, attributes in stored.items():
        assert {key: read.at[tester, key] for key in attributes} == attributes
    assert read.at[idle, "note"] == "ünïcode ' \" quotes"
