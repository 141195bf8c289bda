"""Storage subcommands of ``playtest``: db upgrade, export, import, participant delete, bench-db."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from playtest.cli import CommandError, arg, command, group
from playtest.storage.db import ready_engine

_log = logging.getLogger("playtest.import")

group("db", help="database maintenance")
group("participant", help="privacy operations on one tester")


@command("db", "upgrade", help="migrate the database at DATABASE_URL to the newest schema")
def db_upgrade(args: argparse.Namespace) -> int:
    from playtest.storage.db import current_revision, safe_url

    engine = ready_engine()
    print(f"database {safe_url(str(engine.url))} is at revision {current_revision(engine)}")
    return 0


@command(
    "export",
    help="write a study in the exchange format (JSON Lines, or CSV/Parquet tables)",
    args=[
        arg("--study", required=True, help="study id"),
        arg("--out", required=True, help="output file, e.g. study.jsonl (inside the current "
            "folder unless absolute; see playtest/storage/outfiles.py)"),
        arg(
            "--format",
            choices=["jsonl", "csv", "parquet", "facts-csv", "facts-parquet"],
            default=None,
            help="jsonl (default), or csv/parquet: one table per record kind, "
            "named <out stem>.<kind>.<format>; facts-csv/facts-parquet: one row per "
            "answer to a times-table fact, <out stem>.facts.<csv|parquet>",
        ),
        arg("--force", action="store_true", help="replace files that exist already"),
        arg("--with-panel-ids", action="store_true",
            help="add each tester's recruitment panel ids (e.g. Prolific's participant id: "
                 "personal data, left out unless asked for)"),
    ],
)
def export(args: argparse.Namespace) -> int:
    from playtest.storage import repository as repo
    from playtest.storage.exchange import export_jsonl, export_tables_counted, table_paths
    from playtest.storage.outfiles import checked_out_path

    fmt = args.format or {".csv": "csv", ".parquet": "parquet"}.get(Path(args.out).suffix, "jsonl")
    out = checked_out_path(args.out, force=args.force)
    if fmt.startswith("facts-"):
        return _export_facts(args, out, fmt)
    if fmt != "jsonl":
        for path in table_paths(out, fmt).values():
            checked_out_path(path, force=args.force)
    engine = ready_engine()
    if repo.get_study(engine, args.study) is None:
        raise CommandError(f"no study {args.study!r}: nothing written")
    if fmt == "jsonl":
        counts = export_jsonl(engine, args.study, out, with_panel_ids=args.with_panel_ids)
        print(f"wrote {out} ({_size(out)}): {_counted(counts)}")
    else:
        files, counts = export_tables_counted(engine, args.study, out, fmt,
                                              with_panel_ids=args.with_panel_ids)
        print(f"wrote {len(files)} {fmt} files: {_counted(counts)}")
        for kind, path in files.items():
            print(f"  {path} ({_size(path)}): {_counted({kind: counts[kind]})}")
    return 0


def _analytics_of(game: str) -> Any:
    """The analytics of the registry's plug-in of ``game`` (None: a game it does not
    know: analytics finds its folder by name)."""
    from playtest.games.registry import UnknownGameError, game_plugin

    try:
        return game_plugin(game).analytics
    except UnknownGameError:
        return None


def _export_facts(args: argparse.Namespace, out: Path, fmt: str) -> int:
    """The per-fact table (playtest/storage/facts_export.py)."""
    from playtest.storage import repository as repo
    from playtest.storage.facts_export import export_facts, facts_path
    from playtest.storage.outfiles import checked_out_path

    checked_out_path(facts_path(out, fmt), force=args.force)
    engine = ready_engine()
    study = repo.get_study(engine, args.study)
    if study is None:
        raise CommandError(f"no study {args.study!r}: nothing written")
    path, rows = export_facts(engine, args.study, out, fmt, game=_analytics_of(study.game))
    print(f"wrote {path} ({_size(path)}): {rows} answers to facts")
    return 0


def _counted(counts: dict[str, int]) -> str:
    """``1 study, 3 participants, …`` (the import summary's words)."""
    plural = {"study": "studies"}
    return ", ".join(
        f"{n} {kind if n == 1 else plural.get(kind, kind + 's')}" for kind, n in counts.items()
    )


def _size(path: Path) -> str:
    size = float(path.stat().st_size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    return ""  # pragma: no cover


@command(
    "import",
    help="import an exchange-format JSON Lines file (all or nothing; idempotent)",
    args=[arg("file", help="the .jsonl file")],
)
def import_file(args: argparse.Namespace) -> int:
    from playtest.storage.exchange import import_jsonl
    from playtest.study_config import study_record_problem

    if not Path(args.file).is_file():
        raise CommandError(f"no such file: {args.file}")
    engine = ready_engine()
    report = import_jsonl(engine, args.file, check_study=study_record_problem)
    print(report.summary())
    _refresh_snapshots(engine, report.studies)
    return 0


def _refresh_snapshots(engine: Engine, study_ids: list[str]) -> None:
    """Bring the dashboard's snapshot of each study up to date (a materialised view).

    The data is stored by then, and the snapshot is a cache: a failure here is one
    warning line (the error's kind; its details and traceback go to the server log,
    :func:`playtest.runtime.log_file`, which never reaches the terminal), the import
    still succeeds, and the study's next page visit brings the cache up to date.
    """
    from playtest import runtime
    from playtest.study_snapshot import refresh

    for study_id in study_ids:
        try:
            done = refresh(engine, study_id)
        except Exception as err:  # noqa: BLE001 - whatever it is, the data is stored
            # Only the error's kind on the terminal: its text may quote stored data.
            where = runtime.configure_logging()
            if where is not None:  # without a log file, logging would print a traceback
                _log.warning("refreshing the dashboard data of study %s after an import "
                             "failed: %s", study_id, type(err).__name__, exc_info=err)
            print(f"playtest: warning: study {study_id} is stored, but its dashboard data "
                  f"could not be refreshed ({type(err).__name__}"
                  + (f"; details in {where}" if where is not None else "")
                  + "): the next visit of its pages tries again", file=sys.stderr)
            continue
        print(f"dashboard data of study {study_id} {done.how} in {done.seconds:.1f} s")


@command(
    "participant",
    "delete",
    help="delete everything of one tester (events, games, answers, assignments, panel ids)",
    args=[arg("code", help="the participant's pseudonymous code, the completion code the "
                           "tester was given at the end, or their recruitment panel id "
                           "(e.g. a Prolific id); a code that begins with '-' goes after "
                           "'--': playtest participant delete -- -Abc…"),
          arg("--study", default=None, help="the study, when a panel id is a tester of "
                                            "several")],
)
def participant_delete(args: argparse.Namespace) -> int:
    from playtest.storage.admission import participant_of_panel_id
    from playtest.storage.errors import NotFound
    from playtest.storage.privacy import delete_participant, resolve_code
    from playtest.study_snapshot import discard

    engine = ready_engine()
    try:
        participant_id, via = resolve_code(engine, args.code), "completion code"
    except NotFound as unknown:  # a recruitment panel's id, last (it is the panel's)
        try:
            participant_id = participant_of_panel_id(engine, args.code, args.study)
        except NotFound:
            raise unknown from None
        via = "panel id"
    deleted = delete_participant(engine, participant_id)
    # The dashboard's snapshots hold tester data too: gone with the tester.
    discard(engine)
    summary = ", ".join(f"{count} {table}" for table, count in deleted.items() if count)
    via = "" if participant_id == args.code else f" ({via} {args.code.strip()})"
    print(f"deleted participant {participant_id}{via}: {summary}")
    return 0


@command(
    "bench-db",
    help="measure the storage layer on a scratch SQLite file (prints numbers)",
    args=[
        arg("--dir", default=None, help="folder for the scratch database (default: a temp dir)"),
        arg("--url", default=None, help="benchmark this database URL instead of a SQLite file"),
        arg("--events", type=int, default=1_000_000, help="events in the import benchmark"),
        arg("--only", choices=["latency", "writers", "import", "load"], action="append"),
    ],
)
def bench_db(args: argparse.Namespace) -> int:
    # The benchmarks live in the top-level ``benchmarks/`` package of a source checkout,
    # which the wheel does not ship: forward to it when it is there (next to this package
    # in an editable install, whatever the working folder).
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "benchmarks" / "__init__.py").is_file() and str(checkout) not in sys.path:
        sys.path.append(str(checkout))
    try:
        from benchmarks.bench_storage import run_benchmarks
    except ModuleNotFoundError as err:
        if err.name not in ("benchmarks", "benchmarks.bench_storage"):
            raise
        print(
            "playtest bench-db: the benchmarks are not installed; run"
            " `python -m benchmarks.bench_storage` from a source checkout",
            file=sys.stderr,
        )
        return 2
    run_benchmarks(
        directory=args.dir, url=args.url, import_events=args.events, only=args.only or None
    )
    return 0
