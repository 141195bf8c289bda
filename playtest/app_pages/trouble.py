"""When the database fails under a page: a calm line for the visitor, the details in a log.

A locked database (a writer holding it past the 5 s busy timeout), a full disk or a
database server that is down raise errors whose text holds SQL, parameters (a would-be
participant code) or the server's user, host and port. None of that may reach a visitor:
``client.showErrorDetails = "none"`` in ``.streamlit/config.toml`` hides tracebacks, and
the app catches database errors itself, where it runs a page (:func:`run_page`) and in the
widget callbacks that store a tester's input (:func:`guarded`). The visitor reads
:data:`CALM` and the page tries again by itself every few seconds; the full error goes to
the server log (:func:`playtest.runtime.log_file`).

Nothing is lost: a failed write is rolled back whole (an action, its event, a consent),
what was stored stays, and the controller of a game is dropped so that the next run
rebuilds it from the stored record.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import streamlit as st
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from playtest import runtime
from playtest.storage.errors import DatabaseUnavailable, WriteFailed

P = ParamSpec("P")
R = TypeVar("R")

TROUBLE = "db_trouble"
START = "start"  # the fault came before any page could be shown
FRESH = "db_trouble_fresh"
CALM = ("We could not save that just now, so we are trying again. Please wait a moment, "
        "then carry on: everything you did before is kept.")
UNREACHABLE = ("The playtest is having a short break: we cannot reach our storage just now. "
               "This page tries again by itself; please keep it open.")

#: What counts as a database fault (rather than a bug to show the developer).
DB_ERRORS: tuple[type[BaseException], ...] = (SQLAlchemyError, sqlite3.Error,
                                               DatabaseUnavailable, WriteFailed)
try:  # psycopg's own errors can escape SQLAlchemy in a pool's reset
    import psycopg

    DB_ERRORS = (*DB_ERRORS, psycopg.Error)
except ImportError:  # pragma: no cover - psycopg is a dependency
    pass

log = logging.getLogger("playtest.app")


def note_failure(where: str, err: BaseException) -> None:
    """Log a database fault with its traceback, and mark this session as in trouble."""
    runtime.configure_logging()
    log.error("database fault in %s: %s", where, type(err).__name__, exc_info=err)
    st.session_state[TROUBLE] = where
    st.session_state[FRESH] = True  # the run that failed does not check again at once
    # The game in memory may be ahead of what was stored: rebuild it from the record.
    st.session_state.pop("ctrl", None)


def guarded(callback: Callable[P, R]) -> Callable[P, R | None]:
    """A widget callback that turns a database fault into the calm notice."""

    @functools.wraps(callback)
    def run(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return callback(*args, **kwargs)
        except DB_ERRORS as err:
            note_failure(callback.__name__, err)
            return None

    return run


def database_ok() -> bool:
    """One cheap round trip to the database (SQLite: a write lock is not needed for it,
    so a quick ``BEGIN IMMEDIATE`` tells whether writes would go through)."""
    try:
        engine = runtime.database()
        with engine.connect() as conn:
            if engine.dialect.name != "sqlite":
                conn.execute(text("SELECT 1"))
                return True
            conn.exec_driver_sql("PRAGMA busy_timeout=200")
            try:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                conn.exec_driver_sql("ROLLBACK")
            finally:
                conn.exec_driver_sql("PRAGMA busy_timeout=5000")
        return True
    except DB_ERRORS:
        return False


@st.fragment(run_every=3)
def _retry_clock() -> None:
    if TROUBLE not in st.session_state or st.session_state.pop(FRESH, False):
        return
    if database_ok():
        st.session_state.pop(TROUBLE, None)
        st.rerun(scope="app")


def show_notice(where: Any) -> None:
    """The calm line, in ``where`` (a placeholder at the top of the page)."""
    cause = st.session_state.get(TROUBLE)
    if cause is None:
        return
    with where.container():
        if cause != START:  # at start the page itself says what is happening
            st.warning(CALM)
        _retry_clock()


def run_page(run: Callable[[], Any]) -> None:
    """Run the navigation's page; a database fault becomes the calm notice above it."""
    # The notice's place at the top exists only while there is trouble: an empty
    # placeholder on every page would change the page's layout for nothing.
    had_trouble = TROUBLE in st.session_state
    notice = st.empty() if had_trouble else None
    try:
        run()
    except DB_ERRORS as err:
        note_failure("page", err)
        if not had_trouble:
            st.rerun()  # once, so the notice stands at the top of the page drawn again
    show_notice(notice if notice is not None else st.empty())
