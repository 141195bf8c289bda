"""Perft-style counts (python-chess ``.perft`` idea) over all 1296 rolls of fixed positions.

For each position and rule set: how many rolls lead to a placement, how many
legal moves those rolls offer in total, and how often each blocked/special
event fires. The numbers live in ``golden/perft.json``; regenerate after an
intended rules change with ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/engine/test_vapoosh_perft.py`` and review the diff. A few numbers are
also checked by hand below.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from vapoosh_testkit import position

PERFT = Path(__file__).resolve().parent / "golden" / "perft.json"

POSITIONS: dict[str, dict[tuple[int, int], str]] = {
    "empty": {},
    "crowded": {
        **{(c, r): "1" for c in range(2, 13, 3) for r in range(2, 13, 2)},
        **{(c, r): "2" for c in range(3, 13, 3) for r in range(3, 13, 2)},
        (7, 7): "B",
        (9, 8): "B",
    },
    "suicide_ring": {
        (5, 6): "2", (5, 8): "2", (4, 7): "2", (6, 7): "2",
        (7, 4): "2", (7, 6): "2", (6, 5): "2", (8, 5): "2",
        (12, 7): "2", (12, 9): "2", (11, 8): "2", (8, 12): "1",
    },
}  # fmt: skip
RULES = ["standard", "classic", "house"]


def perft(cells: dict[tuple[int, int], str], rules: str, players: int) -> dict[str, int]:
    start = position(cells, rules=rules, players=players)
    counts: Counter[str] = Counter()
    for roll in range(1296):
        state = start.clone()
        events = state.apply_action(roll)
        counts.update(e.kind for e in events)
        if state.phase == "place":
            counts["placing_rolls"] += 1
            counts["moves"] += len(state.legal_actions())
    return dict(sorted(counts.items()))


def compute() -> dict[str, dict[str, int]]:
    return {
        f"{name}/{rules}/{players}p": perft(cells, rules, players)
        for name, cells in POSITIONS.items()
        for rules in RULES
        for players in (2, 3)
    }


def test_perft_counts() -> None:
    got = compute()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        PERFT.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    assert got == json.loads(PERFT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("players", [2, 3])
def test_empty_board_counts_by_hand(players: int) -> None:
    got = perft({}, "standard", players)
    # every roll but the single VAPOOSH! places; 6x6x6x6 minus 1
    assert got["placing_rolls"] == 1295 and got["vapoosh"] == 1
    # moves: square rolls (P == G) have 1 option, other rolls 2, Vapooh rolls add 2 browns.
    square = sum(
        1 for a in range(1296) if (a // 216 + a // 36 % 6) == (a // 6 % 6 + a % 6)
    )  # pink sum == green sum (1-based offsets cancel)
    vapooh = 4 * 5  # exactly three 6s: 4 positions for the odd die, 5 values
    assert got["moves"] == (square - 1) * 1 + (1295 - (square - 1)) * 2 + vapooh * 2
