"""The designer's sign-in: a rate-limited password form and a signed cookie that survives
a reload; designer pages reached by a direct link ask for the password first.

The limit on wrong passwords is kept in the database (``playtest.storage.sign_in``), per
client address (never closed for everyone), so neither a new browser session nor a
second app process resets it; an address that must wait can sign in with the password
and a one-time code from ``playtest designer sign-in-code``. After a right password the
browser gets a cookie
(``playtest_designer``: an expiry time and an HMAC made with a server key kept in the
database, see :func:`playtest.auth.sign_token`) for :data:`playtest.auth.COOKIE_LIFETIME_S`;
a reload or a new tab reads it back. Signing out deletes it; a new password ends every
cookie made before.
"""

from __future__ import annotations

import math

import streamlit as st
from sqlalchemy.engine import Engine

from playtest import auth, runtime
from playtest.app_pages import cookies
from playtest.forwarded import UNVERIFIED, believable, trusted_proxies
from playtest.forwarded import client_address as forwarded_address
from playtest.storage import sign_in

SIGNED_IN = "designer_signed_in"
COOKIE_CHECKED = "designer_cookie_checked"


def client_id() -> str:
    """Who is trying: the visitor's address (``local`` for this machine). Behind a
    trusted reverse proxy it is the address the proxy saw (``X-Forwarded-For``, see
    :mod:`playtest.forwarded`), so the per-address limit does not act as a global one."""
    try:
        peer = st.context.ip_address
        forwarded = st.context.headers.get("X-Forwarded-For")
    except Exception:  # noqa: BLE001 - no browser context (AppTest)
        peer, forwarded = None, None
    if isinstance(forwarded, str) and forwarded.strip() and not believable():
        return UNVERIFIED  # the server may have taken its word already: one for all such
    address = forwarded_address(peer if isinstance(peer, str) else None,
                                forwarded if isinstance(forwarded, str) else None,
                                trusted_proxies())
    return sign_in.client_key(address)


def is_signed_in() -> bool:
    """Signed in this session, or the browser brought a valid sign-in cookie."""
    if st.session_state.get(SIGNED_IN):
        return True
    if st.session_state.get(COOKIE_CHECKED):
        return False
    st.session_state[COOKIE_CHECKED] = True
    token = cookies.read(auth.COOKIE_NAME)
    stored = auth.stored_hash()
    if token is None or stored is None:
        return False
    if auth.token_valid(token, sign_in.cookie_key(runtime.database()), stored):
        st.session_state[SIGNED_IN] = True
        return True
    return False


def sign_out() -> None:
    st.session_state[SIGNED_IN] = False
    st.session_state[COOKIE_CHECKED] = True
    cookies.delete_cookie(auth.COOKIE_NAME)


def _wait_text(seconds: float) -> str:
    whole = max(1, math.ceil(seconds))
    if whole < 120:
        return f"{whole} second{'s' if whole != 1 else ''}"
    return f"{math.ceil(whole / 60)} minutes"


def _signed_in(engine: Engine, stored: str) -> None:
    st.session_state[SIGNED_IN] = True
    cookies.set_cookie(auth.COOKIE_NAME, auth.sign_token(sign_in.cookie_key(engine), stored),
                       auth.COOKIE_LIFETIME_S)
    st.rerun()


def _code_form(engine: Engine, client: str, stored: str, wait_s: float) -> None:
    """The way in for an address that must wait: the password and a one-time code."""
    st.error(f"Too many wrong passwords. Please wait {_wait_text(wait_s)} and try again, "
             "or sign in now with a one-time code: run `playtest designer sign-in-code` "
             "on the lab's computer.")
    with st.form("designer_code_login"):
        password = st.text_input("Designer password", type="password",
                                 key="designer_code_password")
        code = st.text_input("One-time sign-in code", key="designer_sign_in_code")
        submitted = st.form_submit_button("Sign in")
    if not submitted:
        return
    st.session_state.pop("designer_code_password", None)
    st.session_state.pop("designer_sign_in_code", None)
    if not sign_in.use_code(engine, code or ""):  # used up either way
        sign_in.record(engine, client, False)
        st.error("That sign-in code is not right, was used already or is older than 15 "
                 "minutes.")
        return
    ok = auth.verify_password(password or "", stored)
    sign_in.record(engine, client, ok)
    if ok:
        _signed_in(engine, stored)
    st.error("That password is not right (the code is used up: make a new one).")


def sign_in_form() -> None:
    """The password form: wrong passwords are limited per address (see the module
    docstring)."""
    if is_signed_in():
        st.success("Signed in as the designer.")
        if st.button("Sign out", key="sign_out"):
            sign_out()
            st.rerun()
        return
    stored = auth.stored_hash()
    if stored is None:
        st.info("No designer password is set yet: run `playtest designer set-password` "
                "(or `playtest up`, which creates one).")
        return
    engine = runtime.database()
    client = client_id()
    gate = sign_in.check(engine, client)
    if not gate.allowed:
        _code_form(engine, client, stored, gate.wait_s)
        return
    with st.form("designer_login"):
        password = st.text_input("Designer password", type="password", key="designer_password")
        submitted = st.form_submit_button("Sign in")
    if not submitted:
        return
    st.session_state.pop("designer_password", None)
    gate = sign_in.check(engine, client)  # another tab may have used up the tries meanwhile
    if not gate.allowed:
        st.error(f"Too many wrong passwords. Please wait {_wait_text(gate.wait_s)} and "
                 "try again.")
        return
    ok = auth.verify_password(password or "", stored)
    sign_in.record(engine, client, ok)
    if ok:
        _signed_in(engine, stored)
    st.error("That password is not right.")


def gated(page: st.Page) -> st.Page:
    """A designer page's address that asks for the password (then shows the page)."""

    def ask() -> None:
        st.title(page.title)
        st.info("This designer page needs the designer's password.")
        sign_in_form()

    # Hidden from the menu (nothing to see there before signing in), there for its link.
    return st.Page(ask, title=page.title, url_path=page.url_path, icon=page.icon,
                   visibility="hidden")
