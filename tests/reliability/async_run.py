"""Run a coroutine to completion from a test, whatever else the test process runs.

Playwright's sync API (the browser tests, when they ran earlier in the same process)
leaves an event loop marked as running on the main thread, and ``asyncio.run`` refuses
to start inside it. A worker thread has no loop of its own, so the coroutine gets a
fresh one there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own; returns its result."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
