"""Dokusen's knowledge for the generic computer players (their ``Heuristics`` protocol).

- ``values(states)``: per seat, about ``2·P(win) − 1``: the user's value grows with how far
  their squares are above half of the board, *after* the growth the round still owes
  (squares grown, not squares placed, decide the stage); the computer colours share the
  opposite (as in :meth:`DokusenState.returns`); a finished stage gives its returns.
- ``describe``/``notes``: the move in words, and what it does (takes an enemy square,
  flips squares in the growth that follows).
- ``chance_outcomes``: the meteor impacts (one per owned square, no grouping).
- ``action_object``: :class:`Place` or :class:`Strike`.

>>> from engine.dokusen.state import DokusenGame, Place
>>> s = DokusenGame("S4").new_initial_state()
>>> h = HEURISTICS
>>> [round(v, 2) for v in h.values([s])[0]]     # no blue square yet, orange about to grow
[-0.96, 0.96]
>>> h.describe(s, s.game.encode(Place(0, 2)))
'blue places at (0,2)'
>>> h.notes(s, s.game.encode(Place(2, 2)))
['surrounded: it turns orange in the growth', 'grows into 4 neighbouring squares']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.dokusen.board import grow_cells, grown_owner
from engine.dokusen.state import DokusenState, colour_name

__all__ = ["HEURISTICS", "DokusenHeuristics", "user_value"]

#: How sharply the value follows the margin (tanh of SCALE × margin / total).
SCALE = 4.0


def user_value(state: DokusenState) -> float:
    """The user's value in -1..1 from the board after the growth the round owes."""
    if state.is_terminal():
        return state.returns()[0]
    game = state.game
    cells = state._cells if state.phase != "place" else grow_cells(game.grid, state._cells)
    total = game.squares
    user = cells.count(0)
    return math.tanh(SCALE * (user - total / 2) / total)


class DokusenHeuristics:
    """Dokusen's :class:`engine.players.base.Heuristics` (structurally; no import)."""

    def values(self, states: Sequence[Any]) -> list[list[float]]:
        out = []
        for s in states:
            n = s.game.num_players
            if s.is_terminal():
                out.append(list(s.returns()))
                continue
            v = user_value(s)
            out.append([v] + [-v / (n - 1)] * (n - 1) if n > 1 else [v])
        return out

    def describe(self, state: Any, action: int) -> str:
        obj = state.game.decode(action)
        if state.is_chance_node():
            return f"a meteor strikes ({obj.r},{obj.c})"
        return f"{colour_name(state.current_player())} places at ({obj.r},{obj.c})"

    def notes(self, state: Any, action: int) -> list[str]:
        if state.is_chance_node() or state.is_terminal():
            return []
        me = state.current_player()
        grid = state.game.grid
        cells = list(state.cells)
        out = []
        if cells[action] >= 0:
            out.append(f"takes {colour_name(cells[action])}'s square")
        cells[action] = me
        after = grown_owner(grid, cells, action)
        if after != me:
            out.append(f"surrounded: it turns {colour_name(after)} in the growth")
        gained = sum(
            1
            for j in grid.neighbours[action]
            if grown_owner(grid, cells, j) == me and cells[j] != me
        )
        if gained:
            out.append(f"grows into {gained} neighbouring square{'s' if gained > 1 else ''}")
        return out

    def chance_outcomes(self, state: Any) -> list[tuple[int, float]]:
        return list(state.chance_outcomes())

    def action_object(self, state: Any, action: int) -> Any:
        return state.game.decode(action)


HEURISTICS = DokusenHeuristics()
