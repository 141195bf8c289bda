"""Whose browser session this is: session state bound to one tester, and coming back.

**Bound to one tester.** Everything a tester's pages keep in session state (the live
game, its messages, open dialogs, survey widgets) belongs to the tester in the URL. When
a run serves another tester, or the consent page of a new one (the Back button after
consenting, then "I agree" again on the same connection), :func:`bind` clears it all
first, and the play page checks the game's ``participant_id`` before every input.

**Coming back.** After consent, the browser remembers the tester per study: in session
state and in a cookie (``playtest_tester_<study>``, 60 days). Opening the study link
again then offers "Carry on where I left off" with "Not you? Start as a new tester",
instead of making a second participant.
"""

from __future__ import annotations

import re

import streamlit as st
from sqlalchemy.engine import Engine

from playtest.app_pages import cookies
from playtest.storage import repository as repo

OWNER = "session_owner"
KNOWN = "known_testers"  # study id -> tester code, this session
FRESH = "fresh_consent"  # studies where "Not you?" was chosen
TESTER_COOKIE_DAYS = 60
# Keys that are about the browser, not about a tester: they survive a change of tester.
_KEEP = {OWNER, KNOWN, FRESH, cookies.PENDING, cookies.PENDING_RUNS, "designer_signed_in", "designer_cookie_checked",
         "db_trouble", "db_trouble_fresh", "tester_session", "pages_logged"}


def cookie_name(study_id: str) -> str:
    """The tester cookie's name for a study (characters a cookie name may not hold → ``_``).

    >>> cookie_name("demo study/1")
    'playtest_tester_demo_study_1'
    """
    return "playtest_tester_" + re.sub(r"[^A-Za-z0-9_-]", "_", study_id)[:64]


def bind(owner: str | None) -> None:
    """Make this run's session state the state of ``owner`` (a tester code, or None for a
    visitor who is not a tester yet): anything left from another owner is cleared."""
    if st.session_state.get(OWNER, "<unset>") == owner:
        return
    for key in list(st.session_state.keys()):
        if key not in _KEEP:
            del st.session_state[key]
    st.session_state[OWNER] = owner


def remember(study_id: str, code: str) -> None:
    """This browser is ``code``'s in ``study_id`` (session state, and a cookie once)."""
    known: dict[str, str] = st.session_state.setdefault(KNOWN, {})
    fresh: set[str] = st.session_state.setdefault(FRESH, set())
    fresh.discard(study_id)
    if known.get(study_id) == code:
        return
    known[study_id] = code
    cookies.set_cookie(cookie_name(study_id), code, TESTER_COOKIE_DAYS * 24 * 3600)


def forget(study_id: str) -> None:
    """"Not you?": this browser starts a new tester of ``study_id``."""
    st.session_state.setdefault(KNOWN, {}).pop(study_id, None)
    st.session_state.setdefault(FRESH, set()).add(study_id)
    cookies.delete_cookie(cookie_name(study_id))


def returning(engine: Engine, study_id: str) -> repo.Participant | None:
    """The tester this browser already is in ``study_id``, if any."""
    if study_id in st.session_state.get(FRESH, set()):
        return None
    code = st.session_state.get(KNOWN, {}).get(study_id) or cookies.read(cookie_name(study_id))
    if not code:
        return None
    participant = repo.get_participant(engine, code)
    if participant is None or participant.study_id != study_id:
        return None
    return participant
