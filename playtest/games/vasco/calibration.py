"""Vasco's planted truths for ``python -m playtest.calibrate`` (:mod:`playtest.calibrate`):

- the misread rule: testers unsure of the rules pick a cell and a tile from the tray
  (:data:`engine.vasco.geometry.STATES`) that does not fit its neighbours' colours there
  (refused ``mismatch``), then make their move;
- the puzzling wording: the demo's own (:data:`playtest.games.vasco.demo.PLANTED_WORDING`),
  the formal wording of ``forced_gap``, as the demo's wording experiment has it.

Each tester plays three games (a game is short: four or five tiles each).

>>> PLANT.truth().rule_point, PLANT.wording.right, PLANT.wording.wrong
('rule:mismatch', 'plain', 'formal')
"""

from collections.abc import Sequence
from typing import Any

from engine.vasco.geometry import STATES
from playtest.calibrate import GamePlant, Wording
from playtest.games.vasco.demo import (
    PLANTED_LOOKUPS,
    PLANTED_PAUSE_MS,
    PLANTED_WORDING,
    WORDING_EXPERIMENT,
)

PLANT = GamePlant(
    rule="mismatch",
    wording=Wording(key=PLANTED_WORDING[0], arms=dict(WORDING_EXPERIMENT["variants"]),
                    puzzling=PLANTED_WORDING[1], pause_ms=PLANTED_PAUSE_MS,
                    lookups=PLANTED_LOOKUPS),
    targets=lambda state, selection: _tray(state, selection),
    two_clicks=True,
    settings={"games_per_tester": 3},
)


def _tray(state: Any, selection: Sequence[str]) -> tuple[str, ...]:
    """The tiles of the tray (a tile is clicked once a cell is held).

    >>> len(_tray(None, ("0,0",))), _tray(None, ())
    (6, ())
    """
    return STATES if selection else ()
