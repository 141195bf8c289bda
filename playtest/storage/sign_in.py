"""The designer sign-in's shared state: attempts (a rate limit), one-time sign-in codes and
the cookie-signing key.

All live in the database, so every app process (and a restarted one) sees the same
counts, and a browser session cannot reset them by reloading.

The limit is per address (an IPv6 address counts by its /64 network, what one home or
host is given): an address may fail :data:`FREE_FAILURES` times; after that each further
try waits twice as long as the one before (1 s, 2 s, 4 s … up to :data:`MAX_WAIT_S`) from
its last failure. A success clears the address's count. There is no limit for everyone
together (thirty wrong passwords from anywhere used to close the form for everyone, the
designer included): when more than :data:`BUSY_FAILURES` failures came from everyone
within :data:`WINDOW_S`, each address instead gets :data:`BUSY_FREE_FAILURES` free try
and then waits :data:`BUSY_FIRST_WAIT_S`, doubling, so many addresses still guess
slowly while the designer's own address (with no failures) signs in at once.

An address that must wait can still sign in with the right password and a one-time
code that ``playtest designer sign-in-code`` prints on the lab's computer
(:func:`new_code`, :func:`use_code`: 15 minutes, used once).

>>> limit_wait(failures=4, since_last_s=0.0)
0.0
>>> limit_wait(failures=5, since_last_s=0.0), limit_wait(failures=7, since_last_s=1.0)
(1.0, 3.0)
>>> limit_wait(failures=1, since_last_s=0.0, busy=True)
60.0
>>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
True
>>> client_key("203.0.113.7"), client_key(None)
('ip:203.0.113.7', 'local')
"""

from __future__ import annotations

import hashlib
import ipaddress
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
BUSY_FAILURES = 30
BUSY_FREE_FAILURES = 1
BUSY_FIRST_WAIT_S = 60.0
COOKIE_KEY = "designer_cookie_key"
CODE_PREFIX = "sign_in_code:"
CODE_LIFETIME_S = 900
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a terminal
CODE_LENGTH = 12  # 60 bits

log = logging.getLogger("playtest.auth")


@dataclass(frozen=True)
class Gate:
    """Whether a sign-in may be tried now, and if not, for how long to wait."""

    allowed: bool
    wait_s: float = 0.0
    reason: str = ""


def limit_wait(*, failures: int, since_last_s: float, busy: bool = False) -> float:
    """Seconds a client with ``failures`` recent failures must still wait (``busy``: many
    failures from everyone lately, see the module docstring)."""
    free, first = (BUSY_FREE_FAILURES, BUSY_FIRST_WAIT_S) if busy else (FREE_FAILURES, 1.0)
    if failures < free:
        return 0.0
    backoff = min(first * 2.0 ** (failures - free), MAX_WAIT_S)
    return max(0.0, backoff - since_last_s)


def client_key(address: str | None) -> str:
    """Who is counted: ``ip:<address>`` (an IPv6 address by its /64), ``local`` for this
    machine (no address)."""
    if not address:
        return "local"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return f"ip:{address[:120]}"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return f"ip:{ip.ipv4_mapped}"
        return f"ip:{ipaddress.ip_network(f'{ip}/64', strict=False)}"
    return f"ip:{ip}"


def _now_ms() -> int:
    return int(time.time() * 1000)


def check(engine: Engine, client: str, now_ms: int | None = None) -> Gate:
    """May ``client`` try a password now (without a one-time code)?"""
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
        everyone = conn.execute(
            select(func.count()).where(attempts.c.ok.is_(False))
            .where(attempts.c.at_ms >= since)).scalar_one()
    wait = limit_wait(failures=int(failures), since_last_s=(now - int(last_fail or now)) / 1000,
                      busy=int(everyone) >= BUSY_FAILURES)
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


def _code_name(code: str) -> str:
    text = "".join(code.split()).upper()
    return CODE_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def new_code(engine: Engine, now_ms: int | None = None) -> str:
    """A one-time sign-in code, good for :data:`CODE_LIFETIME_S` (only its hash is kept)."""
    now = _now_ms() if now_ms is None else now_ms
    code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
    with write_lock(engine), engine.begin() as conn:
        conn.execute(delete(app_secrets).where(app_secrets.c.name.like(f"{CODE_PREFIX}%"))
                     .where(app_secrets.c.created_at_ms < now - CODE_LIFETIME_S * 1000))
        conn.execute(insert(app_secrets).values(name=_code_name(code), value="unused",
                                                created_at_ms=now))
    log.warning("a one-time designer sign-in code was made")
    return f"{code[:4]}-{code[4:8]}-{code[8:]}"


def use_code(engine: Engine, code: str, now_ms: int | None = None) -> bool:
    """Whether ``code`` is a one-time code made in the last :data:`CODE_LIFETIME_S`; it is
    used up either way (spaces, dashes and case do not matter)."""
    now = _now_ms() if now_ms is None else now_ms
    if not code or len(code) > 64:
        return False
    name = _code_name(code.replace("-", ""))
    with write_lock(engine), engine.begin() as conn:
        used = conn.execute(delete(app_secrets).where(app_secrets.c.name == name)
                            .where(app_secrets.c.created_at_ms >= now - CODE_LIFETIME_S * 1000))
    return bool(used.rowcount)


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

