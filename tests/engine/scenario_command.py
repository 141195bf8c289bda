"""``python -m engine scenario <path | ->`` run as a real subprocess from the project root,
for the scenario tests of every game, and the comparison rules-other-games.md section 4
gives a harness (imported by name: pytest puts this folder on ``sys.path``, as for the
oracles here)."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.__main__ import main

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


def run_here(path: Path) -> subprocess.CompletedProcess[str]:
    """The same command on the file ``path``, in this process (the many small cases of
    a test; each game also has them run as a subprocess): its status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["scenario", str(path)])
    return subprocess.CompletedProcess(
        ["scenario", str(path)], status, out.getvalue(), err.getvalue()
    )


def as_set(tiles: list[Any] | None) -> frozenset[str] | None:
    """A list of ``[[r, c], state]`` as a set (section 4.2 compares tiles and autos so)."""
    return None if tiles is None else frozenset(repr(t) for t in tiles)


#: How section 4 compares a key, where it is not plain equality (4.2: sets).
COMPARE: dict[str, Callable[[Any], Any]] = {
    "tiles": as_set,
    "autoPlacements": lambda autos: [as_set(a) for a in autos],
}


def mismatches(expected: Mapping[str, Any], result: Mapping[str, Any]) -> list[str]:
    """Section 4's harness, step 3: every key present in ``expected`` compared with the
    result (absent keys are not checked); the keys that differ, with both values."""
    out = []
    for key, want in expected.items():
        same = COMPARE.get(key, lambda v: v)
        if key not in result or same(result[key]) != same(want):
            out.append(f"{key}: expected {want!r}, got {result.get(key, '<missing>')!r}")
    return out


def flagged(scenario: Mapping[str, Any]) -> list[bool]:
    """Section 4's harness, step 2: which actions the file says must be refused."""
    return [bool(a.get("expectIllegal")) for a in scenario["actions"]]


def refused(result: Mapping[str, Any]) -> list[bool]:
    """Which actions the engine refused (its ``refused`` key: a code or null per action)."""
    return [code is not None for code in result["refused"]]
