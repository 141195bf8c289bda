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
rebuilds it from the stored record. The notice says that the step that failed was not
saved (:data:`CALM`), or, when a tester's writes come faster than the limit
(:class:`~playtest.storage.errors.TooFast`), to slow down (:data:`TOO_FAST`).

A tester whose records are gone (deleted with ``playtest participant delete`` while
their tab was open, or a link with an unknown code) gets the calm page
:data:`GONE_TITLE` on their next click, wherever the missing row is noticed (a widget
callback, the page, a play fragment): :class:`~playtest.storage.errors.NotFound` is
handled like a fault, then the app finds no tester behind the link and shows that page.
Nothing of the tester's code or answers is logged (:mod:`playtest.server_log`).

Each of these texts is shown in the visitor's language (:func:`visitor_words`): their
study's when the page knows it, else their browser's if the app speaks it, else English.
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
from playtest.i18n import N_, Translator, preferred_language, translator
from playtest.storage.errors import DatabaseUnavailable, NotFound, TooFast, WriteFailed

P = ParamSpec("P")
R = TypeVar("R")

TROUBLE = "db_trouble"
START = "start"  # the fault came before any page could be shown
FRESH = "db_trouble_fresh"
NOTICE = "db_trouble_notice"  # the text of the notice while in trouble
GONE = "tester_gone"  # a NotFound was met in this session (see the module docstring)
#: The session's key of the tester's game in memory (:mod:`playtest.board.page`): after a
#: fault it may be ahead of what was stored, so it is dropped and rebuilt from the record.
GAME_KEY = "play"
CALM = N_("We could not save that just now, so it was not saved. This page tries again by "
          "itself: please wait a moment, then do it again. Everything you did before it is "
          "kept.")
TOO_FAST = N_("That was faster than we can keep up with, so it was not saved. Please wait a "
              "moment, then carry on a little more slowly. Everything you did before it is "
              "kept.")
GONE_TITLE = N_("This link no longer works")
GONE_TEXT = N_("This playtest link is not one we know, or what was saved with it has been "
               "deleted. Nothing more is saved from this page. If you would like to take "
               "part, please ask the study team for a new link.")
WAIT_TITLE = N_("Please wait a moment")
UNREACHABLE = N_("The playtest is having a short break: we cannot reach our storage just "
                 "now, so nothing was saved. This page tries again by itself; please keep it "
                 "open, then do again what you were doing.")

#: What counts as a database fault (rather than a bug to show the developer), and a
#: tester's records that are gone (``NotFound``: handled as the module docstring says).
DB_ERRORS: tuple[type[BaseException], ...] = (SQLAlchemyError, sqlite3.Error,
                                               DatabaseUnavailable, WriteFailed, NotFound)
try:  # psycopg's own errors can escape SQLAlchemy in a pool's reset
    import psycopg

    DB_ERRORS = (*DB_ERRORS, psycopg.Error)
except ImportError:  # pragma: no cover - psycopg is a dependency
    pass

log = logging.getLogger("playtest.app")


def visitor_words() -> Translator:
    """What the visitor of this page reads: their study's language when the page knows
    their study (a tester's), else the first of their browser's preferred languages
    that the app speaks, else English."""
    from playtest import services
    from playtest.i18n.words import study_words

    tester = st.session_state.get("tester")
    if isinstance(tester, services.Tester):
        return study_words(tester.config.language, tester.config.game)
    try:
        browser = (st.context.locale, st.context.headers.get("Accept-Language"))
    except Exception:  # noqa: BLE001 - no browser behind this run (a bare script)
        browser = (None, None)
    return translator(preferred_language(*browser))


def note_failure(where: str, err: BaseException) -> None:
    """Log a database fault with its traceback, and mark this session as in trouble
    (or, for records that are gone, as :data:`GONE`)."""
    runtime.configure_logging()
    # The game in memory may be ahead of what was stored: rebuild it from the record.
    st.session_state.pop(GAME_KEY, None)
    if isinstance(err, NotFound):
        # No traceback: the code is not logged, and there is nothing to repair.
        log.info("records of a page are gone in %s (deleted, or an unknown link)", where)
        _forget_gone_tester()
        st.session_state[GONE] = True
        return
    if isinstance(err, TooFast):
        log.warning("a tester's input was refused in %s: %s", where, err)
        st.session_state[NOTICE] = TOO_FAST
    else:
        log.error("database fault in %s: %s", where, type(err).__name__, exc_info=err)
        st.session_state[NOTICE] = CALM
    st.session_state[TROUBLE] = where
    st.session_state[FRESH] = True  # the run that failed does not check again at once


def _forget_gone_tester() -> None:
    """Drop what this session keeps of a tester whose records are gone: everything the
    tester's pages put in session state (their game, answers typed, the tester), and this
    browser's memory of them (its cookie). A play fragment that finds its game gone
    reruns the whole app, which then shows :data:`GONE_TITLE`."""
    from playtest.app_pages import identity

    tester = st.session_state.get("tester")
    study = getattr(getattr(tester, "study", None), "study_id", None)
    if isinstance(study, str):
        identity.forget(study)
    identity.bind(None)


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
        st.session_state.pop(NOTICE, None)
        st.rerun(scope="app")


def show_notice(where: Any) -> None:
    """The calm line, in ``where`` (a placeholder at the top of the page)."""
    cause = st.session_state.get(TROUBLE)
    if cause is None:
        return
    with where.container():
        if cause != START:  # at start the page itself says what is happening
            st.warning(visitor_words()(st.session_state.get(NOTICE, CALM)))
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
        gone = isinstance(err, NotFound)
        again = bool(st.session_state.get(GONE)) if gone else had_trouble
        note_failure("page", err)
        if not again:
            # once, so the notice stands at the top of the page drawn again (or, for a
            # tester who is gone, the app shows the page that says so)
            st.rerun()
        if gone:
            st.info(visitor_words()(GONE_TEXT))
            return
    else:
        st.session_state.pop(GONE, None)
    show_notice(notice if notice is not None else st.empty())
