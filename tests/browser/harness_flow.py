"""A board harness app's server shared by a module's tests, each test logging its clicks
to a file of its own.

The harness apps in ``benchmarks/`` append every judged click to a file: the one
``?log=<name>`` names in the folder ``<GAME>_HARNESS_LOG_DIR`` of the server's
environment (one server per module, one log per test), else the file
``<GAME>_HARNESS_LOG`` (a server started by hand).

Import it by name (``from harness_flow import ClickLogs``), as ``study_flow``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from benchmarks.devserver import StreamlitServer


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
