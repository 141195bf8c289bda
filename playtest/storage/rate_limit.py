"""A per-tester limit on input: a token bucket per participant, in this process.

One tester could send events as fast as the websocket carried them (500 in 14 s): each
stored, each taking the database's write lock from everyone else. The app's event
logger (:func:`playtest.runtime.event_logger`) admits each input of a tester (an event
logged on its own, or a game input's batch of events, stored in one transaction) only
while that tester's bucket has a token: :data:`BURST` at once, then :data:`PER_SECOND`.
A person clicks a few times a second at most; a computer's moves are stored with the
input that caused them. Only what a page run stores counts (a game driven outside one, by
a test or a benchmark, is no visitor). Past the limit, :class:`~playtest.storage.errors.TooFast` is
raised before anything is stored, and the page says to slow down
(:mod:`playtest.app_pages.trouble`). Each app process counts on its own, so behind
nginx a tester gets at most this many per process. Commands (``playtest demo``,
``import``) store without a limit.

>>> limit = TesterRate(burst=2, per_second=1.0)
>>> limit.admit("p1", now=0.0); limit.admit("p1", now=0.0)
>>> limit.admit("p1", now=0.5)
Traceback (most recent call last):
...
playtest.storage.errors.TooFast: input faster than 1 per second (after a burst of 2)
>>> limit.admit("p1", now=1.0); limit.admit("p2", now=1.0)
>>> TesterRate.from_setting("10, 0.5").per_second, TesterRate.from_setting(None).burst
(0.5, 40.0)
>>> TesterRate.from_setting("fast")
Traceback (most recent call last):
...
ValueError: PLAYTEST_INPUT_LIMIT must be '<burst>,<per second>' (e.g. '40,5'), not 'fast'
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from playtest.storage.errors import TooFast

BURST = 40
PER_SECOND = 5.0
_PRUNE_AT = 10_000  # testers remembered before the full buckets are dropped


class TesterRate:
    """Token buckets per participant (thread-safe)."""

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND,
                 applies: Callable[[], bool] | None = None) -> None:
        self.burst = float(burst)
        self.per_second = per_second
        #: Whether the input being stored now is a visitor's (None: always). The app
        #: counts what a page run stores, not a game driven outside one (a test, a demo).
        self.applies = applies
        self._buckets: dict[str, tuple[float, float]] = {}  # participant -> (tokens, at)
        self._lock = threading.Lock()

    @classmethod
    def from_setting(cls, text: str | None,
                     applies: Callable[[], bool] | None = None) -> TesterRate:
        """The limit ``PLAYTEST_INPUT_LIMIT`` names (``"<burst>,<per second>"``; None:
        the defaults)."""
        if text is None:
            return cls(applies=applies)
        try:
            burst, per_second = (float(part) for part in text.split(","))
        except ValueError:
            raise ValueError("PLAYTEST_INPUT_LIMIT must be '<burst>,<per second>' "
                             f"(e.g. '40,5'), not {text!r}") from None
        if burst < 1 or per_second <= 0:
            raise ValueError("PLAYTEST_INPUT_LIMIT needs a burst of at least 1 and a "
                             "positive rate")
        return cls(int(burst), per_second, applies)

    def admit(self, participant_id: str, now: float | None = None) -> None:
        """Take one token of ``participant_id``'s, or raise :class:`TooFast`."""
        if self.applies is not None and not self.applies():
            return
        at = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.get(participant_id, (self.burst, at))
            tokens = min(self.burst, tokens + (at - then) * self.per_second)
            if tokens < 1.0:
                self._buckets[participant_id] = (tokens, at)
                raise TooFast(f"input faster than {self.per_second:g} per second "
                              f"(after a burst of {self.burst:g})")
            self._buckets[participant_id] = (tokens - 1.0, at)
            if len(self._buckets) > _PRUNE_AT:
                self._prune(at)

    def _prune(self, now: float) -> None:
        full = [key for key, (tokens, then) in self._buckets.items()
                if tokens + (now - then) * self.per_second >= self.burst]
        for key in full:
            del self._buckets[key]

    def forget(self, participant_ids: set[str] | None = None) -> None:
        """Drop the buckets of these testers (all: None), e.g. after a deletion."""
        with self._lock:
            if participant_ids is None:
                self._buckets.clear()
            for key in participant_ids or ():
                self._buckets.pop(key, None)
