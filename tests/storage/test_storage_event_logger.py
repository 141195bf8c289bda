"""The event logger: durable, idempotent, gap-free per session under concurrent writers."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine, func, select

from playtest.storage import repository as repo
from playtest.storage.errors import NotFound
from playtest.storage.events import EventLogger, session_seqs
from playtest.storage.models import EventRow, SessionRow


def _tester(engine: Engine) -> tuple[str, str]:
    repo.create_study(engine, title="t", study_id="s")
    tester = repo.create_consented_participant(engine, "s", {"adult": True})
    return tester.participant_id, repo.start_session(engine, tester.participant_id)


def _event_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(EventRow)).scalar_one()


def test_a_resent_event_is_stored_once(engine: Engine) -> None:
    pid, session = _tester(engine)
    logger = EventLogger(engine)
    first = logger.log(session, pid, "click", {"c": 1, "r": 2, "ok": True}, "evt-1")
    again = logger.log(session, pid, "click", {"c": 1, "r": 2, "ok": True}, "evt-1")
    nxt = logger.log(session, pid, "click", {"c": 3, "r": 2, "ok": False}, "evt-2")
    assert (first, again, nxt) == (1, 1, 2)
    assert _event_count(engine) == 2
    assert session_seqs(engine, session) == [1, 2]


def test_concurrent_writers_get_contiguous_seqs_and_duplicates_collapse(engine: Engine) -> None:
    """Two 'tabs' (threads) share a session and both send every click (a double send)."""
    pid, session = _tester(engine)
    other_session = repo.start_session(engine, pid)
    logger = EventLogger(engine)
    ids = [uuid.uuid4().hex for _ in range(120)]
    start = threading.Barrier(6)
    results: dict[str, set[int]] = {}
    lock = threading.Lock()

    def writer(worker: int) -> None:
        start.wait()
        target = session if worker < 4 else other_session
        # workers 0/1 both send ids[0:60]; 2/3 both send ids[60:120]; 4/5 the other session
        chunk = ids[:60] if worker in (0, 1, 4) else ids[60:]
        prefix = "o-" if worker >= 4 else ""
        for client_id in chunk:
            seq = logger.log(target, pid, "click", {"w": worker}, prefix + client_id)
            with lock:
                results.setdefault(prefix + client_id, set()).add(seq)

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(writer, range(6)))

    # A double-sent event got one seq, whichever thread stored it.
    assert all(len(seqs) == 1 for seqs in results.values())
    assert session_seqs(engine, session) == list(range(1, 121))
    assert session_seqs(engine, other_session) == list(range(1, 121))
    assert _event_count(engine) == 240
    with engine.connect() as conn:
        last = conn.execute(select(SessionRow.last_seq).where(SessionRow.session_id == session))
        assert last.scalar_one() == 120


def test_a_failed_write_leaves_no_half_event_and_no_gap(engine: Engine) -> None:
    pid, session = _tester(engine)
    logger = EventLogger(engine)
    assert logger.log(session, pid, "page", {"page": "play"}, "a") == 1
    with pytest.raises(ValueError, match="not JSON"):
        logger.log(session, pid, "click", {"bad": object()}, "b")  # not JSON
    with pytest.raises(NotFound):
        logger.log("no-such-session", pid, "click", {}, "c")
    assert logger.log(session, pid, "page", {"page": "done"}, "d") == 2
    assert session_seqs(engine, session) == [1, 2]


def test_events_need_a_consented_participant(engine: Engine) -> None:
    _, session = _tester(engine)
    with pytest.raises(NotFound):
        EventLogger(engine).log(session, "unknown-code", "page", {}, "x")


def test_one_bad_event_among_concurrent_ones_loses_nothing_else(engine: Engine) -> None:
    """Events committed in one group: a failing one is undone alone, counters stay gapless."""
    pid, session = _tester(engine)
    logger = EventLogger(engine)
    start = threading.Barrier(4)
    failures: list[Exception] = []

    def writer(worker: int) -> None:
        start.wait()
        for number in range(40):
            target = "missing-session" if worker == 3 and number % 2 else session
            try:
                logger.log(target, pid, "click", {"n": number}, f"{worker}-{number}")
            except NotFound as exc:
                failures.append(exc)

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(writer, range(4)))
    assert len(failures) == 20
    assert session_seqs(engine, session) == list(range(1, 141))
    assert _event_count(engine) == 140
