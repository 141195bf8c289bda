"""Vapoosh!'s planted truths for ``python -m playtest.calibrate`` (:mod:`playtest.calibrate`).

Its demo testers play on the game's own dice-and-tiles screen, whose play model plants
them (:mod:`playtest.games.vapoosh.demo`): testers unsure of the rules capture when the
other rolled tile is free (``empty_priority``), and the default "Extra go!" wording of
``extra_turn`` leaves them unsure whose go it is. The demo's third truth, the hard
times-table facts, is left out here (it would crowd the rule out of the top 3; the facts
are calibrated by ``python -m analytics.calibrate``).

>>> PLANT.truth().rule_point, PLANT.wording.right
('rule:empty_priority', 'B')
"""

from playtest.calibrate import GamePlant, Wording
from playtest.games.vapoosh.demo import PLANTED_RULE, PLANTED_WORDING

PLANT = GamePlant(
    rule=PLANTED_RULE,
    wording=Wording(key=PLANTED_WORDING[0], arms={"A": "default", "B": "formal"},
                    puzzling=PLANTED_WORDING[1]),
    own_truths=frozenset({"rule", "wording"}),
)
