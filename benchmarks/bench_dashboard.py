"""Benchmark of the designer dashboard and ``playtest report`` on a big demo study.

Run::

    python -m benchmarks.bench_dashboard --testers 10000 [--db PATH] [--breakdown]
                                         [--postgres URL|auto [--only-postgres]]
                                         [--changed N]

It creates a SQLite file filled by the demo generator (or reuses ``--db`` if that file
already holds the demo study's testers) and, with ``--postgres``, a PostgreSQL database
likewise (issue 12: the dashboard of a study run on several app processes); then for every
designer page on each database measures

- *first render*: all Streamlit caches cleared, as when a designer opens the dashboard:
  the study comes from its snapshot on disk (``playtest.study_snapshot``), which the
  demo generator leaves current, with the pages' whole-study results kept for its state
  (``playtest.page_results``: overview, confusion, experiments and plan then read and
  draw, without the snapshot's tables); the time to build that snapshot is printed first;
- *cached render*: the same page again in a new session; ``st.cache_resource`` is
  process-wide, so this is the path every later visit within the cache's 30 s takes
  (best of two runs, in case the 30 s stamp turned over in between);

- *after new data* (``--changed N``, default 100): before each page whose results come
  from the study's data, N testers' answers are touched, then its first and cached
  render are timed again; a big study's page shows its latest kept results, labelled as
  of when, while the current ones are computed in the background, and the seconds until
  they are kept are printed too (with ``--no-earlier`` the page computes its current
  result at once instead, so its first render is the whole recomputation); ``playtest
  report`` is timed after new data as well;

(each page's line also gives the first render's CPU seconds in this process, which hold
better than wall seconds when other work shares the cores; a PostgreSQL server's own CPU
is not in them), and the wall time of ``playtest report`` in a fresh process (start-up included, as a user
sees it). With both databases a last table puts them side by side. ``--breakdown`` also times the loading steps and each analytics call the pages
make, one by one, to show where the time goes. It prints tables of seconds and asserts
nothing: speed targets are judged by a person reading the numbers.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PAGES = ["studies", "overview", "confusion", "questionnaires", "experiments", "replay",
         "balance", "report"]
#: The pages whose first render depends on the study's data (timed again after new data).
CHANGED_PAGES = ["overview", "confusion", "questionnaires", "experiments", "report"]
PAGE_SCRIPT = '''"""Renders one designer page by name (``?page=``), for the dashboard benchmark."""

import streamlit as st

from playtest.app_pages import designer

name = st.query_params.get("page", "overview")
getattr(designer, f"{name}_page")()
'''
QUIET_LOGGERS = ("streamlit.runtime.scriptrunner_utils.script_run_context",
                 "streamlit.runtime.caching.cache_data_api",
                 "streamlit.runtime.caching.cache_resource_api")
EMPTY_SCRIPT = 'import streamlit as st\n\nst.write("empty")\n'


def _url(db: Path | str) -> str:
    """A SQLite file's URL, or a database URL as it is."""
    return db if isinstance(db, str) else f"sqlite:///{db}"


def _engine_for(db: Path | str) -> Any:
    from playtest.storage.db import make_engine, upgrade

    engine = make_engine(_url(db))
    upgrade(engine)
    return engine


def prepare_database(db: Path | str, testers: int, seed: int, workers: int | None) -> int:
    """Make sure ``db`` holds the demo study with testers; returns how many it holds."""
    from playtest import demo
    from playtest.storage import repository as repo

    engine = _engine_for(db)
    study = demo.ensure_demo_study(engine)
    have = len(repo.list_participants(engine, study.study_id))
    if have == 0:
        print(f"generating {testers} simulated testers into {_where(db)} …", flush=True)
        started = time.perf_counter()
        report = demo.generate(engine, testers, seed=seed, study=study, workers=workers)
        took = time.perf_counter() - started
        print(f"{report.summary()}\ngenerated in {took:.1f} s "
              f"({testers / took:.1f} testers/s)", flush=True)
        have = testers
    else:
        print(f"reusing {_where(db)}: {have} testers in the demo study", flush=True)
    engine.dispose()
    return have


#: CPU seconds of this process in the last :func:`_run` (the page's own work; the
#: database server's is not in it): a figure that holds when other work shares the cores.
_CPU = [0.0]


def _run(script: Path, page: str | None, timeout: float) -> float:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(script), default_timeout=timeout)
    at.session_state["designer_signed_in"] = True
    if page is not None:
        at.query_params["page"] = page
    started, cpu = time.perf_counter(), time.process_time()
    at.run()
    took = time.perf_counter() - started
    _CPU[0] = time.process_time() - cpu
    if at.exception:
        raise RuntimeError(f"page {page!r} raised: {at.exception[0].value}")
    return took


def bench_pages(db: Path | str, pages: list[str],
                timeout: float) -> list[tuple[str, float, float, float]]:
    """(page, first render s, cached render s, first render CPU s) for each page, in
    AppTest."""
    import streamlit as st

    import playtest.app_pages.designer  # noqa: F401 - imports are not part of a render

    # Clearing caches outside a script run warns on every call ("missing
    # ScriptRunContext", "No runtime found"): noise in a table of numbers.
    for name in QUIET_LOGGERS:
        logging.getLogger(name).disabled = True

    os.environ["DATABASE_URL"] = _url(db)
    rows: list[tuple[str, float, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        page_script = Path(folder) / "designer_page.py"
        page_script.write_text(PAGE_SCRIPT, encoding="utf-8")
        empty_script = Path(folder) / "empty.py"
        empty_script.write_text(EMPTY_SCRIPT, encoding="utf-8")
        _run(empty_script, None, timeout)  # warm AppTest itself up
        empty_first = _run(empty_script, None, timeout)
        rows.append(("(empty script)", empty_first, _run(empty_script, None, timeout),
                     _CPU[0]))
        for page in pages:
            st.cache_resource.clear()
            st.cache_data.clear()
            first = _run(page_script, page, timeout)
            first_cpu = _CPU[0]
            cached = min(_run(page_script, page, timeout) for _ in range(2))
            rows.append((page, first, cached, first_cpu))
            print(f"  {page:<16} first {first:7.2f} s   cached {cached:6.2f} s   "
                  f"(first: {first_cpu:5.2f} s CPU in this process)", flush=True)
    return rows


def snapshot_build(db: Path | str) -> Any:
    """Bring the study's snapshot up to date, as ``playtest demo``/``import`` do."""
    from playtest.study_snapshot import refresh

    engine = _engine_for(db)
    try:
        return refresh(engine, "demo")
    finally:
        engine.dispose()


def touch_testers(db: Path | str, count: int) -> int:
    """Move the latest answer of ``count`` testers 1 ms later: their snapshot marks change
    as if they had answered again, so the next load re-derives exactly those testers."""
    from sqlalchemy import text

    engine = _engine_for(db)
    with engine.begin() as conn:
        ids = [row[0] for row in conn.execute(text(
            "SELECT DISTINCT participant_id FROM responses WHERE study_id = 'demo' "
            "ORDER BY participant_id LIMIT :n"), {"n": count})]
        for pid in ids:
            conn.execute(text("UPDATE responses SET at_ms = at_ms + 1 WHERE participant_id = :p "
                              "AND at_ms = (SELECT max(at_ms) FROM responses WHERE "
                              "participant_id = :p)"), {"p": pid})
    engine.dispose()
    return len(ids)


def bench_changed(db: Path | str, pages: list[str], count: int,
                  timeout: float) -> tuple[list[tuple[str, float, float, float]],
                                           dict[str, float]]:
    """(row, first render s, cached s, first render CPU s) of each page after new data:
    before each page, ``count`` testers' answers are touched (:func:`touch_testers`), so
    its first render finds the study in a state nothing was kept for (the snapshot has
    those testers to re-derive, and no page result is kept for the new state), as when
    testers play on while the designer watches. A big study's page then shows its latest
    kept results, labelled, while the current ones are computed in the background
    (``playtest.page_results.shown_while_updating``): the second figure returned is,
    per row, the seconds from the first render's start until that update was done (the
    cached renders come after it, from the current results)."""
    import streamlit as st

    from playtest import page_results, study_snapshot

    os.environ["DATABASE_URL"] = _url(db)
    rows: list[tuple[str, float, float, float]] = []
    updated: dict[str, float] = {}
    wait_for_updates = getattr(page_results, "wait_for_updates", None)  # older code: none
    with tempfile.TemporaryDirectory() as folder:
        page_script = Path(folder) / "designer_page.py"
        page_script.write_text(PAGE_SCRIPT, encoding="utf-8")
        for page in pages:
            touched = touch_testers(db, count)
            st.cache_resource.clear()
            st.cache_data.clear()
            started = time.perf_counter()
            first = _run(page_script, page, timeout)
            first_cpu = _CPU[0]
            label = f"{page} +{touched} changed"
            took = len(getattr(page_results, "UPDATES_TOOK", []))
            if wait_for_updates is not None:
                wait_for_updates()
                updated[label] = time.perf_counter() - started
                for update in page_results.UPDATES_TOOK[took:]:
                    print(f"    (background update: {update.seconds:.2f} s, "
                          f"{update.cpu:.2f} s CPU in its thread)", flush=True)
            cached = min(_run(page_script, page, timeout) for _ in range(2))
            # the page's background writes (snapshot, kept result) end before the next
            study_snapshot.wait_for_writes()
            page_results.wait_for_writes()
            rows.append((label, first, cached, first_cpu))
            after = f"   current results kept after {updated[label]:5.2f} s" \
                if label in updated else ""
            print(f"  {label:<22} first {first:7.2f} s   cached {cached:6.2f} s   "
                  f"(first: {first_cpu:5.2f} s CPU in this process){after}", flush=True)
    return rows, updated


def bench_report(db: Path | str) -> tuple[float, str]:
    """Wall seconds of ``playtest report`` in a fresh process, and what it printed."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": _url(db)}
        command = [sys.executable, "-c", "import sys; from playtest.cli import main; "
                   "sys.exit(main())", "report", "--study", "demo",
                   "--out", str(Path(folder) / "plan.md"),
                   "--json", str(Path(folder) / "plan.json")]
        started = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        took = time.perf_counter() - started
    output = (done.stdout + done.stderr).strip().splitlines()
    return took, output[-1] if output else f"exit status {done.returncode}"


def _where(db: Path | str) -> str:
    from playtest.storage.db import safe_url

    return safe_url(db) if isinstance(db, str) else str(db)


def _timed(label: str, call: Callable[[], Any], rows: list[tuple[str, float]]) -> Any:
    started = time.perf_counter()
    result = call()
    rows.append((label, time.perf_counter() - started))
    return result


def breakdown(db: Path | str) -> list[tuple[str, float]]:
    """Seconds of each loading step and each analytics call the pages make."""
    from analytics import confusion, derive, experiments, funnel, game_analytics, questionnaires
    from analytics.report import build_report, report_figures
    from playtest.storage.exchange import load_study_data
    from playtest.study_data import scores_and_quiz

    engine = _engine_for(db)
    rows: list[tuple[str, float]] = []
    data = _timed("storage.load_study_data", lambda: load_study_data(engine, "demo"), rows)
    scores, quiz = _timed("study_data.scores_and_quiz",
                          lambda: scores_and_quiz(data.responses), rows)
    _timed("derive.prepare", lambda: derive.prepare(data), rows)
    variants = experiments.participant_variants(data, "highlight")
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("funnel.filter_study (no filter)", lambda: funnel.filter_study(data)),
        ("funnel.funnel", lambda: funnel.funnel(data)),
        ("confusion.confusion_points", lambda: confusion.confusion_points(data)),
        ("confusion.wrong_clicks_by_reason", lambda: confusion.wrong_clicks_by_reason(data)),
        *((f"game chart: {chart.name}", lambda build=chart.build: build(data))
          for chart in game_analytics.for_study(data).charts),
        ("confusion.message_aftermath", lambda: confusion.message_aftermath(data)),
        ("confusion.rules_overlay_use", lambda: confusion.rules_overlay_use(data)),
        ("questionnaires.instrument_summary",
         lambda: questionnaires.instrument_summary(scores, variants)),
        ("questionnaires.pre_post", lambda: questionnaires.pre_post(scores)),
        ("questionnaires.quiz_correctness",
         lambda: questionnaires.quiz_correctness(quiz, variants)),
        ("questionnaires.free_text", lambda: questionnaires.free_text(data.responses, None,
                                                                      variants)),
        ("questionnaires.theme_counts", lambda: questionnaires.theme_counts(data.responses)),
        ("experiments.analyze_experiments",
         lambda: experiments.analyze_experiments(data, scores, quiz)),
    ]
    for label, call in calls:
        _timed(label, call, rows)
    report = _timed("report.build_report", lambda: build_report(data, scores, quiz), rows)
    _timed("report.report_figures", lambda: report_figures(data, report), rows)
    engine.dispose()
    return rows


@dataclass(frozen=True)
class Measured:
    """One database's figures: pages (name, first render s, cached s, first render CPU
    s), report s (and after new data, with ``--changed``)."""

    where: str
    testers: int
    snapshot: str
    rows: list[tuple[str, float, float, float]]
    report_s: float
    report_said: str
    changed_report_s: float | None = None
    updated: dict[str, float] = field(default_factory=dict)


def measure(db: Path | str, args: argparse.Namespace, pages: list[str]) -> Measured:
    """Fill (or reuse) the database, then time its snapshot, pages and report."""
    testers = prepare_database(db, args.testers, args.seed, args.workers)
    if args.breakdown:
        print("\nbreakdown (seconds, one call each):")
        for label, seconds in breakdown(db):
            print(f"  {label:<40} {seconds:7.2f}")
    built = snapshot_build(db)
    snapshot = f"{built.how} in {built.seconds:.2f} s"
    print(f"\nsnapshot (what `playtest demo`/`import` leave): {snapshot}", flush=True)
    print(f"\npages at {testers} testers on {_where(db)} (seconds):", flush=True)
    rows = bench_pages(db, pages, args.timeout)
    report_s, said = bench_report(db)
    changed_report_s = None
    if args.changed:
        print(f"\npages after {args.changed} testers changed (touched before each page):",
              flush=True)
        changed_rows, updated = bench_changed(db, [p for p in pages if p in CHANGED_PAGES],
                                              args.changed, args.timeout)
        rows += changed_rows
        touch_testers(db, args.changed)
        changed_report_s, _ = bench_report(db)
        print(f"  playtest report +{args.changed} changed: {changed_report_s:.2f} s",
              flush=True)
    return Measured(_where(db), testers, snapshot, rows, report_s, said, changed_report_s,
                    updated if args.changed else {})


def table(measured: Measured) -> list[str]:
    # An empty script costs AppTest itself ~0.2 s per run: "net" takes that off.
    base = measured.rows[0][2]
    lines = [f"\n{measured.where}: {measured.testers} testers, snapshot {measured.snapshot}",
             f"{'page':<28} {'first render':>12} {'(CPU)':>7} {'cached':>8} {'cached net':>11}"
             f" {'current kept after':>19}"]
    for page, first, cached, cpu in measured.rows:
        after = measured.updated.get(page)
        lines.append(f"{page:<28} {first:12.2f} {cpu:7.2f} {cached:8.2f} "
                     f"{max(cached - base, 0.0):11.2f}"
                     + ("" if after is None else f" {after:19.2f}"))
    lines.append(f"{'playtest report':<28} {measured.report_s:12.2f}   "
                 f"({measured.report_said})")
    if measured.changed_report_s is not None:
        lines.append(f"{'playtest report, changed':<28} {measured.changed_report_s:12.2f}")
    return lines


def side_by_side(one: Measured, two: Measured, names: tuple[str, str]) -> list[str]:
    """Both databases' pages in one table (seconds; cached is net of AppTest's own)."""
    base_one, base_two = one.rows[0][2], two.rows[0][2]
    second = {page: (first, cached, cpu) for page, first, cached, cpu in two.rows}
    head = (f"{'page':<28} {names[0] + ' first':>13} {'(CPU)':>6} {names[0] + ' cached':>13} "
            f"{names[1] + ' first':>17} {'(CPU)':>6} {names[1] + ' cached':>17}")
    lines = ["", "side by side (seconds; cached net of AppTest's own cost):", head]
    for page, first, cached, cpu in one.rows[1:]:
        other = second.get(page)
        other_text = ("" if other is None else
                      f"{other[0]:17.2f} {other[2]:6.2f} {max(other[1] - base_two, 0.0):17.2f}")
        lines.append(f"{page:<28} {first:13.2f} {cpu:6.2f} "
                     f"{max(cached - base_one, 0.0):13.2f} {other_text}")
    if one.updated and two.updated:
        lines.append("after new data, the current results were kept after (s, from the "
                     "first render's start):")
        for page, seconds in one.updated.items():
            other_seconds = two.updated.get(page)
            lines.append(f"  {page:<26} {seconds:13.2f} {'':>6} {'':>13} "
                         + ("" if other_seconds is None else f"{other_seconds:17.2f}"))
    lines.append(f"{'playtest report':<28} {one.report_s:13.2f} {'':>6} {'':>13} "
                 f"{two.report_s:17.2f}")
    if one.changed_report_s is not None and two.changed_report_s is not None:
        lines.append(f"{'playtest report, changed':<28} {one.changed_report_s:13.2f} "
                     f"{'':>6} {'':>13} {two.changed_report_s:17.2f}")
    return lines


def _postgres(choice: str, folder: Path) -> tuple[str, Any]:
    """A database URL on PostgreSQL and the throwaway server started for it (or None).
    ``auto``: a server from tests/pg_server.py with a new database; a server URL ending
    in ``/postgres``: a new database on it; any other URL: that database (reused when
    it already holds the demo study)."""
    from benchmarks.cluster import create_postgres_database

    if choice != "auto":
        if choice.rstrip("/").endswith("/postgres"):
            return create_postgres_database(choice), None
        return choice, None
    from tests.pg_server import PostgresServer  # a checkout's throwaway server

    server = PostgresServer()
    server.start()
    return create_postgres_database(server.url), server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_dashboard",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--testers", type=int, default=10000,
                        help="simulated testers when the database is new (default 10000)")
    parser.add_argument("--db", type=Path, default=None,
                        help="SQLite file to create or reuse (default: a temporary file)")
    parser.add_argument("--postgres", default=None, metavar="URL|auto",
                        help="also (or with --only-postgres, only) on PostgreSQL: a database "
                             "URL (reused when it holds the demo study), a server URL ending "
                             "in /postgres (a new database on it), or 'auto' (a throwaway "
                             "server from tests/pg_server.py)")
    parser.add_argument("--only-postgres", action="store_true",
                        help="measure PostgreSQL only (with --postgres)")
    parser.add_argument("--seed", type=int, default=1, help="demo seed (default 1)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes simulating testers (default: the generator's)")
    parser.add_argument("--pages", default=",".join(PAGES),
                        help="comma-separated pages to measure (default: all)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds one page render may take (default 300)")
    parser.add_argument("--changed", type=int, default=100,
                        help="then, before each page whose results come from the data, "
                             "touch this many testers' answers and time it again (new data: "
                             "the snapshot's refresh path, nothing kept yet for the new "
                             "state), and `playtest report` too (default 100; 0: skip)")
    parser.add_argument("--no-earlier", action="store_true",
                        help="after new data, compute each page at once instead of showing "
                             "its earlier result while updating: the 'changed' rows' first "
                             "render is then the whole recomputation a page needs")
    parser.add_argument("--breakdown", action="store_true",
                        help="also time the loading steps and analytics calls one by one")
    args = parser.parse_args(argv)
    pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    unknown = sorted(set(pages) - set(PAGES))
    if args.testers < 1 or unknown or (args.only_postgres and not args.postgres):
        problem = (f"unknown pages: {', '.join(unknown)}" if unknown else
                   "--only-postgres needs --postgres" if args.testers >= 1 else
                   "--testers must be ≥ 1")
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.no_earlier:
        from playtest import page_results

        page_results.BACKGROUND_FROM_TESTERS = sys.maxsize
    results: list[Measured] = []
    server = None
    with tempfile.TemporaryDirectory() as folder:
        # The snapshots of this run's databases stay in its folder (unless one is set).
        os.environ.setdefault("PLAYTEST_CACHE_DIR", str(Path(folder) / "cache"))
        try:
            if not args.only_postgres:
                results.append(measure(args.db or Path(folder) / "dashboard.sqlite", args,
                                       pages))
            if args.postgres:
                url, server = _postgres(args.postgres, Path(folder))
                results.append(measure(url, args, pages))
        finally:
            if server is not None:
                server.stop()
    for measured in results:
        print("\n".join(table(measured)))
    if len(results) == 2:
        print("\n".join(side_by_side(results[0], results[1], ("SQLite", "PostgreSQL"))))
    if args.changed:
        print(f"(the 'changed' rows: {args.changed} testers' answers touched before each "
              "page, so the snapshot re-derives them and nothing is kept for the new state)")
    print("targets: first render ≤ 2 s, cached ≤ 0.3 s, playtest report ≤ 10 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
