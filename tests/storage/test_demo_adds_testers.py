"""``playtest demo --testers N --study ID`` adds testers to a study that has some.

It used to draw every tester's seed from ``--seed`` alone, so a second run (or a run on
another study) made the same session ids again and the import refused them. Runs on a
SQLite file and on PostgreSQL (``engine`` fixture).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select

from playtest import demo, services
from playtest.cli import main
from playtest.storage import repository as repo
from playtest.storage.db import dispose_engines
from playtest.storage.models import assignments, events, participants
from playtest.storage.privacy import delete_participant
from playtest.study_config import StudyConfig


def _cli(engine: Engine, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    try:
        status = main(list(args))
    finally:
        dispose_engines()
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _participants(engine: Engine, study_id: str) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(select(participants.c.participant_id)
                                 .where(participants.c.study_id == study_id)).scalars())


def _arms(engine: Engine, study_id: str) -> dict[str, Counter[str]]:
    with engine.connect() as conn:
        rows = conn.execute(select(assignments.c.experiment, assignments.c.variant)
                            .where(assignments.c.study_id == study_id)).all()
    arms: dict[str, Counter[str]] = {}
    for experiment, variant in rows:
        arms.setdefault(experiment, Counter())[variant] += 1
    return arms


def test_a_second_demo_run_adds_testers_to_the_same_study(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: object,
) -> None:
    monkeypatch.chdir(str(tmp_path))
    status, out, err = _cli(engine, monkeypatch, capsys, "demo", "--testers", "5")
    assert status == 0, err
    # The same seed again, on the same study: new testers, not a refused import.
    status, out, err = _cli(engine, monkeypatch, capsys,
                            "demo", "--testers", "3", "--study", "demo")
    assert status == 0, err
    assert "added 0 studies, 3 participants" in out
    status, out, err = _cli(engine, monkeypatch, capsys,
                            "demo", "--testers", "3", "--study", "demo", "--seed", "1")
    assert status == 0, err
    codes = _participants(engine, "demo")
    assert len(codes) == len(set(codes)) == 11
    with engine.connect() as conn:
        sessions = conn.execute(select(events.c.session_id, events.c.participant_id)
                                .distinct()).all()
    owners = Counter(session for session, _ in sessions)
    assert all(n == 1 for n in owners.values()), "a session is shared by two testers"
    # The experiments stay balanced over all 11 testers (6/5), not per run (3/2 + 2/1 …).
    for counts in _arms(engine, "demo").values():
        assert sum(counts.values()) == 11 and max(counts.values()) - min(counts.values()) <= 1


def test_two_studies_filled_with_the_same_seed_do_not_collide(engine: Engine) -> None:
    demo.generate(engine, 4, seed=3, workers=1)
    pilot = services.create_study(engine, title="Pilot", study_id="pilot",
                                  config=StudyConfig(audience="adults"))
    report = demo.generate(engine, 4, seed=3, study=pilot, workers=1)
    assert report.added["participant"] == 4
    assert not set(_participants(engine, "demo")) & set(_participants(engine, "pilot"))


def test_testers_added_after_a_deletion_take_new_places_and_arrive_in_the_past(
    engine: Engine,
) -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    demo.generate(engine, 4, seed=5, workers=1, now=now)
    first = sorted(_participants(engine, "demo"))
    delete_participant(engine, first[1])  # the count drops to 3: place 3 is still taken
    demo.generate(engine, 2, seed=5, workers=1, now=now)
    codes = sorted(_participants(engine, "demo"))
    assert len(codes) == 5 and first[1] not in codes
    assert [code.split("-")[1] for code in codes[-2:]] == ["000004", "000005"]
    for code in codes:
        participant = repo.get_participant(engine, code)
        assert participant is not None and participant.created_at.replace(tzinfo=UTC) < now


def test_a_demo_run_on_a_study_of_a_game_without_simulated_testers_says_so(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: object,
) -> None:
    from playtest.demo import ensure_game_demo_studies

    monkeypatch.chdir(str(tmp_path))
    other = ensure_game_demo_studies(engine)[0]
    status, out, err = _cli(engine, monkeypatch, capsys,
                            "demo", "--testers", "3", "--study", other.study_id)
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert f"study {other.study_id} plays" in err and "simulated testers exist only" in err
    assert _participants(engine, other.study_id) == []
