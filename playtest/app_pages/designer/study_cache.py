"""A study's data as the designer pages read it, cached per process and keyed by the
study's fingerprint (new data, or another database, is a new entry, never a stale one).

:func:`head` gives the study's records and state (no events, no answers): enough for the
filters and for a page whose result on the whole study is kept. :func:`bundle` gives the
prepared tables (every page then only aggregates), with the study's kept page results and
each page's computations on it (:class:`Loaded`). :func:`whole_study` is a page's result
on the whole study: kept with the snapshot for the study's state, or computed and kept.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import streamlit as st

from playtest import page_results, runtime
from playtest.storage import repository as repo
from playtest.study_data import StudyBundle
from playtest.study_snapshot import load_prepared
from playtest.survey_items import annotate

T = TypeVar("T")


def _memo(computed: dict[tuple[Any, ...], Any], key: tuple[Any, ...],
          compute: Callable[[], T]) -> T:
    if key not in computed:
        computed[key] = compute()
    return cast(T, computed[key])


@dataclass(frozen=True)
class Loaded:
    """A study's bundle, the page results kept for the state it was read in, and the
    pages' computations on it: a re-render only draws. The bundle's frames are never
    changed, so a result stays valid as long as the bundle (which the fingerprint
    replaces when the data changes)."""

    bundle: StudyBundle
    store: page_results.PageStore | None
    computed: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False,
                                                 repr=False)

    def memo(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        return _memo(self.computed, key, compute)

    def kept(self, page: str, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """:meth:`memo` of a result on the whole study, also kept on disk with the
        study's snapshot: another process, or this one after a restart, reads it."""
        return self.memo(key, lambda: cast(T, page_results.kept(self.store, page, compute)))


@dataclass(frozen=True)
class Head:
    """The study's :class:`~playtest.page_results.StudyHead` and computations on it."""

    head: page_results.StudyHead
    computed: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False,
                                                 repr=False)

    def memo(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        return _memo(self.computed, key, compute)


@st.cache_resource(ttl=600, max_entries=4, show_spinner="Loading the study's data…")
def _bundle(database_url: str, study_id: str, fingerprint: tuple[int, ...]) -> Loaded:
    # Every argument is part of the cache key (Streamlit leaves out only names starting
    # with "_"). Prepared by way of the study's snapshot on disk: only testers whose data
    # changed since it was written are derived again; the refreshed snapshot is written
    # in the background, so the page need not wait.
    loaded = load_prepared(runtime.database(), study_id, save="background")
    annotate(loaded.bundle.data)
    store = page_results.store_for(runtime.database(), study_id, loaded.state,
                                   page_results.facts_of(loaded))
    return Loaded(loaded.bundle, store)


def _fingerprint(study_id: str) -> tuple[int, ...]:
    """The study's data fingerprint and a checksum of its settings: an experiment added
    to a running study (the Studies or the Confusion page) shows at once."""
    engine = runtime.database()
    study = repo.get_study(engine, study_id)
    settings = zlib.crc32(json.dumps(study.config if study else None, sort_keys=True,
                                     default=str).encode())
    return (*repo.study_fingerprint(engine, study_id), settings)


def bundle(study_id: str) -> Loaded:
    # Reloaded when the study's data changes (a cheap fingerprint), not on a timer.
    return _bundle(runtime.database_url(), study_id, _fingerprint(study_id))


@st.cache_resource(ttl=600, max_entries=4, show_spinner=False)
def _head(database_url: str, study_id: str, fingerprint: tuple[int, ...]) -> Head:
    # The same key as _bundle: the records, the study's state and its kept page results.
    return Head(page_results.load_head(runtime.database(), study_id))


def head_of(study_id: str) -> Head:
    return _head(runtime.database_url(), study_id, _fingerprint(study_id))


def head(study_id: str) -> page_results.StudyHead:
    """The study's records and state (no events, no answers)."""
    return head_of(study_id).head


def whole_study(study_id: str, page: str, compute: Callable[[StudyBundle], T]) -> T:
    """``page``'s result on the whole study (see :func:`whole_study_as_of`)."""
    return whole_study_as_of(study_id, page, compute)[0]


def whole_study_as_of(study_id: str, page: str,
                      compute: Callable[[StudyBundle], T]) -> tuple[T, str]:
    """``page``'s result on the whole study: kept with the snapshot for the study's
    current state (then the study's tables are not even read), or computed on the bundle
    and kept; and the state it is of. After new data in a big study, the latest kept
    result is shown at once, labelled as of when, while the current one is computed in
    the background; the page reruns by itself when it is ready."""
    h = head(study_id)
    found = h.result(page)
    if found is not None:
        return cast(T, found), h.state
    earlier = page_results.shown_while_updating(runtime.database(), study_id, h, page)
    if earlier is not None:
        st.info(page_results.as_of_notice(earlier), icon=":material/update:")
        _rerun_when_updated(h.store)
        return cast(T, earlier.value), earlier.state
    loaded = bundle(study_id)
    return loaded.kept(page, (page,), lambda: compute(loaded.bundle)), h.state


@st.fragment(run_every=2.0)
def _rerun_when_updated(store: page_results.PageStore) -> None:
    # Checks every 2 s (a file's age) whether the background update is done; then the
    # whole page runs again and draws the current results.
    if not page_results.updating(store):
        st.rerun()
