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

**After new data** (testers play while the designer watches), no result is kept for the
new state yet, and recomputing a big study's page takes seconds. From
:data:`BACKGROUND_FROM_TESTERS` testers on, the page then shows its latest kept result at
once, labelled (:func:`as_of_notice`: as of when its data was read, how many testers have
new or changed data since), while one background thread per state (a lock file keeps
other processes from starting another) refreshes the snapshot and computes every page;
the page redraws when it is done. A result is only shown so if no tester it counted was
removed since (a deleted tester's data is never on a page), and only from the same code.
``playtest report`` reads the kept plan when it is current (:func:`plan`).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import os
import pickle
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from analytics import (
    confusion,
    expectation,
    experiments,
    figures,
    funnel,
    game_analytics,
    questionnaires,
)
from analytics.data import StudyData
from analytics.metrics import Metric, MetricError, metric_by_key
from analytics.report import build_report
from playtest.study_data import StudyBundle
from playtest.study_state import code_signature, digest_of, records_digest

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


def questionnaire_tables(bundle: StudyBundle) -> dict[str, Any]:
    """What the questionnaires page shows before any choice: no experiment split, the
    first instrument's distribution, the first item's answers, free text unsearched.
    (Another choice is computed on the study's tables, as a filter is.)"""
    from playtest.study_data import unscorable_answers

    data, scores, quiz = bundle.data, bundle.scores, bundle.quiz
    instruments = sorted(scores["instrument"].unique()) if len(scores) else []
    items = sorted(data.responses["item"].unique()) if len(data.responses) else []
    text_items = data.study.get("text_items")
    return {
        "unscored": unscorable_answers(data),
        "summary": questionnaires.instrument_summary(scores, None),
        "instruments": instruments,
        "distribution": {name: figures.score_distribution_figure(scores, name)
                         for name in instruments[:1]},
        "expectation": expectation.expectation_vs_experience(data.responses, scores),
        "quiz": questionnaires.quiz_correctness(quiz, None),
        "items": items,
        "item": {item: questionnaires.item_distribution(data.responses, item, None)
                 for item in items[:1]},
        "text_items": text_items,
        "free_text": questionnaires.free_text(data.responses, None, None, text_items),
        "themes": questionnaires.theme_counts(data.responses, text_items,
                                              data.study.get("text_polarity"),
                                              data.study.get("text_themes")),
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
    "questionnaires": questionnaire_tables,
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
class StateFacts:
    """What a state was made of, kept with its results (file ``meta-<state>.pkl``) so a
    later state can say what changed since: each tester's change mark, the digest of the
    records read fresh (:func:`playtest.study_state.records_digest`), when the data was
    read, and the code's signature."""

    marks: dict[str, tuple[int, int, int]]
    records: str
    read_at: float
    code: str


@dataclass(frozen=True)
class Earlier:
    """A page's result kept for an earlier state of the study, with what changed since:
    ``changed`` testers whose data is new or changed (marks), and whether the records
    read fresh (the study's settings, participants, assignments, attributes) changed.
    ``read_at``: when that state's data was read (epoch seconds)."""

    value: Any
    state: str
    read_at: float
    changed: int
    records_changed: bool


@dataclass(frozen=True)
class PageStore:
    """The page results of one study in one state (``folder`` None: nowhere to keep
    them, e.g. an in-memory database; then nothing is kept). ``facts``: what the state is
    made of (kept with the first result, see :class:`StateFacts`)."""

    folder: Path | None
    state: str
    key: bytes
    facts: StateFacts | None = field(default=None, compare=False)

    def _path(self, page: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{page}-{self.state}.pkl"

    def _latest_path(self, page: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{_LATEST_PREFIX}{page}"

    def of_state(self, state: str) -> PageStore:
        """The same study's results in another state."""
        return PageStore(self.folder, state, self.key)

    def earlier(self, page: str, facts: StateFacts) -> Earlier | None:
        """``page``'s latest result kept for another state than this one, and what
        changed since (``facts``: this state's), or None: none kept, kept by other code,
        its facts unreadable, or a tester it counted is gone since (deleted: a result
        that still counts them is never shown)."""
        if self.folder is None:
            return None
        try:
            state = self._latest_path(page).read_text(encoding="utf-8").strip()
        except OSError:
            return None
        if not state or state == self.state or not _STATE_NAME.fullmatch(state):
            return None
        other = self.of_state(state)
        before = other.get(_META)
        if not isinstance(before, StateFacts) or before.code != facts.code:
            return None
        if any(pid not in facts.marks for pid in before.marks):
            return None  # a tester was removed since
        value = other.get(page)
        if value is None:
            return None
        changed = sum(1 for pid, mark in facts.marks.items() if before.marks.get(pid) != mark)
        return Earlier(value, state, before.read_at, changed, before.records != facts.records)

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
            writer = threading.Thread(target=self._write_result, args=(page, payload),
                                      daemon=True, name="page-results-writer")
            _WRITERS.append(writer)
            writer.start()
            return True
        return self._write_result(page, payload)

    def _write_result(self, page: str, payload: bytes) -> bool:
        """Write a page's result, this state's facts (once) and the page's pointer to
        its latest state (what :meth:`earlier` reads)."""
        if self.facts is not None and not self._path(_META).exists():
            self._write(_META, _dumps(self.facts))
        if not self._write(page, payload):
            return False
        if self.facts is not None:  # a state without facts cannot say what changed since
            _replace_text(self._latest_path(page), self.state)
        return True

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
#: Each page's pointer to the state of its latest kept result: ``latest-<page>``.
_LATEST_PREFIX = "latest-"
#: The pseudo-page of a state's :class:`StateFacts`.
_META = "meta"
_STATE_NAME = re.compile(r"[0-9a-f]{32}")


def _replace_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (a reader sees the old text or the new one)."""
    temporary = path.with_name(f"{_TEMP_PREFIX}{uuid.uuid4().hex}")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()


def wait_for_writes() -> None:
    """Wait until background writes started by this process are done."""
    while _WRITERS:
        _WRITERS.pop().join()


def _remove_stale(folder: Path, keep: str) -> None:
    """Remove results of other states (and temporary files of writers that died) not
    touched for :data:`STALE_GRACE_S`; never this state's, nor those of a state a page's
    latest pointer names (shown while a newer one is computed)."""
    now = time.time()
    pointed = {keep}
    for pointer in folder.glob(f"{_LATEST_PREFIX}*"):
        with contextlib.suppress(OSError):
            pointed.add(pointer.read_text(encoding="utf-8").strip())
    for path in folder.iterdir():
        if path.name.startswith(_LATEST_PREFIX) or any(
                path.name.endswith(f"-{state}.pkl") for state in pointed):
            continue
        # an update's lock file lives as long as the update may run
        grace = UPDATE_ABANDONED_S if path.name.startswith(_LOCK_PREFIX) else STALE_GRACE_S
        with contextlib.suppress(OSError):
            if now - path.stat().st_mtime > grace:
                path.unlink()


def store_for(engine: Engine, study_id: str, state: str,
              facts: StateFacts | None = None) -> PageStore:
    """The page results of ``study_id`` in ``state``, next to its snapshot."""
    from playtest.study_snapshot import PAGES_FOLDER, snapshot_folder, study_folder

    root = snapshot_folder(engine)
    if root is None:
        return PageStore(None, state, b"", facts)
    return PageStore(study_folder(root, study_id) / PAGES_FOLDER, state, _signing_key(engine),
                     facts)


def facts_of(loaded: Any) -> StateFacts:
    """The :class:`StateFacts` of a :class:`playtest.study_snapshot.SnapshotLoad`."""
    return StateFacts(dict(loaded.marks), loaded.records, loaded.read_at, code_signature())


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

    @property
    def facts(self) -> StateFacts:
        assert self.store.facts is not None  # load_head gives every head its facts
        return self.store.facts

    def result(self, page: str) -> Any:
        """The kept result of ``page`` (None if there is none yet: looked for again on
        the next call, as a background update may keep it meanwhile)."""
        if page not in self.read:
            found = self.store.get(page)
            if found is None:
                return None
            self.read[page] = found
        return self.read[page]


def load_head(engine: Engine, study_id: str) -> StudyHead:
    """The study's :class:`StudyHead`: its testers' marks and records (two aggregate
    queries and the small tables), so the same state as :func:`load_prepared` gives."""
    from playtest.storage.exchange import load_study_data
    from playtest.study_snapshot import participant_marks, with_game

    read_at = time.time()
    marks = participant_marks(engine, study_id)
    records = with_game(load_study_data(engine, study_id, records_of=set()))
    facts = StateFacts(marks, records_digest(records), read_at, code_signature())
    state = digest_of(marks, facts.records)
    return StudyHead(records, state, store_for(engine, study_id, state, facts))


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


def precompute(engine: Engine, study_id: str, bundle: StudyBundle, state: str,
               facts: StateFacts | None = None) -> list[str]:
    """Compute and keep every page of :data:`PAGES` not yet kept in ``state`` (after a
    bulk write, so the dashboard's first visit only reads). Returns the pages computed."""
    from playtest.survey_items import annotate

    store = store_for(engine, study_id, state, facts)
    if store.folder is None:
        return []
    annotate(bundle.data)  # as the dashboard does: free-text items named
    done = []
    values: dict[str, Any] = {}
    for page in sorted(PAGES, key=lambda name: name == "report"):  # the plan last
        values[page] = store.get(page)
        if values[page] is None:
            if page == "report":  # its confusion points and experiments are the pages'
                values[page] = _report_reusing(bundle, values.get("confusion"),
                                               values.get("experiments"))
            else:
                values[page] = PAGES[page](bundle)
            store.put(page, values[page])
            done.append(page)
    return done


def _report_reusing(bundle: StudyBundle, confusion_page: dict[str, Any] | None,
                    results: list[experiments.ExperimentResult] | None) -> dict[str, Any]:
    """``PAGES["report"]``, with the confusion points and experiment results of the
    confusion and experiments pages of the same data (the same calls: the study's game,
    seed 0) instead of computing them again."""
    return build_report(bundle.data, bundle.scores, bundle.quiz,
                        points=None if confusion_page is None else confusion_page["points"],
                        experiment_results=results)


# ------------------------------------------------------------------ the plan, for `playtest report`


@dataclass(frozen=True)
class Plan:
    """The UX design plan and its charts; ``kept``: read from the results kept for the
    study's current state (else computed, and the plan kept)."""

    report: dict[str, Any]
    charts: dict[str, Any]
    kept: bool


def plan(engine: Engine, study_id: str) -> Plan:
    """The study's plan and charts as ``playtest report`` writes them: from the page
    results kept for the study's current state when the plan, the funnel and the
    confusion page's charts are all kept (the study's tables are then not read), else
    computed by way of its snapshot. Either way the same values: the kept ones are the
    same computations on the same state."""
    from analytics.report import report_figures, report_figures_of
    from playtest.study_snapshot import load_prepared
    from playtest.survey_items import annotate

    head = load_head(engine, study_id)
    report, table, confusion_page = (head.result(page)
                                     for page in ("report", "funnel", "confusion"))
    if report is not None and table is not None and confusion_page is not None:
        try:
            return Plan(_with_family(engine, study_id, report),
                        report_figures_of(report, table, confusion_page["charts"]), kept=True)
        except KeyError:
            pass  # a chart the plan shows that the confusion page has not: draw it
    loaded = load_prepared(engine, study_id)
    annotate(loaded.bundle.data)
    store = store_for(engine, study_id, loaded.state, facts_of(loaded))
    report = kept(store, "report", lambda: PAGES["report"](loaded.bundle), background=False)
    return Plan(_with_family(engine, study_id, report),
                report_figures(loaded.bundle.data, report), kept=False)


def _with_family(engine: Engine, study_id: str, report: dict[str, Any]) -> dict[str, Any]:
    """The plan with its study family's record (``family``: what changed since the
    previous version, did it work?), when the study has follow-ups to compare. Not kept
    with the study's results: it reads the other versions' data."""
    from playtest.family_results import family_results
    from playtest.storage import repository as repo

    study = repo.get_study(engine, study_id)
    found = None if study is None else family_results(engine, study)
    return report if found is None else {**report, "family": found.to_json()}


# ------------------------------------------------------------------ updating in the background

#: From this many testers on, a page whose whole-study result is not kept for the study's
#: current state (new data since) shows its latest kept result, labelled with when its
#: data was read and how many testers changed since, while the current state's results
#: are computed in a background thread (:func:`shown_while_updating`); below it,
#: computing at once takes well under the dashboard's 2 s, so the page waits for it.
BACKGROUND_FROM_TESTERS = 2000
#: A lock file of an update older than this is taken to be of a process that died.
UPDATE_ABANDONED_S = 600.0
_LOCK_PREFIX = ".updating-"
_UPDATES: dict[tuple[str, str], threading.Thread] = {}
_FAILED: dict[tuple[str, str], str] = {}
_UPDATES_LOCK = threading.Lock()


def _lock_path(store: PageStore) -> Path:
    assert store.folder is not None
    return store.folder / f"{_LOCK_PREFIX}{store.state}"


def updating(store: PageStore) -> bool:
    """Whether the results of ``store``'s state are being computed (by a thread of this
    process, or by another process: its lock file is fresh)."""
    if store.folder is None:
        return False
    thread = _UPDATES.get((str(store.folder), store.state))
    if thread is not None and thread.is_alive():
        return True
    try:
        return time.time() - _lock_path(store).stat().st_mtime < UPDATE_ABANDONED_S
    except OSError:
        return False


def _take_lock(store: PageStore) -> bool:
    """Create the state's lock file, or take over an abandoned one; False: another
    process is computing this state."""
    path = _lock_path(store)
    try:
        store.folder.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
        return True
    except FileExistsError:
        try:
            if time.time() - path.stat().st_mtime < UPDATE_ABANDONED_S:
                return False
            path.unlink()
        except OSError:
            return False
        return _take_lock(store)
    except OSError:
        return False


@dataclass(frozen=True)
class UpdateTook:
    """What one background update took: wall seconds, its thread's CPU seconds."""

    seconds: float
    cpu: float


#: The updates this process ran, latest last (for the dashboard benchmark).
UPDATES_TOOK: list[UpdateTook] = []


def _update(engine: Engine, study_id: str, store: PageStore) -> None:
    from playtest.study_snapshot import load_prepared

    key = (str(store.folder), store.state)
    started, cpu = time.perf_counter(), time.thread_time()
    try:
        # the snapshot (written meanwhile, in its own thread), then every page of the
        # state it reads: what `playtest demo` leaves (study_snapshot.refresh)
        loaded = load_prepared(engine, study_id, save="background")
        if not loaded.bundle.data.participants.empty:
            precompute(engine, study_id, loaded.bundle, loaded.state, facts_of(loaded))
    except Exception as err:  # noqa: BLE001 - the page computes at once then, and says
        _FAILED[key] = f"{type(err).__name__}: {err}"
    finally:
        with contextlib.suppress(OSError):
            _lock_path(store).unlink()
        UPDATES_TOOK.append(UpdateTook(time.perf_counter() - started,
                                       time.thread_time() - cpu))


def start_update(engine: Engine, study_id: str, store: PageStore) -> bool:
    """Start computing the study's snapshot and page results for its current data in a
    background thread, unless that is under way already (here or in another process
    sharing the cache folder). Returns whether an update is under way."""
    if store.folder is None:
        return False
    key = (str(store.folder), store.state)
    with _UPDATES_LOCK:
        if key in _FAILED:
            return False
        thread = _UPDATES.get(key)
        if thread is not None and thread.is_alive():
            return True
        if not _take_lock(store):
            return updating(store)
        thread = threading.Thread(target=_update, args=(engine, study_id, store),
                                  daemon=True, name="page-results-update")
        _UPDATES[key] = thread
        thread.start()
        return True


def wait_for_updates() -> None:
    """Wait until background updates started by this process are done (and their
    writes: results and snapshot)."""
    from playtest.study_snapshot import wait_for_writes as wait_for_snapshot_writes

    for thread in list(_UPDATES.values()):
        thread.join()
    wait_for_writes()
    wait_for_snapshot_writes()


def shown_while_updating(engine: Engine, study_id: str, head: StudyHead,
                         page: str) -> Earlier | None:
    """``page``'s latest kept result of an earlier state, to show (labelled) while the
    current state's results are computed in the background, which this starts; or None:
    compute the page now (a small study, nothing kept earlier, a tester removed since,
    or an update of this state that failed in this process)."""
    if len(head.data.participants) < BACKGROUND_FROM_TESTERS or head.store.folder is None:
        return None
    earlier = head.store.earlier(page, head.facts)
    if earlier is None or not start_update(engine, study_id, head.store):
        return None
    return earlier


def as_of_notice(earlier: Earlier) -> str:
    """What a page shown from :func:`shown_while_updating` says about its numbers.

    >>> print(as_of_notice(Earlier(None, "s", 0.0, 12, True)))
    These results are as of 1970-01-01 00:00:00 UTC: 12 testers have new or changed data since. Updating them to the current data; the page redraws by itself when done.
    >>> print(as_of_notice(Earlier(None, "s", 0.0, 0, True)).split(". ")[0])
    These results are as of 1970-01-01 00:00:00 UTC: the study's settings or testers' records changed since
    """
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(earlier.read_at))
    if earlier.changed:  # new testers change the records too: the count says more
        since = (f"{earlier.changed} tester{'s have' if earlier.changed != 1 else ' has'} "
                 "new or changed data since")
    else:
        since = "the study's settings or testers' records changed since"
    return (f"These results are as of {when}: {since}. Updating them to the current data; "
            "the page redraws by itself when done.")
