"""Dokusen's hook for the simulated testers of ``playtest demo`` (:mod:`playtest.demo_play`):
the squares a person might click by mistake: every square of the stage's grid (void
squares, squares already taken), which the engine refuses with its reason.

>>> from engine.dokusen.state import DokusenGame
>>> targets = slip_targets(DokusenGame("S3").new_initial_state(), ())
>>> len(targets), targets[0]
(49, '0,0')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def slip_targets(state: Any, selection: Sequence[str]) -> list[str]:
    """Every square of the grid, ``"r,c"``."""
    rows = state.board_rows()
    return [f"{r},{c}" for r in range(len(rows)) for c in range(len(rows[r]))]
