"""CPU seconds of one dashboard update after new data, step by step (issue 12).

Run::

    python -m benchmarks.bench_page_update --db PATH|URL [--changed 100] [--repeat 3]
                                           [--profile FILE]

On a database that already holds a big study (e.g. one ``bench_dashboard --db`` left,
or ``playtest demo``), it brings the study's snapshot up to date, then ``--repeat``
times: touches ``--changed`` testers' answers (as ``bench_dashboard`` does), and times
in this process what a designer page's first render does when nothing is kept for the
new state and no earlier result is shown:

- ``head``: the records read fresh and the state (``page_results.load_head``);
- ``load``: the study's snapshot read and the changed testers re-read and re-derived
  (``study_snapshot.load_prepared`` and the free-text annotation);
- each page's computation on that bundle (``page_results.PAGES``), each on its own:
  nothing another page computed is remembered (``report`` computes its confusion
  points and experiments itself, as the plan page's first render does);

and prints the CPU seconds of this thread per step (the database server's CPU is not in
them; the snapshot's write is not timed: a page does it in the background). A page's
first render after new data costs about ``head + load + page``. ``--profile`` writes a
cProfile (CPU clock) of the last repeat's steps to FILE. It asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _url(db: str) -> str:
    return db if "://" in db else f"sqlite:///{Path(db).resolve()}"


def measure_once(engine: Any, study_id: str, changed: int,
                 profiler: cProfile.Profile | None) -> dict[str, float]:
    """Touch ``changed`` testers, then CPU seconds of each step (see the module doc)."""
    from benchmarks.bench_dashboard import touch_testers
    from playtest import page_results
    from playtest.study_snapshot import load_prepared
    from playtest.survey_items import annotate

    touch_testers(str(engine.url.render_as_string(hide_password=False)), changed)
    steps: dict[str, float] = {}

    def timed(name: str, call: Any) -> Any:
        if profiler is not None:
            profiler.enable()
        started = time.process_time()
        result = call()
        steps[name] = time.process_time() - started
        if profiler is not None:
            profiler.disable()
        return result

    timed("head", lambda: page_results.load_head(engine, study_id))

    def load() -> Any:
        loaded = load_prepared(engine, study_id, save=False)
        annotate(loaded.bundle.data)  # as the dashboard does: free-text items named
        return loaded

    loaded = timed("load", load)
    for page, compute in page_results.PAGES.items():
        # each page on its own, as its first render computes it: nothing another page
        # computed (e.g. the confusion points the plan reuses) is remembered
        bundle = _unremembered(loaded.bundle)
        timed(page, lambda compute=compute, bundle=bundle: compute(bundle))
    return steps


def _unremembered(bundle: Any) -> Any:
    """The same study with its prepared tables only (no results remembered on it)."""
    from dataclasses import replace

    from analytics import derive

    data = replace(bundle.data, study=dict(bundle.data.study))  # a new, empty memo
    derive.adopt_prepared(data, {key: bundle.data._derived[key]
                                 for key in derive.prepared_keys(bundle.data)})
    return replace(bundle, data=data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_page_update",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--db", required=True,
                        help="a SQLite file or a database URL holding the study")
    parser.add_argument("--study", default="demo", help="the study (default demo)")
    parser.add_argument("--changed", type=int, default=100,
                        help="testers touched before each repeat (default 100)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats (default 3)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="write a cProfile of the last repeat to this file")
    args = parser.parse_args(argv)

    from playtest.storage.db import make_engine, upgrade
    from playtest.study_snapshot import refresh

    os.environ.setdefault("DATABASE_URL", _url(args.db))
    engine = make_engine(_url(args.db))
    upgrade(engine)
    started = time.perf_counter()
    built = refresh(engine, args.study)
    print(f"snapshot {built.how} ({built.changed} changed) in "
          f"{time.perf_counter() - started:.1f} s; {len(built.marks)} testers", flush=True)
    runs: list[dict[str, float]] = []
    for number in range(args.repeat):
        profiler = cProfile.Profile(time.process_time) \
            if args.profile is not None and number == args.repeat - 1 else None
        steps = measure_once(engine, args.study, args.changed, profiler)
        runs.append(steps)
        print("  " + "  ".join(f"{name} {seconds:5.2f}" for name, seconds in steps.items()),
              flush=True)
        if profiler is not None:
            profiler.dump_stats(str(args.profile))
    print(f"\nCPU s per step after {args.changed} testers changed (median of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.2f}):")
    for name in runs[0]:
        print(f"  {name:<16} {statistics.median(run[name] for run in runs):6.2f}")
    first = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    base = first["head"] + first["load"]
    print(f"  {'head + load':<16} {base:6.2f}")
    for page in (name for name in first if name not in ("head", "load")):
        print(f"  first render of {page:<14} ≈ {base + first[page]:5.2f}")
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
