"""Milliseconds since the Unix epoch, and their ISO 8601 form in the exchange format.

>>> iso_from_ms(1_700_000_000_123)
'2023-11-14T22:13:20.123Z'
>>> ms_from_iso('2023-11-14T23:13:20.123+01:00')
1700000000123
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from functools import lru_cache

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


_CANONICAL = re.compile(r"(\d{4}-\d\d-\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})Z")


@lru_cache(maxsize=4096)
def _day_ms(day: str) -> int:
    return ms_from_datetime(datetime.fromisoformat(day).replace(tzinfo=UTC))


def ms_from_iso(text: str) -> int:
    """Parse an ISO 8601 time that carries a zone (``Z`` or ``±hh:mm``); ValueError if not."""
    canonical = _CANONICAL.fullmatch(text)
    if canonical is not None:  # our own export form, a million times per import: fast path
        day, hours, minutes, seconds, millis = canonical.groups()
        if int(hours) < 24 and int(minutes) < 60 and int(seconds) < 60:
            return (
                _day_ms(day)
                + ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000
                + int(millis)
            )
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise ValueError(f"time {text} has no zone")
    # Whole seconds are exact as a float timestamp; the milliseconds are added as ints.
    # (Sub-millisecond digits are dropped, as the exchange format keeps milliseconds.)
    whole = int(parsed.replace(microsecond=0).timestamp())
    return whole * 1000 + parsed.microsecond // 1000


def iso_from_ms(ms: int) -> str:
    """The exchange-format form: UTC, milliseconds, ``Z``."""
    moment = EPOCH + timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def datetime_from_ms(ms: int | None) -> datetime | None:
    return None if ms is None else EPOCH + timedelta(milliseconds=ms)
