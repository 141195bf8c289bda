"""The code stays lint- and type-clean: ruff and mypy run as part of the suite.

They run here (not only in .ci/run) so the README's single test command checks everything.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    result = _run(
        str(BIN / "ruff"), "check", "engine", "surveys", "analytics", "playtest", "benchmarks", "tests"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


#: What a lower layer may take from the engine below it: its value objects (a seat is
#: read once, with engine.seats.Seat, in every layer).
ENGINE_VALUES = ("from engine.seats import",)


def test_lower_layers_never_import_upper_ones() -> None:
    """engine, surveys and analytics import nothing of ours above them (design/README.md);
    analytics takes only the engine's value objects."""
    forbidden = {
        "engine": ("surveys", "analytics", "playtest"),
        "surveys": ("engine", "analytics", "playtest"),
        "analytics": ("engine", "surveys", "playtest"),
    }
    offenders = []
    for package, banned in forbidden.items():
        for path in (ROOT / package).rglob("*.py"):
            for line in path.read_text(encoding="utf-8").splitlines():
                stripped = line.strip()
                if package == "analytics" and stripped.startswith(ENGINE_VALUES):
                    continue
                for name in banned:
                    if stripped.startswith((f"import {name}", f"from {name}")):
                        offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert offenders == []
