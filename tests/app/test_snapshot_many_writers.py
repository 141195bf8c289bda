"""The dashboard's snapshot folder shared by several app processes (issue 12): writers in
separate processes at once never spoil each other's generation, a reader always finds a
complete one, and a writer's leftovers are cleaned up without touching work in progress."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from playtest import demo, study_snapshot
from playtest.storage.db import make_engine, upgrade

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
WRITES = 6
# How long the writers and the reader wait for the start (they are left behind when the
# test fails) and the test's own time limit (pytest-timeout): starting four spawned
# interpreters that import the app took over a minute on the shared 2-core CI machine,
# and a 60 s limit on the start made this test fail there now and then.
HANG_GUARD_S = 900


def _writer(folder: str, snapshot: Any, start: Any, number: int, results: Any) -> None:
    start.wait(HANG_GUARD_S)
    outcomes = []
    for i in range(WRITES):
        marked = study_snapshot._Snapshot(
            marks={**snapshot.marks, f"writer-{number}": (i, 0, 0)}, tables=snapshot.tables,
            responses=snapshot.responses, scores=snapshot.scores, quiz=snapshot.quiz)
        outcomes.append(study_snapshot._write(Path(folder), marked))
    results.put((number, outcomes))


def _reader(folder: str, start: Any, stop: Any, results: Any) -> None:
    """Reads the current snapshot again and again while the writers write."""
    from concurrent.futures import ThreadPoolExecutor

    start.wait(HANG_GUARD_S)
    reads, failures = 0, []
    with ThreadPoolExecutor(max_workers=2) as pool:
        while not stop.is_set():
            try:
                pending = study_snapshot._PendingRead(Path(folder), pool)
                pending.result()
                reads += 1
            except FileNotFoundError as err:
                if "CURRENT" in str(err) and reads == 0:
                    continue  # before the first write: nothing to read yet
                failures.append(repr(err))
            except Exception as err:  # noqa: BLE001 - every failure is the finding
                failures.append(repr(err))
    results.put(("reader", reads, failures))


def _result_of(results: Any, senders: list[Any]) -> Any:
    """The next result on ``results``; a sender that died without sending one fails the
    test at once (a writer's exception used to leave the test waiting for its guard).
    A hang is the test's time limit's to stop."""
    import queue

    while True:
        try:
            return results.get(timeout=1.0)
        except queue.Empty:
            died = [p.exitcode for p in senders if p.exitcode not in (None, 0)]
            assert not died, f"a process died without a result (exit codes {died})"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """The demo study's tester marks and its snapshot (not written anywhere yet), built
    once for both tests: each writes it into a folder of its own."""
    path = tmp_path_factory.mktemp("study") / "study.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    demo.generate(engine, 12, seed=5, workers=1, now=NOW)
    marks = study_snapshot.participant_marks(engine, demo.DEMO_STUDY_ID)
    _bundle, snapshot = study_snapshot._build(engine, demo.DEMO_STUDY_ID, marks)
    engine.dispose()
    return marks, snapshot


@pytest.mark.timeout(HANG_GUARD_S)
def test_writers_in_three_processes_never_spoil_a_generation(
    tmp_path: Path, built: tuple[Any, Any]
) -> None:
    marks, snapshot = built
    folder = tmp_path / "shared-cache" / "study"
    folder.mkdir(parents=True)

    # Forked from this process when nothing else runs in it (a pytest-xdist worker, as
    # under CI; engine.balance does the same): the four then need no interpreter and
    # imports of their own (spawned, each takes ~3 CPU s of imports). With other threads
    # about (pytest-rerunfailures' server in a run without -n), a fork could inherit a
    # lock one of them held: spawned then.
    context = multiprocessing.get_context(
        "fork" if threading.active_count() == 1 else "spawn")
    # The test process is the barrier's fifth party: the writers and the reader start
    # together once all four are up, however long starting them takes.
    start, stop, results = context.Barrier(5), context.Event(), context.Queue()
    writers = [context.Process(target=_writer, args=(str(folder), snapshot, start, n, results))
               for n in range(3)]
    reader = context.Process(target=_reader, args=(str(folder), start, stop, results))
    processes = [*writers, reader]
    for process in processes:
        process.start()
    try:
        start.wait(HANG_GUARD_S)
        written = [_result_of(results, writers) for _ in writers]
        stop.set()
        read = _result_of(results, [reader])
    except BaseException:
        for process in processes:  # nothing of a failed run is left behind
            process.terminate()
        raise
    finally:
        stop.set()
        for process in processes:
            process.join(HANG_GUARD_S)

    assert all(all(outcomes) for _n, outcomes in written), written
    _tag, reads, failures = read
    assert failures == [] and reads > 0
    current = (folder / "CURRENT").read_text(encoding="utf-8").strip()
    meta = json.loads((folder / current / "meta.json").read_text(encoding="utf-8"))
    assert set(meta["marks"]) - set(marks) and current in os.listdir(folder)
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith((".tmp-", "CURRENT."))]
    assert leftovers == []


def test_old_generations_go_after_their_grace_time_work_in_progress_stays(
    tmp_path: Path, built: tuple[Any, Any]
) -> None:
    _marks, snapshot = built
    folder = tmp_path / "cache"
    assert study_snapshot._write(folder, snapshot)
    first = (folder / "CURRENT").read_text(encoding="utf-8")
    in_progress = folder / ".tmp-g1-another-writer"  # another process is writing this
    in_progress.mkdir()
    assert study_snapshot._write(folder, snapshot)
    # The replaced generation stays for readers that began on it.
    assert (folder / first).is_dir() and in_progress.is_dir()
    long_ago = time.time() - study_snapshot.ABANDONED_S - 10
    os.utime(folder / first, (long_ago, long_ago))
    assert study_snapshot._write(folder, snapshot)
    current = (folder / "CURRENT").read_text(encoding="utf-8")
    names = {p.name for p in folder.iterdir()}
    assert first not in names and current in names and in_progress.name in names
    os.utime(in_progress, (long_ago, long_ago))  # its writer died an hour ago
    assert study_snapshot._write(folder, snapshot)
    assert in_progress.name not in {p.name for p in folder.iterdir()}
