"""Storage benchmarks: prints numbers, asserts nothing.

    python -m benchmarks.bench_storage [--dir D] [--url URL] [--events N] [--only latency ...]

(``playtest bench-db`` forwards here from a source checkout.)


* ``latency`` — one click event (insert + commit) through ``EventLogger.log``: p50/p99
  with 16 writer threads at once (closed loop: every thread logs again as soon as its
  last click is stored), and with one thread.
* ``writers`` — 50 concurrent writers × 1,000 events (two writers per session, like two
  tabs, each re-sending every tenth event): stored exactly once? seqs contiguous? errors?
* ``import`` — ``import_jsonl`` of a generated file with 1,000,000 events, then again
  (idempotent: adds nothing).
* ``load`` — ``load_study_data`` of the imported study.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine, func, select

from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger
from playtest.storage.models import EventRow
from playtest.storage.timeutil import iso_from_ms

CLICK = {"seat": 0, "c": 4, "r": 7, "ok": True, "expected": 24, "clicked": 24, "ms": 812}


def _testers(engine: Engine, study_id: str, count: int) -> list[tuple[str, str]]:
    repo.create_study(engine, title="bench", study_id=study_id)
    pairs = []
    for _ in range(count):
        pid = repo.create_consented_participant(engine, study_id, {"bench": True}).participant_id
        pairs.append((pid, repo.start_session(engine, pid)))
    return pairs


def _run_threads(count: int, target: Callable[[int], None]) -> float:
    start = threading.Barrier(count + 1)

    def body(index: int) -> None:
        start.wait()
        target(index)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began


def bench_latency(
    engine: Engine,
    threads: int = 16,
    per_thread: int = 300,
    mean_gap_ms: float = 0.0,
    study_id: str = "bench-latency",
) -> dict[str, float]:
    """p50/p99 of ``log``: closed loop (``mean_gap_ms=0``) or with random gaps between a
    thread's clicks (exponential, mean ``mean_gap_ms``: testers clicking at once)."""
    logger = EventLogger(engine)
    pairs = _testers(engine, study_id, threads)
    latencies: list[list[float]] = [[] for _ in range(threads)]
    errors: list[str] = []

    def writer(index: int) -> None:
        pid, session = pairs[index]
        mine = latencies[index]
        gaps = random.Random(index)
        for _ in range(per_thread):
            if mean_gap_ms:
                time.sleep(gaps.expovariate(1000.0 / mean_gap_ms))
            began = time.perf_counter()
            try:
                logger.log(session, pid, "click", CLICK, uuid.uuid4().hex)
            except Exception as exc:  # counted, not raised: this is a measurement
                errors.append(repr(exc))
            mine.append(time.perf_counter() - began)

    elapsed = _run_threads(threads, writer)
    flat = [value * 1000 for values in latencies for value in values]
    single: list[float] = []
    pid, session = pairs[0]
    for _ in range(500):
        began = time.perf_counter()
        logger.log(session, pid, "click", CLICK, uuid.uuid4().hex)
        single.append((time.perf_counter() - began) * 1000)
    return {
        "threads": threads,
        "mean_gap_ms": mean_gap_ms,
        "events": len(flat),
        "events_per_s": len(flat) / elapsed,
        "p50_ms": statistics.median(flat),
        "p99_ms": float(np.quantile(flat, 0.99)),
        "max_ms": max(flat),
        "errors": len(errors),
        "single_thread_p50_ms": statistics.median(single),
        "single_thread_p99_ms": float(np.quantile(single, 0.99)),
    }


def bench_writers(engine: Engine, writers: int = 50, per_writer: int = 1000) -> dict[str, Any]:
    logger = EventLogger(engine)
    pairs = _testers(engine, "bench-writers", writers // 2)
    errors: list[str] = []
    sent = [0] * writers

    def writer(index: int) -> None:
        pid, session = pairs[index // 2]
        for number in range(per_writer):
            client_id = f"w{index}-{number}"
            try:
                logger.log(session, pid, "click", {**CLICK, "n": number}, client_id)
                sent[index] += 1
                if number % 10 == 0:  # a retried click: must not be stored twice
                    logger.log(session, pid, "click", {**CLICK, "n": number}, client_id)
            except Exception as exc:
                errors.append(repr(exc))

    elapsed = _run_threads(writers, writer)
    events = EventRow.__table__.c  # type: ignore[attr-defined]
    with engine.connect() as conn:
        stored = conn.execute(
            select(func.count()).where(events.study_id == "bench-writers")
        ).scalar_one()
        distinct_ids = conn.execute(
            select(func.count(func.distinct(events.client_event_id))).where(
                events.study_id == "bench-writers"
            )
        ).scalar_one()
        per_session = conn.execute(
            select(events.session_id, func.count(), func.min(events.seq), func.max(events.seq))
            .where(events.study_id == "bench-writers")
            .group_by(events.session_id)
        ).all()
    contiguous = all(low == 1 and high == count for _, count, low, high in per_session)
    locked = sum("database is locked" in error for error in errors)
    return {
        "writers": writers,
        "events_expected": writers * per_writer,
        "events_stored": stored,
        "stored_exactly_once": stored == distinct_ids == writers * per_writer,
        "seqs_contiguous": contiguous,
        "errors": len(errors),
        "database_is_locked": locked,
        "seconds": elapsed,
        "events_per_s": writers * per_writer / elapsed,
    }


def generate_file(path: Path, events: int, study_id: str = "bench-import") -> Path:
    """A valid exchange file: 1 study, events/1000 testers, one session of 1000 events each."""
    rng = random.Random(1)
    per_tester = 1000
    testers = max(1, events // per_tester)
    start = 1_770_000_000_000
    kinds = ["roll", "click", "click", "place", "message", "click"]
    partial = path.with_name(path.name + ".part")
    with partial.open("w", encoding="utf-8") as handle:
        handle.write(
            json.dumps(
                {
                    "record": "study",
                    "study_id": study_id,
                    "title": "bench",
                    "game": "vapoosh",
                    "rules": "standard",
                    "experiments": [
                        {"key": "msg", "variants": ["A", "B"], "target": "message:extra_turn"}
                    ],
                }
            )
            + "\n"
        )
        written = 0
        for tester in range(testers):
            pid = f"p{tester:06d}"
            at = start + tester * 3_600_000
            handle.write(
                json.dumps(
                    {
                        "record": "participant",
                        "study_id": study_id,
                        "participant_id": pid,
                        "created_at": iso_from_ms(at),
                        "consented_at": iso_from_ms(at),
                    }
                )
                + "\n"
            )
            handle.write(
                json.dumps(
                    {
                        "record": "assignment",
                        "participant_id": pid,
                        "experiment": "msg",
                        "variant": "AB"[tester % 2],
                        "at": iso_from_ms(at),
                    }
                )
                + "\n"
            )
            count = events - written if tester == testers - 1 else per_tester
            for seq in range(1, count + 1):
                at += rng.randint(50, 3000)
                kind = kinds[seq % len(kinds)]
                props: dict[str, Any] = (
                    {"seat": 0, "c": rng.randint(0, 11), "r": rng.randint(0, 11),
                     "ok": rng.random() < 0.8, "expected": 24, "clicked": 24,
                     "ms": rng.randint(300, 5000)}
                    if kind == "click"
                    else {"seat": rng.randint(0, 1), "dice": [rng.randint(1, 6) for _ in range(4)]}
                )  # fmt: skip
                handle.write(
                    json.dumps(
                        {
                            "record": "event",
                            "participant_id": pid,
                            "session_id": f"s{tester:06d}",
                            "seq": seq,
                            "at": iso_from_ms(at),
                            "type": kind,
                            "props": props,
                            "game_id": f"g{tester:06d}",
                        },
                        separators=(",", ":"),
                    )
                    + "\n"
                )
            written += count
    partial.replace(path)  # only a complete file gets the name that is reused
    return path


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bench_import(engine: Engine, folder: Path, events: int) -> dict[str, Any]:
    from playtest.storage.exchange import import_jsonl

    path = folder / f"bench-{events}.jsonl"
    began = time.perf_counter()
    if not path.exists():  # the file is deterministic: a kept one is reused
        generate_file(path, events)
    generated = time.perf_counter() - began
    began, cpu = time.perf_counter(), _cpu_seconds()
    first = import_jsonl(engine, path)
    first_s, first_cpu = time.perf_counter() - began, _cpu_seconds() - cpu
    began, cpu = time.perf_counter(), _cpu_seconds()
    second = import_jsonl(engine, path)
    second_s, second_cpu = time.perf_counter() - began, _cpu_seconds() - cpu
    return {
        "events": events,
        "file_mb": path.stat().st_size / 1e6,
        "generate_s": generated,
        "import_s": first_s,
        "import_cpu_s": first_cpu,
        "added": first.added,
        "reimport_s": second_s,
        "reimport_cpu_s": second_cpu,
        "reimport_added": sum(second.added.values()),
    }


def bench_load(engine: Engine) -> dict[str, Any]:
    from playtest.storage.exchange import load_study_data

    began, cpu = time.perf_counter(), _cpu_seconds()
    data = load_study_data(engine, "bench-import")
    return {
        "events": len(data.events),
        "load_study_data_s": time.perf_counter() - began,
        "load_study_data_cpu_s": _cpu_seconds() - cpu,
    }


def run_benchmarks(
    directory: str | None = None,
    url: str | None = None,
    import_events: int = 1_000_000,
    only: Sequence[str] | None = None,
    print_line: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Run the chosen benchmarks on a fresh SQLite file (or ``url``) and print the numbers."""
    chosen = set(only or ("latency", "writers", "import", "load"))
    folder = Path(directory or tempfile.mkdtemp(prefix="playtest-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}

    def fresh(name: str) -> Engine:
        if url:
            engine = make_engine(url)
        else:
            target = folder / f"{name}.sqlite"
            for suffix in ("", "-wal", "-shm"):
                Path(str(target) + suffix).unlink(missing_ok=True)
            engine = make_engine(f"sqlite:///{target}")
        upgrade(engine)
        return engine

    if url and chosen & {"import", "load"}:
        print_line("note: import/load benchmarks reuse the study id bench-import on that database")
    if "latency" in chosen:
        engine = fresh("latency")
        results["latency"] = bench_latency(engine)
        print_line(f"latency, 16 threads, closed loop: {_show(results['latency'])}")
        results["latency_paced"] = bench_latency(
            engine, mean_gap_ms=20.0, study_id="bench-latency-paced"
        )
        print_line(
            f"latency, 16 threads, one click per ~20 ms each: {_show(results['latency_paced'])}"
        )
    if "writers" in chosen:
        results["writers"] = bench_writers(fresh("writers"))
        print_line(f"writers: {_show(results['writers'])}")
    if chosen & {"import", "load"}:
        engine = fresh("import")
        results["import"] = bench_import(engine, folder, import_events)
        print_line(f"import: {_show(results['import'])}")
        if "load" in chosen:
            results["load"] = bench_load(engine)
            print_line(f"load: {_show(results['load'])}")
    print_line(f"(scratch files in {folder})")
    return results


def _show(values: dict[str, Any]) -> str:
    return ", ".join(
        f"{key}={value:.3f}" if isinstance(value, float) else f"{key}={value}"
        for key, value in values.items()
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.bench_storage``: run the chosen benchmarks, print the numbers."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_storage", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--dir", default=None, help="folder for the scratch database")
    parser.add_argument("--url", default=None, help="benchmark this database URL instead")
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the import")
    parser.add_argument(
        "--only", choices=["latency", "writers", "import", "load"], action="append"
    )
    args = parser.parse_args(argv)
    run_benchmarks(
        directory=args.dir, url=args.url, import_events=args.events, only=args.only or None
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
