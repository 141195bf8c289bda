"""Browser cookies for the app: read from the connection, written by a small script.

Streamlit reads cookies (``st.context.cookies``, as the browser sent them when this tab
connected) but has no call that sets one. :func:`set_cookie` queues a cookie in session
state and :func:`flush` writes the queue with ``st.html(..., unsafe_allow_javascript=True)``
(not iframed, so ``document.cookie`` is the app's own). Values are made by the app only
(signed tokens, tester codes), never by a visitor; they are checked again to be safe.
Cookies set this way are visible to the page's scripts (no ``HttpOnly``): a designer token
is an expiring HMAC, and a tester code is what the tester's own link holds anyway.
"""

from __future__ import annotations

import json
import re

import streamlit as st

from playtest.streamlit_private import event_html

PENDING = "cookies_pending"
PENDING_RUNS = "cookies_pending_runs"
_SAFE = re.compile(r"^[A-Za-z0-9._:-]{0,512}$")


def read(name: str) -> str | None:
    """The cookie as the browser sent it when this tab connected (None outside a browser)."""
    try:
        value = st.context.cookies.get(name)
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        return None
    return value if isinstance(value, str) and value else None


def set_cookie(name: str, value: str, max_age_s: int) -> None:
    """Queue a cookie for this browser (``max_age_s=0`` deletes it)."""
    if not _SAFE.match(name) or not _SAFE.match(value):
        raise ValueError("cookie names and values are the app's own tokens")
    pending: dict[str, tuple[str, int]] = st.session_state.setdefault(PENDING, {})
    pending[name] = (value, max_age_s)
    st.session_state[PENDING_RUNS] = 0


def delete_cookie(name: str) -> None:
    set_cookie(name, "", 0)


def script(pending: dict[str, tuple[str, int]]) -> str:
    """The ``<script>`` that writes the cookies (SameSite=Strict, Secure on https).

    >>> "Max-Age=60" in script({"a": ("b", 60)})
    True
    """
    lines = []
    for name, (value, max_age) in sorted(pending.items()):
        cookie = json.dumps(f"{name}={value}; Max-Age={int(max_age)}; Path=/; SameSite=Strict")
        lines.append(f"document.cookie = {cookie} + secure;")
    body = "\n".join(lines)
    return ("<script>\n(() => { const secure = location.protocol === 'https:' ? '; Secure' : '';\n"
            f"{body}\n}})();\n</script>")


#: Runs in which a queued cookie is written again: a run that ends in ``st.rerun`` (a
#: consent moving on to the first page) may never reach the browser's page.
RUNS = 3


def flush() -> None:
    """Write the queued cookies; each stays queued for :data:`RUNS` runs (setting the same
    cookie again is harmless)."""
    pending: dict[str, tuple[str, int]] | None = st.session_state.get(PENDING)
    if not pending:
        return
    # The event container (where toasts go) takes no room: nothing on the page moves.
    event_html(script(pending))
    runs = st.session_state.get(PENDING_RUNS, 0) + 1
    if runs >= RUNS:
        st.session_state.pop(PENDING, None)
        runs = 0
    st.session_state[PENDING_RUNS] = runs
