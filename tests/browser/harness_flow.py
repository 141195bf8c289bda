"""A board harness app's server shared by a module's tests, each test logging its clicks
to a file of its own.

The harness apps in ``benchmarks/`` append every judged click to a file: the one
``?log=<name>`` names in the folder ``<GAME>_HARNESS_LOG_DIR`` of the server's
environment (one server per module, one log per test), else the file
``<GAME>_HARNESS_LOG`` (a server started by hand).

``wait_read``: wait for a board's DOM, read by a script, to satisfy a condition, the
browser looking for a change between the reads.

Import it by name (``from harness_flow import ClickLogs``), as ``study_flow``.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from benchmarks.devserver import StreamlitServer

#: How often the page reads the board again while it waits for a change, in ms.
CHANGE_POLL_MS = 50


@dataclass
class ClickLogs:
    """The module's harness ``server`` and the ``folder`` it logs clicks in."""

    server: StreamlitServer
    folder: Path
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def new_log(self) -> Path:
        """A log file no other test of the module writes (not created yet)."""
        return self.folder / f"clicks-{next(self._numbers)}.jsonl"

    def path(self, log: Path, query: str = "") -> str:
        """The page's path: ``query`` (``"?mode=computer"``) with ``log=<name>`` added."""
        params = [*parse_qsl(query.lstrip("?")), ("log", log.stem)]
        return "?" + urlencode(params)


def wait_read(root: Any, read: str, until: Callable[[dict[str, Any]], bool], what: str,
              timeout_s: float = 30) -> dict[str, Any]:
    """The board's state as ``read`` (a script ``root => {...}`` returning a JSON-able
    object) returns it, once ``until`` holds for it.

    The board is read once; while ``until`` does not hold, the page itself reads it again
    every :data:`CHANGE_POLL_MS` ms and answers only when the reading differs from the
    last one Python saw (no round trip per look, no animation-frame polling), and Python
    judges that one.
    """
    deadline = time.monotonic() + timeout_s
    text: str = root.evaluate(f"r => JSON.stringify(({read})(r))")
    d: dict[str, Any] = json.loads(text)
    changed = (f"([r, before]) => {{ const now = JSON.stringify(({read})(r));"
               " return now !== before ? now : false; }")
    while not until(d):
        left_ms = (deadline - time.monotonic()) * 1000
        if left_ms <= 0:
            raise AssertionError(f"timed out waiting for {what}; board: {d}")
        try:
            handle = root.page.wait_for_function(
                changed, arg=[root.element_handle(), text], timeout=left_ms,
                polling=CHANGE_POLL_MS)
        except PlaywrightTimeout:
            raise AssertionError(f"timed out waiting for {what}; board: {d}") from None
        text = handle.json_value()
        d = json.loads(text)
    return d
