"""Vasco (Cameron Browne, 2008): triangular tiles, forced placements, loops.

The rules are rules-other-games.md §2, exactly; readings of the open points are its
table 2.8 (V-a … V-k). Modules:

- :mod:`engine.vasco.geometry`: cells ``(r, c)``, edges L/R/H, vertices, tile states;
- :mod:`engine.vasco.board`: fit, dead cells, the forced cascade, paths and loops
  (pure functions over a ``{cell: state}`` board);
- :mod:`engine.vasco.state`: :class:`VascoGame` / :class:`VascoState` (engine.core's
  State and PlayableState), registered as ``"vasco"``;
- :mod:`engine.vasco.scenario`: section 4 scenarios for ``python -m engine scenario``;
- :mod:`engine.vasco.evaluation`: a position score for generic computer players.

>>> from engine.core import make_game
>>> s = make_game("vasco", "standard", 2).new_initial_state()
>>> s.legal_targets()
['0,0']
"""

from __future__ import annotations

from engine.vasco.board import REASONS, Auto, Move, Outcome, Path, judge, legal_states, paths, play
from engine.vasco.geometry import STATES, Cell, cell_name, parse_cell
from engine.vasco.state import (
    Place,
    Rules,
    VascoGame,
    VascoState,
    action_from_json,
    decode,
    encode,
)

__all__ = [
    "REASONS",
    "STATES",
    "Auto",
    "Cell",
    "Move",
    "Outcome",
    "Path",
    "Place",
    "Rules",
    "VascoGame",
    "VascoState",
    "action_from_json",
    "cell_name",
    "decode",
    "encode",
    "judge",
    "legal_states",
    "parse_cell",
    "paths",
    "play",
]
