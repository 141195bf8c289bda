"""The live monitor's cost at 10,000 testers: one read (:func:`playtest.storage.live.live_rows`)
and the computation (:func:`analytics.live.live_view`), timed on a SQLite file holding a
study of ``--testers`` testers spread over the last six hours (each with five page
events and ``--events`` play events; one in ten still playing).

    python -m benchmarks.bench_monitor [--testers 10000] [--events 40] [--repeat 5]

It prints the read's and the computation's median time; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from analytics.live import HOUR_MS, WINDOW_HOURS, live_view
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.live import live_rows
from playtest.storage.models import events, participants, sessions
from playtest.storage.timeutil import now_ms

PAGES = ("consent", "pre_survey", "play", "post_survey", "done")


def fill(engine: object, testers: int, play_events: int, seed: int = 1) -> None:
    """The study ``bench`` with ``testers`` testers (module docstring)."""
    rng = random.Random(seed)
    repo.create_study(engine, title="Monitor bench", study_id="bench")  # type: ignore[arg-type]
    now = now_ms()
    with engine.begin() as conn:  # type: ignore[attr-defined]
        for start in range(0, testers, 1000):
            people, tabs, rows = [], [], []
            for n in range(start, min(start + 1000, testers)):
                code, begun = f"t{n:06d}", now - rng.randrange(WINDOW_HOURS * HOUR_MS)
                people.append({"participant_id": code, "study_id": "bench",
                               "created_at_ms": begun, "consented_at_ms": begun,
                               "stage": "play", "games_completed": 0})
                tabs.append({"session_id": code, "participant_id": code,
                             "started_at_ms": begun, "last_seq": 0})
                reached = PAGES[:3] if n % 10 == 0 else PAGES
                at, seq = begun, 0
                for page in reached:
                    seq += 1
                    rows.append({"study_id": "bench", "participant_id": code,
                                 "session_id": code, "seq": seq, "at_ms": at,
                                 "type": "page", "props": {"page": page}})
                    if page == "play":
                        for _ in range(play_events):
                            seq, at = seq + 1, at + rng.randrange(2_000, 20_000)
                            rows.append({"study_id": "bench", "participant_id": code,
                                         "session_id": code, "seq": seq, "at_ms": at,
                                         "type": "click", "props": {"ok": True}})
                    at += rng.randrange(30_000, 300_000)
            conn.execute(insert(participants), people)
            conn.execute(insert(sessions), tabs)
            conn.execute(insert(events), rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--testers", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        upgrade(engine)
        fill(engine, args.testers, args.events)
        reads, computes = [], []
        for _ in range(args.repeat):
            moment = now_ms()
            t0 = time.perf_counter()
            pages, last = live_rows(engine, "bench", now_ms=moment,
                                    window_ms=WINDOW_HOURS * HOUR_MS)
            t1 = time.perf_counter()
            view = live_view(pages, last, now_ms=moment)
            computes.append(time.perf_counter() - t1)
            reads.append(t1 - t0)
        engine.dispose()
    print(json.dumps({"testers": args.testers, "events": args.testers * (5 + args.events),
                      "page_rows": len(pages), "open_testers": len(last),
                      "in_study_now": sum(view.in_step.values()),
                      "read_ms_median": round(statistics.median(reads) * 1000, 1),
                      "compute_ms_median": round(statistics.median(computes) * 1000, 1)}))


if __name__ == "__main__":
    main()
