"""The designer sign-in's shared state: attempts (a rate limit) and the cookie-signing key.

Both live in the database, so every app process (and a restarted one) sees the same
counts, and a browser session cannot reset them by reloading.

The limit: a client may fail :data:`FREE_FAILURES` times; after that each further try
waits twice as long as the one before (1 s, 2 s, 4 s … up to :data:`MAX_WAIT_S`) from its
last failure. Across all clients, more than :data:`GLOBAL_FAILURES` failures within
:data:`WINDOW_S` close the form for everyone until the oldest leaves the window (the
``playtest`` command line still works). A success clears the client's count.

>>> limit_wait(failures=4, since_last_s=0.0)
0.0
>>> limit_wait(failures=5, since_last_s=0.0), limit_wait(failures=7, since_last_s=1.0)
(1.0, 3.0)
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from playtest.storage.db import write_lock
from playtest.storage.models import AppSecretRow, SignInAttemptRow

attempts = SignInAttemptRow.__table__  # type: ignore[attr-defined]
app_secrets = AppSecretRow.__table__  # type: ignore[attr-defined]

FREE_FAILURES = 5
MAX_WAIT_S = 900.0
WINDOW_S = 900.0
GLOBAL_FAILURES = 30
COOKIE_KEY = "designer_cookie_key"

log = logging.getLogger("playtest.auth")


@dataclass(frozen=True)
class Gate:
    """Whether a sign-in may be tried now, and if not, for how long to wait."""

    allowed: bool
    wait_s: float = 0.0
    reason: str = ""


def limit_wait(*, failures: int, since_last_s: float) -> float:
    """Seconds a client with ``failures`` recent failures must still wait."""
    if failures < FREE_FAILURES:
        return 0.0
    backoff = min(2.0 ** (failures - FREE_FAILURES), MAX_WAIT_S)
    return max(0.0, backoff - since_last_s)


def _now_ms() -> int:
    return int(time.time() * 1000)


def check(engine: Engine, client: str, now_ms: int | None = None) -> Gate:
    """May ``client`` try a password now?"""
    now = _now_ms() if now_ms is None else now_ms
    since = now - int(WINDOW_S * 1000)
    with engine.connect() as conn:
        last_ok = conn.execute(
            select(func.max(attempts.c.at_ms)).where(attempts.c.client == client)
            .where(attempts.c.ok.is_(True))).scalar()
        start = max(since, int(last_ok or 0) + 1)
        failures, last_fail = conn.execute(
            select(func.count(), func.max(attempts.c.at_ms)).where(attempts.c.client == client)
            .where(attempts.c.ok.is_(False)).where(attempts.c.at_ms >= start)).one()
        everyone, oldest = conn.execute(
            select(func.count(), func.min(attempts.c.at_ms))
            .where(attempts.c.ok.is_(False)).where(attempts.c.at_ms >= since)).one()
    if everyone >= GLOBAL_FAILURES:
        wait = (int(oldest) + int(WINDOW_S * 1000) - now) / 1000
        return Gate(False, max(wait, 1.0), "too many wrong passwords from everyone")
    wait = limit_wait(failures=int(failures),
                      since_last_s=(now - int(last_fail or now)) / 1000)
    if wait > 0:
        return Gate(False, wait, "too many wrong passwords from this address")
    return Gate(True)


def record(engine: Engine, client: str, ok: bool, now_ms: int | None = None) -> None:
    """Store one attempt (failures are logged for the designer too); old ones are pruned."""
    now = _now_ms() if now_ms is None else now_ms
    with write_lock(engine), engine.begin() as conn:
        conn.execute(insert(attempts).values(client=client[:128], ok=ok, at_ms=now))
        conn.execute(delete(attempts).where(attempts.c.at_ms < now - 24 * 3600 * 1000))
    if not ok:
        log.warning("designer sign-in failed from %s", client)


def cookie_key(engine: Engine) -> bytes:
    """The server's secret for signing sign-in cookies (made once, kept in the database)."""
    with engine.connect() as conn:
        value = conn.execute(select(app_secrets.c.value)
                             .where(app_secrets.c.name == COOKIE_KEY)).scalar()
    if value is None:
        try:
            with write_lock(engine), engine.begin() as conn:
                conn.execute(insert(app_secrets).values(
                    name=COOKIE_KEY, value=secrets.token_hex(32), created_at_ms=_now_ms()))
        except IntegrityError:
            pass  # another process made it first: read theirs
        with engine.connect() as conn:
            value = conn.execute(select(app_secrets.c.value)
                                 .where(app_secrets.c.name == COOKIE_KEY)).scalar_one()
    return bytes.fromhex(value)

