"""``python -m engine scenario <path | ->`` run as a real subprocess from the project root,
for the scenario tests of every game (imported by name: pytest puts this folder on
``sys.path``, as for the oracles here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(path: Path | str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command on the file ``path`` (``"-"``: read ``stdin``); never raises on
    a non-zero exit, the caller checks ``returncode``, ``stdout`` and ``stderr``."""
    return subprocess.run(
        [sys.executable, "-m", "engine", "scenario", str(path)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
