"""Run a coroutine to completion from a test, whatever else the test process runs
(``benchmarks.loadtest.run_coroutine``: Playwright's sync API, when browser tests ran
earlier in the same process, leaves an event loop marked as running on the main thread)."""

from __future__ import annotations

from benchmarks.loadtest import run_coroutine as run_async

__all__ = ["run_async"]
