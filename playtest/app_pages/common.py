"""Helpers every page shares: the current tester, their browser session, page events."""

from __future__ import annotations

import streamlit as st

from analytics.text_safety import without_direction_controls
from playtest import runtime, services
from playtest.storage import repository as repo

SESSION_KEY = "tester_session"


def tester_session(tester: services.Tester) -> str:
    """This tab's session id for the tester (a new session per tab, reload or restart)."""
    sessions: dict[str, str] = st.session_state.setdefault(SESSION_KEY, {})
    session_id = sessions.get(tester.code)
    if session_id is None:
        user_agent = None
        try:
            user_agent = st.context.headers.get("User-Agent")
        except Exception:  # noqa: BLE001 - headers are absent in AppTest
            user_agent = None
        session_id = repo.start_session(runtime.database(), tester.code, user_agent=user_agent)
        sessions[tester.code] = session_id
    return session_id


def log_page(tester: services.Tester, page: str) -> None:
    """Log a ``page`` event once per tab and page (reruns do not count as visits)."""
    seen: set[str] = st.session_state.setdefault("pages_logged", set())
    marker = f"{tester.code}:{page}"
    if marker in seen:
        return
    session_id = tester_session(tester)
    runtime.event_logger().log(session_id, tester.code, "page", {"page": page},
                               client_event_id=f"{session_id}:page:{page}")
    seen.add(marker)


def plain(text: str) -> None:
    """Show text exactly as written: never Markdown, never HTML, and never reordering
    what follows it (direction controls dropped: :mod:`analytics.text_safety`)."""
    st.text(without_direction_controls(text))
