"""Vasco's hook for the simulated testers of ``playtest demo`` (:mod:`playtest.demo_play`):
the cells a person might click by mistake.

Besides the cells where a tile may go, the board shows the empty cells around the group;
a tester unsure of the rules clicks those too (a cell no tile fits, one that would close
a gap no tile can fill, one that does not touch the group), and the engine refuses them
with its reason.

>>> from engine.vasco import VascoGame
>>> state = VascoGame().new_initial_state()
>>> sorted(slip_targets(state, ()))[:3]
['-1,-1', '-1,1', '0,-1']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.vasco.geometry import cell_name, neighbours


def slip_targets(state: Any, selection: Sequence[str]) -> list[str]:
    """Empty cells within two steps of the tiles (the start cell's ring on an empty board)."""
    placed = set(state.tiles) or {(0, 0)}
    ring = {n for cell in placed for n in neighbours(cell)}
    ring |= {n for cell in ring for n in neighbours(cell)}
    return sorted(cell_name(cell) for cell in ring - set(state.tiles))
