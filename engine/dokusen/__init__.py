"""Dokusen: The Art of Domination (seed 004), exactly as rules-other-games.md §3.

A one-player territory game: the user (blue) places one tile a round on any square they
do not own, the active computer colours follow in ascending id, then every square
"grows" at once to the colour that strictly dominates its neighbours; meteors may then
strike. The stage is won with strictly more than half of the squares once none is black.

- :mod:`engine.dokusen.stage`: stages as data (``stages.json``: the eight proposed ones);
- :mod:`engine.dokusen.board`: the grid, growth, meteors (pure functions);
- :mod:`engine.dokusen.state`: :class:`DokusenGame` / :class:`DokusenState`
  (``engine.core.State`` and ``PlayableState``), registered as ``"dokusen"``;
- :mod:`engine.dokusen.ai`: the computer levels random, greedy, lookahead;
- :mod:`engine.dokusen.scenario`: ``python -m engine scenario`` for ``"game": "dokusen"``.

>>> from engine.core import make_game
>>> s = make_game("dokusen", "S1", 1).new_initial_state()
>>> s.phase, s.legal_targets()[:3]
('place', ['0,0', '0,1', '0,2'])
"""

from __future__ import annotations

from engine.dokusen.stage import (
    AI_LEVELS,
    Meteor,
    MeteorSchedule,
    Stage,
    StagePlayer,
    builtin_stages,
    load_stages,
    stage_by_id,
)
from engine.dokusen.state import (
    COLOUR_NAMES,
    DokusenGame,
    DokusenState,
    Outcome,
    Place,
    Strike,
    action_from_json,
)

__all__ = [
    "AI_LEVELS",
    "COLOUR_NAMES",
    "DokusenGame",
    "DokusenState",
    "Meteor",
    "MeteorSchedule",
    "Outcome",
    "Place",
    "Stage",
    "StagePlayer",
    "Strike",
    "action_from_json",
    "builtin_stages",
    "load_stages",
    "stage_by_id",
]
