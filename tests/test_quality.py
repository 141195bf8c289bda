"""The layers stay apart. (ruff and mypy are steps of their own in .ci/run, not tests:
run them as ``.venv/bin/ruff check .`` and ``.venv/bin/python -m mypy``.)"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_lower_layers_never_import_upper_ones() -> None:
    """engine, surveys and analytics import nothing of ours above them (design/README.md)."""
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
                for name in banned:
                    if stripped.startswith((f"import {name}", f"from {name}")):
                        offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert offenders == []
