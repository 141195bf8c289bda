"""Milliseconds since the Unix epoch, and their ISO 8601 form in the exchange format.

>>> iso_from_ms(1_700_000_000_123)
'2023-11-14T22:13:20.123Z'
>>> ms_from_iso('2023-11-14T23:13:20.123+01:00')
1700000000123
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def ms_from_datetime(value: datetime) -> int:
    """Aware datetime → ms; naive datetimes are rejected (a time without zone is ambiguous)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"time {value.isoformat()} has no zone")
    return (value - EPOCH) // _ONE_MS


def ms_from(value: datetime | int | None) -> int:
    """``None`` → now; ``int`` → as is; aware ``datetime`` → ms."""
    if value is None:
        return now_ms()
    if isinstance(value, datetime):
        return ms_from_datetime(value)
    return int(value)


def ms_from_iso(text: str) -> int:
    """Parse an ISO 8601 time that carries a zone (``Z`` or ``±hh:mm``); ValueError if not."""
    parsed = datetime.fromisoformat(text)
    return ms_from_datetime(parsed)


def iso_from_ms(ms: int) -> str:
    """The exchange-format form: UTC, milliseconds, ``Z``."""
    moment = EPOCH + timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def datetime_from_ms(ms: int | None) -> datetime | None:
    return None if ms is None else EPOCH + timedelta(milliseconds=ms)
