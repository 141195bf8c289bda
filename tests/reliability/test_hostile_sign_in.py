"""Locking the designer out, and forging addresses, against a real server (issue 25 item 4).

Before: on 127.0.0.1 the app believed ``X-Forwarded-For``, so a client on this machine
sent a new made-up address with each guess and never met the per-address limit; and
thirty wrong passwords in 15 minutes, from any number of addresses, closed the form for
everyone, the right password included. Now a forwarded address is believed only from a
proxy named in ``PLAYTEST_TRUSTED_PROXIES`` (none by default), and many failures make
each address's own limit stricter instead of closing the form. The server is started
from a folder of its own and visited over its websocket, header and all.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest
from served_app import ServedApp, Shown, pressed, serve, typed, visit
from sqlalchemy import select

from playtest import auth, forwarded
from playtest.storage import sign_in
from playtest.storage.db import make_engine, upgrade

PASSWORD = "the right passphrase"


def _try(url: str, password: str, forwarded_for: str | None = None) -> Shown:
    """One visitor at the start page types ``password`` (when the form is offered): what
    the page showed last."""
    return _visit_and_try(url, password, forwarded_for)[-1]


def _visit_and_try(url: str, password: str, forwarded_for: str | None = None) -> list[Shown]:
    """One visitor at the start page types ``password`` (when the form is offered): what
    the page showed first, then after the try (or a plain rerun where it was refused)."""

    def sign_in_with(page: Shown) -> list:
        if "designer_password" not in page.widgets:
            return []  # refused before the form: a plain rerun
        return [typed(page.widget("designer_password"), password),
                pressed(page.widget("FormSubmitter:designer_login"))]

    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    return visit(url, "", [sign_in_with], headers=headers)


def _server(tmp_path: Path, *flags: str, supported: bool = False,
            **env: str) -> tuple[ServedApp, str]:
    folder = tmp_path / "lab"
    folder.mkdir()
    url = f"sqlite:///{folder / 'p.sqlite'}"
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    served = serve(folder, {"DATABASE_URL": url,
                            auth.ENV_VAR: auth.hash_password(PASSWORD), **env},
                   *flags, supported=supported)
    return served, url


def _clients(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(sign_in.attempts.c.client)
                                     .order_by(sign_in.attempts.c.attempt_id)).scalars())
    finally:
        engine.dispose()


@pytest.mark.parametrize("supported", [False, True], ids=["streamlit-run", "playtest-serve"])
def test_forged_forwarded_addresses_from_this_machine_are_one_visitor(
    tmp_path: Path, supported: bool,
) -> None:
    # On 127.0.0.1, as the checkout's settings had it (listening on every address, a
    # connection from this machine arrives as ::ffff:127.0.0.1, which nobody trusts).
    flags = () if supported else ("--server.address", "127.0.0.1")
    served, url = _server(tmp_path, *flags, supported=supported)
    started = time.monotonic()
    try:
        visits = [_visit_and_try(served.url, "not the password at all", f"198.51.100.{i}")
                  for i in range(10)]
    finally:
        served.stop()
    elapsed = time.monotonic() - started
    clients = _clients(url)
    # No forged address was believed: one visitor. (Plain `streamlit run`: Streamlit's
    # server took the header's word, as it does from this machine, so the app counts
    # every visitor who sends it as one; `playtest serve` tells it to believe no one.)
    assert len(set(clients)) == 1 and not [c for c in clients if "198.51.100" in c], clients
    assert clients[0] == (forwarded.UNVERIFIED if not supported else "local")
    # Five free tries, then one per doubling wait, however slow this machine is.
    assert len(clients) <= sign_in.FREE_FAILURES + 1 + math.log2(1 + elapsed)
    # Every visitor refused before the form (no attempt stored) was told why. (Which
    # tries those are depends on this machine's speed.)
    refused = len(visits) - len(clients)
    # none refused only if every doubling wait (1 + 2 + 4 + 8 s) had passed by the next try
    assert refused > 0 or elapsed >= 2 ** (len(visits) - sign_in.FREE_FAILURES - 1) - 1
    # (a refused visitor is told on the page it opened: by the plain rerun after it, the
    # wait may be over and the form back)
    told = sum(any("Too many wrong passwords" in page.text() for page in pages)
               for pages in visits)
    assert told >= refused, (told, refused)
    assert "REFUSING" not in served.output()


def test_many_addresses_behind_a_trusted_proxy_cannot_lock_the_designer_out(
    tmp_path: Path,
) -> None:
    # nginx on this machine: the app and Streamlit's server believe it, and only it.
    served, url = _server(tmp_path, "--server.address", "127.0.0.1",
                          PLAYTEST_TRUSTED_PROXIES="127.0.0.1", FORWARDED_ALLOW_IPS="127.0.0.1")
    attackers = [f"203.0.113.{i}" for i in range(sign_in.BUSY_FAILURES + 2)]
    try:
        for address in attackers:
            _try(served.url, "not the password at all", address)
        again = _try(served.url, "still not the password", attackers[-1])
        designer = _try(served.url, PASSWORD, "192.0.2.50")
    finally:
        served.stop()
    # Every visitor counted by the address the proxy saw.
    assert set(_clients(url)) == {f"ip:{a}" for a in [*attackers, "192.0.2.50"]}
    # An attacking address that failed waits (a minute at least, under this pressure) ...
    assert "Too many wrong passwords" in again.text()
    # ... and the designer, from an address of their own, is let in.
    assert "Signed in as the designer" in designer.text(), designer.text()
