"""No emoji in what testers read: the bundled surveys and the games' message catalogs.

Debian's Chromium (no emoji font) drew emoji as empty boxes on a child's survey pages;
the renderer draws faces with Material icons (surveys/streamlit_renderer.py), and texts
carry words only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")
SHOWN = sorted([*ROOT.glob("surveys/games/*/*.yaml"),
                *ROOT.glob("playtest/games/*/messages*.yaml")])


def test_there_are_texts_to_check() -> None:
    assert len(SHOWN) >= 8  # each game's surveys and message catalog


@pytest.mark.parametrize("path", SHOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_emoji_in_texts_shown_to_testers(path: Path) -> None:
    found = [(n, line.strip()) for n, line in
             enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if not line.lstrip().startswith("#") and EMOJI.search(line)]
    assert found == [], found
