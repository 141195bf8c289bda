"""A study's dashboard data kept on disk, refreshed tester by tester.

Deriving a big study from its raw events is slow (10,000 demo testers, 1.66M events:
about 20 s to read, decode, score and derive), yet the result changes little between
two visits: a few testers played on. So the dashboard and ``playtest report`` read a
*snapshot* — the derived tables analytics reads (:data:`analytics.derive.PREPARED_KEYS`),
the survey answers, instrument scores and quiz results — as Parquet files, and re-derive
only the testers whose data changed since it was written:

- each tester's *mark* is ``(sum of their sessions' last_seq, number of answers, latest
  answer time)``, read in SQL without touching the events; a tester whose mark differs
  from the snapshot's (or who is new) is re-read and re-derived on their own, and
  spliced in (:func:`analytics.derive.splice_prepared`); a tester no longer in the
  database (deleted) is dropped;
- participants and assignments are always read fresh (small);
- when most testers changed, or there is no usable snapshot (none, broken, or written
  by other code: :func:`code_signature`), the study is derived whole.

``playtest demo`` and ``playtest import`` write the snapshot as they finish (a
materialised view, updated at write time), so the first dashboard visit after them is
fast too. The snapshot lives next to a SQLite file (``playtest.sqlite.cache/``) or under
``$PLAYTEST_CACHE_DIR``; it holds tester data, so ``playtest participant delete``
removes it. It is a cache: deleting it loses nothing.

>>> from playtest.storage.db import make_engine, upgrade
>>> engine = make_engine("sqlite://")
>>> upgrade(engine)
>>> snapshot_folder(engine) is None  # an in-memory database has no place for one
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from analytics import derive
from analytics.data import QUIZ_COLUMNS, SCORE_COLUMNS, StudyData
from playtest.settings import load_settings
from playtest.storage.exchange import _decode_nullable, load_study_data
from playtest.storage.models import participants, responses, sessions
from playtest.storage.survey_records import parsed_definitions
from playtest.study_data import StudyBundle, load_bundle, scores_and_quiz, with_game
from playtest.study_state import code_signature as study_code_signature
from playtest.study_state import digest_of, records_digest

#: Bumped whenever what a snapshot holds changes shape: an older snapshot is rebuilt.
SNAPSHOT_FORMAT = 4


def code_signature() -> str:
    """The code a snapshot's contents come from, with :data:`SNAPSHOT_FORMAT`: the
    dashboard's one code version (:func:`playtest.study_state.code_signature`), so a
    snapshot and the page results kept with it are never of different code."""
    return f"{SNAPSHOT_FORMAT}-{study_code_signature()}"


#: Above this share of changed testers, deriving the whole study is cheaper.
REBUILD_SHARE = 0.3

Mark = tuple[int, int, int]


@dataclass(frozen=True)
class SnapshotLoad:
    """What :func:`load_prepared` did: ``how`` is ``"read"`` (the snapshot was current),
    ``"refreshed"`` (``changed`` testers re-derived, ``dropped`` removed) or ``"built"``
    (the whole study derived); ``written`` says whether a new snapshot was saved;
    ``state`` is the study's state digest (:func:`playtest.study_state.state_digest`),
    which names the page results kept for exactly this data; ``marks`` the testers'
    change marks it was read at, ``records`` the digest of the records read fresh
    (:func:`playtest.study_state.records_digest`), ``read_at`` when (epoch seconds)."""

    bundle: StudyBundle
    how: str
    changed: int
    dropped: int
    written: bool
    seconds: float
    state: str = ""
    marks: dict[str, Mark] = field(default_factory=dict, compare=False, repr=False)
    records: str = ""
    read_at: float = 0.0


def snapshot_folder(engine: Engine) -> Path | None:
    """Where this database's snapshots go (None: nowhere, e.g. in-memory SQLite)."""
    configured = load_settings().cache_dir
    url = engine.url
    if configured is not None:
        digest = hashlib.sha256(url.render_as_string(hide_password=True).encode()).hexdigest()
        return configured / digest[:16]
    if url.get_backend_name() == "sqlite":
        database = url.database
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        path = Path(database).resolve()
        return path.with_name(path.name + ".cache")
    digest = hashlib.sha256(url.render_as_string(hide_password=True).encode()).hexdigest()
    return Path.home() / ".cache" / "playtest-lab" / digest[:16]


def _study_folder(root: Path, study_id: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", study_id)
    digest = hashlib.sha256(study_id.encode()).hexdigest()[:8]
    return root / f"{safe}-{digest}"


def study_folder(root: Path, study_id: str) -> Path:
    """The folder of one study's snapshot (and page results) under ``root``."""
    return _study_folder(root, study_id)


def participant_marks(engine: Engine, study_id: str) -> dict[str, Mark]:
    """Each tester's change mark (see the module docstring), in two aggregate queries."""
    with engine.connect() as conn:
        seqs = conn.execute(
            select(participants.c.participant_id,
                   func.coalesce(func.sum(sessions.c.last_seq), 0))
            .select_from(participants.outerjoin(
                sessions, sessions.c.participant_id == participants.c.participant_id))
            .where(participants.c.study_id == study_id)
            .group_by(participants.c.participant_id)
        ).all()
        answers = conn.execute(
            select(responses.c.participant_id, func.count(),
                   func.coalesce(func.max(responses.c.at_ms), 0))
            .where(responses.c.study_id == study_id)
            .group_by(responses.c.participant_id)
        ).all()
    answered = {row[0]: (int(row[1]), int(row[2])) for row in answers}
    return {row[0]: (int(row[1]), *answered.get(row[0], (0, 0))) for row in seqs}


# ------------------------------------------------------------------ files


def _file_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", key) + ".parquet"


#: The Parquet metadata key naming a file's columns written as JSON text.
_JSON_META = b"playtest.json_columns"


def _plain_json(value: Any) -> Any:
    """``json.dumps``'s ``default``: numpy numbers and arrays as Python ones."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"not JSON: {type(value).__name__}")


def _json_columns(frame: pd.DataFrame) -> list[str]:
    """The object columns of ``frame`` holding anything but text (lists, objects, numbers
    next to text: a prop as each event logged it), which Parquet cannot hold as they are:
    they are written as JSON text and read back as the same values."""
    return [str(column) for column in frame.columns if frame[column].dtype == object
            and pd.api.types.infer_dtype(frame[column], skipna=True) not in ("string",
                                                                           "empty")]


def _write_table(frame: pd.DataFrame, path: Path) -> None:
    frame = frame.reset_index(drop=True).copy()
    encoded = _json_columns(frame)
    for column in encoded:
        frame[column] = [None if _missing(value) else json.dumps(value, default=_plain_json)
                         for value in frame[column].tolist()]
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           _JSON_META: json.dumps(encoded).encode()})
    pq.write_table(table, path, compression="zstd")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _read_table(path: Path) -> pd.DataFrame:
    table = pq.read_table(path)
    encoded = json.loads((table.schema.metadata or {}).get(_JSON_META, b"[]"))
    frame = table.to_pandas()
    for column in encoded:
        if column in frame.columns:
            texts = [value if isinstance(value, str) else None  # a null: NaN or None
                     for value in frame[column].tolist()]
            frame[column] = pd.Series(_decode_nullable(texts), dtype=object,
                                      index=frame.index)
    return frame


@dataclass(frozen=True)
class _Snapshot:
    marks: dict[str, Mark]
    tables: dict[str, pd.DataFrame]
    responses: pd.DataFrame
    scores: pd.DataFrame
    quiz: pd.DataFrame


class _PendingRead:
    """A snapshot being read in worker threads (Parquet decoding releases the GIL), so
    the database queries of :func:`load_prepared` run meanwhile."""

    def __init__(self, folder: Path, pool: ThreadPoolExecutor) -> None:
        generation = (folder / "CURRENT").read_text(encoding="utf-8").strip()
        where = folder / generation
        self.stamp = _generation_stamp(folder, generation)
        meta = json.loads((where / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != SNAPSHOT_FORMAT or meta.get("code") != code_signature():
            raise ValueError("snapshot written by other code")
        self.marks: dict[str, Mark] = {
            pid: (int(m[0]), int(m[1]), int(m[2])) for pid, m in meta["marks"].items()}
        # the core's tables and the study's game's (meta lists them: derive.prepared_keys)
        self.keys: list[str] = list(meta.get("tables") or derive.PREPARED_KEYS)
        files = {key: where / _file_name(key) for key in self.keys}
        files["responses"] = where / "responses.parquet"
        files["scores"] = where / "scores.parquet"
        files["quiz"] = where / "quiz.parquet"
        self.futures = {key: pool.submit(_read_table, path) for key, path in files.items()}

    def result(self) -> _Snapshot:
        frames = {key: future.result() for key, future in self.futures.items()}
        return _Snapshot(
            marks=self.marks,
            tables={key: frames[key] for key in self.keys},
            responses=frames["responses"],
            scores=frames["scores"],
            quiz=frames["quiz"],
        )


_READ_ERRORS = (OSError, ValueError, KeyError, TypeError, pa.ArrowException)

# ------------------------------------------------------------------ the copy in memory
#
# Reading a big study's snapshot costs about 1 s of CPU (10,000 testers: Parquet and the
# JSON columns), on every load after new data. So this process keeps the snapshot it
# last read or wrote per study folder, with the stamp of the generation it is a copy of
# (:func:`_generation_stamp`: the generation's name and its meta file's size and change
# time). The next load uses it instead of the files exactly when ``CURRENT`` still names
# that generation and its meta file is unchanged, i.e. when reading would give the same
# tables; otherwise (another process wrote a newer snapshot, a broken or foreign file,
# ``discard``) it reads the files as before. Like the files, its marks say which testers'
# data it holds, so only testers changed since are re-derived. Its frames are shared with
# the bundles made from it, which are never changed (analytics only reads).

_IN_MEMORY: dict[Path, tuple[tuple[str, int, int], _Snapshot]] = {}
_MEMORY_LOCK = threading.Lock()
#: Writing a big study's snapshot costs about 1.5 s of CPU (10,000 testers) in a
#: background thread. While testers play, a page refreshes often: within this many
#: seconds of this process's last write, a background refresh from the copy in memory
#: is kept in memory only (other processes and restarts refresh from the files, which
#: are at most this old, re-deriving the testers changed since).
REWRITE_AFTER_S = 30.0
_LAST_WRITE: dict[Path, float] = {}


def _written_lately(folder: Path) -> bool:
    with _MEMORY_LOCK:
        last = _LAST_WRITE.get(folder)
    return last is not None and time.monotonic() - last < REWRITE_AFTER_S


def _generation_stamp(folder: Path, generation: str) -> tuple[str, int, int]:
    """A generation's name with its meta file's size and change time (OSError: none)."""
    meta = (folder / generation / "meta.json").stat()
    return generation, meta.st_size, meta.st_mtime_ns


def _remember(folder: Path, stamp: tuple[str, int, int], snapshot: _Snapshot) -> None:
    with _MEMORY_LOCK:
        _IN_MEMORY[folder] = (stamp, snapshot)


def _held(folder: Path | None) -> _Snapshot | None:
    """This process's copy of the folder's current snapshot, if it is still current
    (it may be newer than the files: see :data:`REWRITE_AFTER_S`)."""
    held = _held_entry(folder)
    return None if held is None else held[1]


def _held_entry(folder: Path | None) -> tuple[tuple[str, int, int], _Snapshot] | None:
    if folder is None:
        return None
    with _MEMORY_LOCK:
        entry = _IN_MEMORY.get(folder)
    if entry is None:
        return None
    stamp, snapshot = entry
    try:
        current = (folder / "CURRENT").read_text(encoding="utf-8").strip()
        if current != stamp[0] or _generation_stamp(folder, current) != stamp:
            return None
    except OSError:
        return None
    return stamp, snapshot


class _Held:
    """:func:`_held`'s snapshot in the shape of a :class:`_PendingRead` (``stamp``: of
    the files it started from)."""

    def __init__(self, stamp: tuple[str, int, int], snapshot: _Snapshot) -> None:
        self.stamp = stamp
        self.marks = snapshot.marks
        self.snapshot = snapshot

    def result(self) -> _Snapshot:
        return self.snapshot


def forget(folder: Path | None = None) -> None:
    """Drop this process's copies of snapshots (under ``folder``, or all)."""
    with _MEMORY_LOCK:
        for kept in list(_IN_MEMORY):
            if folder is None or kept == folder or folder in kept.parents:
                del _IN_MEMORY[kept]


def _start_read(folder: Path | None, pool: ThreadPoolExecutor) -> _PendingRead | None:
    """Start reading the current snapshot in ``folder`` (None: there is none usable)."""
    if folder is None:
        return None
    try:
        return _PendingRead(folder, pool)
    except _READ_ERRORS:
        # Missing, half-written by a crashed process, or from another version: rebuild.
        return None


_WRITE_LOCK = threading.Lock()  # one writer at a time in this process


def _save(folder: Path | None, snapshot: _Snapshot, save: bool | str) -> bool:
    """Write now (``save=True``), in a background thread (``"background"``: the page
    need not wait for it) or not at all. Returns whether a write was done or started.
    Once written, ``snapshot`` is this process's copy of it (:func:`_held`)."""
    if folder is None or not save:
        return False
    with _MEMORY_LOCK:
        _LAST_WRITE[folder] = time.monotonic()
    if save == "background":
        # The writer gets its own copies: pandas frames are not safe to read from two
        # threads at once (reading may consolidate their blocks in place), and the pages
        # start computing on these frames as soon as this returns.
        private = _Snapshot(
            marks=dict(snapshot.marks),
            tables={key: table.copy() for key, table in snapshot.tables.items()},
            responses=snapshot.responses.copy(), scores=snapshot.scores.copy(),
            quiz=snapshot.quiz.copy())
        writer = threading.Thread(target=_write, args=(folder, private, snapshot),
                                  daemon=True, name="study-snapshot-writer")
        _WRITERS.append(writer)
        writer.start()
        return True
    return _write(folder, snapshot, snapshot)


_WRITERS: list[threading.Thread] = []


def wait_for_writes() -> None:
    """Wait until background snapshot writes started by this process are done."""
    while _WRITERS:
        _WRITERS.pop().join()


def _write(folder: Path, snapshot: _Snapshot, held: _Snapshot | None = None) -> bool:
    """Write ``snapshot``; once current, ``held`` (the same tables: the caller's, not
    the writer's copy) is this process's copy of it (none kept without ``held``)."""
    with _WRITE_LOCK:
        return _write_unlocked(folder, snapshot, held)


#: A generation replaced as current is kept this long, so readers that started on it
#: finish (a read takes seconds); a half-written one (its writer died) this long.
RETIRED_GRACE_S = 120.0
ABANDONED_S = 3600.0
_TEMP_PREFIX = ".tmp-"
#: The study folder's sub-folder of page results (:mod:`playtest.page_results`): not a
#: generation, never removed as one.
PAGES_FOLDER = "pages"


def _write_unlocked(folder: Path, snapshot: _Snapshot, held: _Snapshot | None = None) -> bool:
    """Save ``snapshot`` as a new generation and point ``CURRENT`` at it atomically.

    Several processes, on several machines sharing ``$PLAYTEST_CACHE_DIR``, may write at
    once; none disturbs another or a reader:

    - a generation is written under a temporary name of its own and renamed whole, so
      ``CURRENT`` only ever names a complete generation (last rename wins: any complete
      snapshot is valid, since its marks say which testers it holds);
    - the generation ``CURRENT`` stops naming is touched ("retired now") and removed only
      :data:`RETIRED_GRACE_S` later, so a reader that started on it finishes;
    - another writer's temporary folder is left alone unless abandoned for
      :data:`ABANDONED_S`.

    Returns False if the folder is not writable: the snapshot is a cache, the dashboard
    works without it.
    """
    generation = f"g{time.time_ns()}-{uuid.uuid4().hex[:8]}"
    temporary = folder / f"{_TEMP_PREFIX}{generation}"
    try:
        temporary.mkdir(parents=True, exist_ok=False)
        for key, table in snapshot.tables.items():
            _write_table(table, temporary / _file_name(key))
        _write_table(snapshot.responses, temporary / "responses.parquet")
        _write_table(snapshot.scores, temporary / "scores.parquet")
        _write_table(snapshot.quiz, temporary / "quiz.parquet")
        (temporary / "meta.json").write_text(
            json.dumps({"format": SNAPSHOT_FORMAT, "code": code_signature(),
                        "tables": list(snapshot.tables),
                        "marks": {pid: list(mark) for pid, mark in snapshot.marks.items()}}),
            encoding="utf-8")
        os.rename(temporary, folder / generation)
        current = folder / "CURRENT"
        pointer = folder / f"CURRENT.{generation}"
        pointer.write_text(generation, encoding="utf-8")
        previous = _read_pointer(current)
        os.replace(pointer, current)
        if held is not None:
            _remember(folder, _generation_stamp(folder, generation), held)
        if previous and previous != generation:
            with contextlib.suppress(OSError):
                os.utime(folder / previous)  # retired now: its readers get the grace time
        _remove_old(folder, keep={generation, _read_pointer(current), PAGES_FOLDER})
        return True
    except (OSError, pa.ArrowException):
        # Not writable, or a column Parquet cannot hold as it is (an imported prop that
        # is a number here and a text there): no snapshot rather than an altered one.
        shutil.rmtree(temporary, ignore_errors=True)
        return False


def _read_pointer(current: Path) -> str:
    try:
        return current.read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _remove_old(folder: Path, keep: set[str]) -> None:
    """Remove generations retired more than the grace time ago, and abandoned temporary
    folders; never the current one or another writer's work in progress."""
    now = time.time()
    for old in folder.iterdir():
        if old.name in keep or not old.is_dir():
            continue
        try:
            age = now - old.stat().st_mtime
        except OSError:
            continue  # removed by another writer meanwhile
        limit = ABANDONED_S if old.name.startswith(_TEMP_PREFIX) else RETIRED_GRACE_S
        if age > limit:
            shutil.rmtree(old, ignore_errors=True)
    for stray in folder.glob("CURRENT.*"):  # a pointer whose writer died before renaming
        with contextlib.suppress(OSError):
            if now - stray.stat().st_mtime > ABANDONED_S:
                stray.unlink()


def discard(engine: Engine, study_id: str | None = None) -> None:
    """Remove the snapshot of one study (or of every study) of this database."""
    root = snapshot_folder(engine)
    if root is None or not root.exists():
        return
    target = root if study_id is None else _study_folder(root, study_id)
    forget(target)
    shutil.rmtree(target, ignore_errors=True)


# ------------------------------------------------------------------ loading


def _without(frame: pd.DataFrame, ids: set[str]) -> pd.DataFrame:
    if not ids or frame.empty:
        return frame
    return frame[~derive.member_mask(frame["participant_id"], ids)]


def _combine(old: pd.DataFrame, new: pd.DataFrame, drop: set[str],
             columns: list[str]) -> pd.DataFrame:
    kept = _without(old, drop)
    parts = [part for part in (kept, new) if len(part)]
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else \
        parts[0].reset_index(drop=True)


def _assemble(records: StudyData, snapshot: _Snapshot) -> StudyBundle:
    data = StudyData(
        study=records.study,
        participants=records.participants,
        assignments=records.assignments,
        events=records.events.iloc[0:0],
        responses=snapshot.responses,
        attributes=records.attributes,
    )
    derive.adopt_prepared(with_game(data), snapshot.tables)
    return StudyBundle(data, snapshot.scores, snapshot.quiz)


def _build(engine: Engine, study_id: str,
           marks: dict[str, Mark]) -> tuple[StudyBundle, _Snapshot]:
    """The whole study read and derived from the database, and its snapshot."""
    bundle = load_bundle(engine, study_id)
    tables = derive.prepared_tables(bundle.data)  # load_bundle gave it its game
    return bundle, _Snapshot(marks, tables, bundle.data.responses, bundle.scores, bundle.quiz)


def load_prepared(
    engine: Engine, study_id: str, *, save: bool | Literal["background"] = True
) -> SnapshotLoad:
    """The study's :class:`StudyBundle`, prepared (every page only aggregates), by way of
    its snapshot (read, refreshed or built; saved again when it changed, see
    :func:`_save` for ``save``)."""
    started = time.perf_counter()
    root = snapshot_folder(engine)
    folder = None if root is None else _study_folder(root, study_id)
    with ThreadPoolExecutor(max_workers=4) as pool:
        held = _held_entry(folder)  # this process's copy of the current snapshot
        pending: _PendingRead | _Held | None = \
            _Held(*held) if held is not None else _start_read(folder, pool)
        read_at = time.time()
        marks = participant_marks(engine, study_id)
        changed = dropped = set()
        if pending is not None:
            changed = {pid for pid, mark in marks.items() if pending.marks.get(pid) != mark}
            dropped = {pid for pid in pending.marks if pid not in marks}
        rebuild = pending is None or len(changed) > REBUILD_SHARE * max(len(marks), 1)
        if not rebuild:
            # Fresh participants and assignments; events and answers of changed testers.
            records = with_game(load_study_data(engine, study_id, records_of=changed))
            try:
                old = pending.result() if pending is not None else None
            except _READ_ERRORS:
                old = None
            if old is not None and not set(derive.prepared_keys(records)) <= set(old.tables):
                old = None  # written without a table the study's game reads: rebuild
    if rebuild or old is None:
        bundle, snapshot = _build(engine, study_id, marks)
        written = _save(folder, snapshot, save)
        return _loaded(bundle, "built", len(changed) if pending else len(marks),
                       len(dropped), written, started, marks, read_at)
    if isinstance(pending, _PendingRead) and folder is not None:
        _remember(folder, pending.stamp, old)
    if not changed and not dropped:
        return _loaded(_assemble(records, old), "read", 0, 0, False, started, marks, read_at)
    replaced = changed | dropped
    fresh_tables = derive.prepared_tables(records)
    scores, quiz = scores_and_quiz(records.responses, parsed_definitions(records.study))
    snapshot = _Snapshot(
        marks=marks,
        tables=derive.splice_prepared(old.tables, fresh_tables, replaced),
        responses=_combine(old.responses, records.responses, replaced,
                           list(records.responses.columns)),
        scores=_combine(old.scores, scores, replaced, SCORE_COLUMNS),
        quiz=_combine(old.quiz, quiz, replaced, QUIZ_COLUMNS),
    )
    if isinstance(pending, _Held) and save == "background" and not dropped \
            and folder is not None and _written_lately(folder):
        # Refreshed from the copy in memory shortly after this process wrote the files:
        # the copy (newer than the files, its marks say how) serves this process; the
        # files are rewritten at the next refresh after REWRITE_AFTER_S. A dropped
        # tester is always written out at once.
        _remember(folder, pending.stamp, snapshot)
        save = False
    written = _save(folder, snapshot, save)
    return _loaded(_assemble(records, snapshot), "refreshed", len(changed), len(dropped),
                   written, started, marks, read_at)


def _loaded(bundle: StudyBundle, how: str, changed: int, dropped: int, written: bool,
            started: float, marks: dict[str, Mark], read_at: float) -> SnapshotLoad:
    records = records_digest(bundle.data)  # the records are the bundle's
    return SnapshotLoad(bundle, how, changed, dropped, written,
                        time.perf_counter() - started, digest_of(marks, records),
                        marks, records, read_at)


def refresh(engine: Engine, study_id: str) -> SnapshotLoad:
    """Bring the study's snapshot up to date now (after a bulk write: demo, import), and
    the page results kept with it (:func:`playtest.page_results.precompute`)."""
    from playtest.page_results import facts_of, precompute  # it reads this module

    loaded = load_prepared(engine, study_id, save=True)
    if loaded.bundle.data.participants.empty:
        return loaded  # nothing to show yet: the pages say so without computing
    precompute(engine, study_id, loaded.bundle, loaded.state, facts_of(loaded))
    return loaded

