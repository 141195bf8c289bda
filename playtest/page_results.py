"""A designer page's results on the whole study, kept on disk with the study's snapshot.

The snapshot (:mod:`playtest.study_snapshot`) spares the dashboard re-deriving a big
study; what is left of a first visit is the page's own analytics (the confusion points:
about 1.3 s of CPU at 10,000 testers; the design plan: about 1.6 s). Those results
depend only on the study's data and on the code, so they are kept too, one file per page:

- **which data**: the file's name carries the study's *state*
  (:func:`playtest.study_state.state_digest`: every tester's change mark, the records
  read fresh on every load, the code). New data, an edited study or an upgrade make
  another state: the old file is simply never asked for again, and removed after
  :data:`STALE_GRACE_S`;
- **several processes**: a file is written under a temporary name and renamed whole, so a
  reader finds a complete file or none; two processes writing the same state write the
  same results, and the last rename wins;
- **several machines**: ``$PLAYTEST_CACHE_DIR`` may be shared; every file is signed with
  a key derived from the database's own secret (:func:`playtest.storage.sign_in.cookie_key`),
  and a file without a valid signature is ignored, so nothing but this app's processes
  can plant a result (the files are pickles: never loaded unsigned);
- **filters**: only the unfiltered page is kept; a filtered one is computed as before.

``playtest demo`` and ``playtest import`` fill the files as they refresh the snapshot
(:func:`precompute`), so a designer's first visit after them only reads and draws. It is
a cache: deleting it loses nothing, and ``playtest participant delete`` removes it with
the snapshot.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import os
import pickle
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from analytics import confusion, experiments, funnel, game_analytics
from analytics.data import StudyData
from analytics.metrics import Metric, MetricError, metric_by_key
from analytics.report import build_report
from playtest.study_data import StudyBundle
from playtest.study_state import state_digest

#: A result of another state is removed once untouched this long (a reader that started
#: on it finishes first).
STALE_GRACE_S = 120.0
_TEMP_PREFIX = ".tmp-"
_MAC_BYTES = 32


# ------------------------------------------------------------------ the pages' results


def confusion_tables(data: StudyData) -> dict[str, Any]:
    """What the confusion page shows (its game's plug-in aside: see :func:`with_game`)."""
    game = game_analytics.for_study(data)
    return {
        "points": confusion.confusion_points(data),
        "charts": {chart.name: chart.build(data) for chart in game.charts},
        "frames": {section.key: section.frame(data) for section in game.sections
                   if section.frame is not None},
        "aftermath": confusion.message_aftermath(data),
        "overlay": confusion.rules_overlay_use(data),
    }


def with_game(tables: dict[str, Any], data: StudyData) -> dict[str, Any]:
    """The confusion page's tables with the study's game plug-in (functions: not kept)."""
    return {**tables, "game": game_analytics.for_study(data)}


#: The pages whose whole-study results are kept: name → computation on the bundle.
PAGES: dict[str, Callable[[StudyBundle], Any]] = {
    "confusion": lambda b: confusion_tables(b.data),
    "report": lambda b: build_report(b.data, b.scores, b.quiz),
    "funnel": lambda b: funnel.funnel(b.data),
    "experiments": lambda b: experiments.analyze_experiments(b.data, b.scores, b.quiz),
}


class _Pickler(pickle.Pickler):
    """A metric (it holds its values function, a closure for survey scores) is kept as
    its key and found again by it (:func:`analytics.metrics.metric_by_key`)."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Metric):
            try:
                same = metric_by_key(obj.key) == obj  # every field but the function
            except MetricError:
                same = False
            if not same:
                raise pickle.PicklingError(f"metric {obj.key!r} cannot be found by its key")
            return ("metric", obj.key)
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        kind, key = pid
        if kind != "metric":
            raise pickle.UnpicklingError(f"unknown reference {kind!r}")
        return metric_by_key(key)


def _dumps(value: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


# ------------------------------------------------------------------ the store


def _signing_key(engine: Engine) -> bytes:
    from playtest.storage.sign_in import cookie_key

    return hmac.new(cookie_key(engine), b"playtest page results", hashlib.sha256).digest()


@dataclass(frozen=True)
class PageStore:
    """The page results of one study in one state (``folder`` None: nowhere to keep
    them, e.g. an in-memory database; then nothing is kept)."""

    folder: Path | None
    state: str
    key: bytes

    def _path(self, page: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{page}-{self.state}.pkl"

    def _mac(self, page: str, payload: bytes) -> bytes:
        return hmac.new(self.key, f"{page}|{self.state}|".encode() + payload,
                        hashlib.sha256).digest()

    def get(self, page: str) -> Any:
        """The kept result of ``page`` in this state, or None (none, or not signed by
        this database's key, or unreadable)."""
        if self.folder is None:
            return None
        try:
            blob = self._path(page).read_bytes()
        except OSError:
            return None
        mac, payload = blob[:_MAC_BYTES], blob[_MAC_BYTES:]
        if len(mac) != _MAC_BYTES or not hmac.compare_digest(mac, self._mac(page, payload)):
            return None
        try:
            return _Unpickler(io.BytesIO(payload)).load()  # signed by this app's key above
        except Exception:  # noqa: BLE001 - e.g. a class that changed: recompute
            return None

    def put(self, page: str, value: Any, *, background: bool = False) -> bool:
        """Keep ``value`` as ``page``'s result (in a background thread: the page need not
        wait). Returns whether it was written (or the write started)."""
        if self.folder is None:
            return False
        try:
            payload = _dumps(value)
        except (pickle.PicklingError, AttributeError, TypeError):
            return False  # e.g. a result holding a function: computed on each load
        if background:
            writer = threading.Thread(target=self._write, args=(page, payload), daemon=True,
                                      name="page-results-writer")
            _WRITERS.append(writer)
            writer.start()
            return True
        return self._write(page, payload)

    def _write(self, page: str, payload: bytes) -> bool:
        assert self.folder is not None
        temporary = self.folder / f"{_TEMP_PREFIX}{uuid.uuid4().hex}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(temporary, "xb") as handle:
                handle.write(self._mac(page, payload))
                handle.write(payload)
            os.replace(temporary, self._path(page))
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()
            return False  # not writable: a cache, the page works without it
        _remove_stale(self.folder, keep=self.state)
        return True


_WRITERS: list[threading.Thread] = []


def wait_for_writes() -> None:
    """Wait until background writes started by this process are done."""
    while _WRITERS:
        _WRITERS.pop().join()


def _remove_stale(folder: Path, keep: str) -> None:
    """Remove results of other states (and temporary files of writers that died) not
    touched for :data:`STALE_GRACE_S`; never this state's."""
    now = time.time()
    for path in folder.iterdir():
        if path.name.endswith(f"-{keep}.pkl"):
            continue
        with contextlib.suppress(OSError):
            if now - path.stat().st_mtime > STALE_GRACE_S:
                path.unlink()


def store_for(engine: Engine, study_id: str, state: str) -> PageStore:
    """The page results of ``study_id`` in ``state``, next to its snapshot."""
    from playtest.study_snapshot import PAGES_FOLDER, snapshot_folder, study_folder

    root = snapshot_folder(engine)
    if root is None:
        return PageStore(None, state, b"")
    return PageStore(study_folder(root, study_id) / PAGES_FOLDER, state, _signing_key(engine))


@dataclass(frozen=True)
class StudyHead:
    """What a page needs before its results: the records read fresh on every load
    (participants, assignments, attributes, the study record: no events, no answers),
    the study's state, and the page results kept for it. When a page's result is kept,
    the page draws from this alone: the snapshot's tables are not read."""

    data: StudyData
    state: str
    store: PageStore
    read: dict[str, Any] = field(default_factory=dict, compare=False)

    def result(self, page: str) -> Any:
        """The kept result of ``page`` (None if there is none), read once."""
        if page not in self.read:
            self.read[page] = self.store.get(page)
        return self.read[page]


def load_head(engine: Engine, study_id: str) -> StudyHead:
    """The study's :class:`StudyHead`: its testers' marks and records (two aggregate
    queries and the small tables), so the same state as :func:`load_prepared` gives."""
    from playtest.storage.exchange import load_study_data
    from playtest.study_snapshot import participant_marks

    marks = participant_marks(engine, study_id)
    records = load_study_data(engine, study_id, records_of=set())
    state = state_digest(marks, records)
    return StudyHead(records, state, store_for(engine, study_id, state))


def kept(store: PageStore | None, page: str, compute: Callable[[], Any], *,
         background: bool = True) -> Any:
    """``page``'s result from ``store``, or computed (and then kept)."""
    if store is None:
        return compute()
    found = store.get(page)
    if found is not None:
        return found
    value = compute()
    store.put(page, value, background=background)
    return value


def precompute(engine: Engine, study_id: str, bundle: StudyBundle, state: str) -> list[str]:
    """Compute and keep every page of :data:`PAGES` not yet kept in ``state`` (after a
    bulk write, so the dashboard's first visit only reads). Returns the pages computed."""
    from playtest.survey_items import annotate

    store = store_for(engine, study_id, state)
    if store.folder is None:
        return []
    annotate(bundle.data)  # as the dashboard does: free-text items named
    done = []
    for page, compute in PAGES.items():
        if store.get(page) is None:
            store.put(page, compute(bundle))
            done.append(page)
    return done
