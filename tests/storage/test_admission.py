"""Admission at consent, on a SQLite file and on PostgreSQL (``engine`` fixture): the
quota's last place under real concurrent connections, one tester per panel id, places
counted with the one definition of completed, arms balanced among completers."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from playtest.storage import admission
from playtest.storage import repository as repo
from playtest.storage.admission import PanelIds, Quota, StudyFull
from playtest.storage.allocation import RULE
from playtest.storage.db import make_engine
from playtest.storage.events import EventLogger
from playtest.storage.models import assignments, panel_ids, participants
from playtest.storage.places import arm_tallies, count_completed, places_taken
from playtest.storage.timeutil import now_ms

HOUR = 3_600_000


def _url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


def _together(engine: Engine, calls: int, work: Callable[[Engine], Any]) -> list[Any]:
    """``work`` run by ``calls`` threads at once, each on its own engine (its own
    connections; on SQLite, no lock shared inside this process): what each returned or
    raised."""
    engines = [make_engine(_url(engine)) for _ in range(calls)]
    start = threading.Barrier(calls)

    def one(own: Engine) -> Any:
        start.wait()
        try:
            return work(own)
        except Exception as exc:  # noqa: BLE001 - each outcome is asserted by the caller
            return exc

    try:
        with ThreadPoolExecutor(max_workers=calls) as pool:
            return list(pool.map(one, engines))
    finally:
        for own in engines:
            own.dispose()


def _complete(engine: Engine, code: str, logger: EventLogger) -> None:
    """The tester reaches the thank-you page (a ``done`` page event: completed)."""
    session = repo.start_session(engine, code)
    logger.log(session, code, "page", {"page": "done"}, f"{session}:page:done")


@pytest.mark.parametrize("rounds", [4])
def test_two_arrivals_for_the_last_place_let_one_in(engine: Engine, rounds: int) -> None:
    repo.create_study(engine, title="Quota", study_id="q")
    repo.create_consented_participant(engine, "q", {})
    for place in range(1, rounds + 1):
        quota = Quota(completes=place + 1, hold_ms=HOUR)
        # `place` places are taken; six arrive at once for the last one.
        outcomes = _together(engine, 6, lambda own, place=place, quota=quota: admission.admit(
            own, "q", {"round": place}, panel=None, quota=quota))
        admitted = [o for o in outcomes if isinstance(o, admission.Admission)]
        assert len(admitted) == 1, outcomes
        assert all(isinstance(o, StudyFull) for o in outcomes if o not in admitted), outcomes
        with engine.connect() as conn:
            assert places_taken(conn, "q", now_ms=now_ms(), hold_ms=HOUR) == place + 1


def test_one_panel_id_arriving_twice_at_once_is_one_tester(engine: Engine) -> None:
    repo.create_study(engine, title="Panel", study_id="p")
    ids = PanelIds("prolific", "5f1e2d3c4b5a6978a1b2c3d4", "st", "se")
    outcomes = _together(engine, 6, lambda own: admission.admit(
        own, "p", {}, panel=ids, quota=None))
    assert all(isinstance(o, admission.Admission) for o in outcomes), outcomes
    assert len({o.participant.participant_id for o in outcomes}) == 1
    assert sorted(o.resumed for o in outcomes) == [False] + [True] * 5
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(participants)).scalar_one() == 1
        assert conn.execute(select(func.count()).select_from(panel_ids)).scalar_one() == 1


def test_the_same_panel_id_in_two_studies_is_two_testers(engine: Engine) -> None:
    for study in ("a", "b"):
        repo.create_study(engine, title=study, study_id=study)
    ids = PanelIds("generic", "W123")
    first = admission.admit(engine, "a", {}, panel=ids, quota=None)
    second = admission.admit(engine, "b", {}, panel=ids, quota=None)
    assert first.participant.participant_id != second.participant.participant_id
    with pytest.raises(admission.AmbiguousPanelId, match="--study"):
        admission.participant_of_panel_id(engine, "W123")
    assert admission.participant_of_panel_id(engine, "W123", "b") == \
        second.participant.participant_id


def test_a_place_is_held_by_completers_and_testers_in_progress_only(engine: Engine) -> None:
    repo.create_study(engine, title="Places", study_id="s")
    logger = EventLogger(engine)
    old = now_ms() - 2 * HOUR
    done_late = repo.create_consented_participant(engine, "s", {}, at=old).participant_id
    repo.create_consented_participant(engine, "s", {}, at=old)  # dropped out
    done_now = repo.create_consented_participant(engine, "s", {}).participant_id
    repo.create_consented_participant(engine, "s", {})  # in progress
    for code in (done_late, done_now):
        _complete(engine, code, logger)
    with engine.begin() as conn:  # a stage an import may set without the page event
        conn.execute(participants.update().where(participants.c.participant_id != done_now)
                     .where(participants.c.consented_at_ms == old).values(stage="done"))
    with engine.connect() as conn:
        assert count_completed(conn, "s") == 2 == repo.study_counts(engine, "s").completed
        assert places_taken(conn, "s", now_ms=now_ms(), hold_ms=HOUR) == 3
        assert places_taken(conn, "s", now_ms=now_ms(), hold_ms=3 * HOUR) == 4
    with pytest.raises(StudyFull):
        admission.admit(engine, "s", {}, panel=None, quota=Quota(3, HOUR))
    assert admission.admit(engine, "s", {}, panel=None, quota=Quota(4, HOUR)).participant


def test_arms_are_balanced_among_completers_and_each_choice_is_logged(engine: Engine) -> None:
    """Arm A's testers all finish, arm B's all drop out: the new testers go to B until
    the expected completers are even, and each assignment stores what it saw."""
    repo.create_study(engine, title="Arms", study_id="x")
    logger = EventLogger(engine)
    old = now_ms() - 2 * HOUR
    for arm, finished in (("A", True), ("A", True), ("B", False), ("B", False)):
        code = repo.create_consented_participant(engine, "x", {}, at=old).participant_id
        with engine.begin() as conn:
            conn.execute(assignments.insert().values(
                participant_id=code, experiment="w", study_id="x", variant=arm, at_ms=old))
        if finished:
            _complete(engine, code, logger)
    with engine.connect() as conn:
        tallies = arm_tallies(conn, "x", "w", now_ms=now_ms(), hold_ms=HOUR)
    assert {v: (t.completed, t.in_progress, t.dropped) for v, t in tallies.items()} == {
        "A": (2, 0, 0), "B": (0, 0, 2)}
    chosen = []
    for _ in range(3):
        code = repo.create_consented_participant(engine, "x", {}).participant_id
        chosen.append(repo.assign_balanced(engine, "x", code, "w", ["A", "B"]))
    # Expected completers: A 2; B 0, then 0.5 × in progress (B's rate shrunk to the
    # study's 1/2 → 0.5 × 2/4 … ): B until it passes A.
    assert chosen == ["B", "B", "B"]
    with engine.connect() as conn:
        logged = conn.execute(select(assignments.c.extra).where(
            assignments.c.participant_id == code)).scalar_one()
    assert logged["allocation"]["rule"] == RULE
    assert logged["allocation"]["tallies"] == {"A": [2, 0, 0], "B": [0, 2, 2]}


def test_the_tie_break_is_the_same_for_the_same_tester(engine: Engine) -> None:
    """Deterministic: two databases in the same state give a tester the same arm."""
    repo.create_study(engine, title="Tie", study_id="t")
    codes = [uuid.uuid4().hex[:20] for _ in range(12)]
    first = []
    for code in codes:
        with engine.begin() as conn:
            conn.execute(participants.insert().values(
                participant_id=code, study_id="t", created_at_ms=now_ms(),
                consented_at_ms=now_ms(), consent={}, stage="consent", games_completed=0))
        first.append(repo.assign_balanced(engine, "t", code, "w", ["A", "B", "C"]))
        with engine.begin() as conn:  # undo: every tester meets the same empty study
            conn.execute(assignments.delete())
    again = []
    for code in codes:
        again.append(repo.assign_balanced(engine, "t", code, "w", ["A", "B", "C"]))
        with engine.begin() as conn:
            conn.execute(assignments.delete())
    assert first == again
    assert len(Counter(first)) > 1  # the hash spreads testers over the arms
