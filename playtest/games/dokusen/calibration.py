"""Dokusen's planted truths for ``python -m playtest.calibrate`` (:mod:`playtest.calibrate`):

- the misread rule: testers unsure of the rules play a square they already own (refused
  ``own_square``);
- the puzzling wording: the formal wording of ``grew``, shown after the colours grew, as
  the tester's turn starts.

Each tester plays four games (the demo study's number), so the stages go on.

>>> PLANT.truth().rule_point, PLANT.wording.right, PLANT.wording.wrong
('rule:own_square', 'plain', 'formal')
"""

from playtest.calibrate import GamePlant, Wording

PLANT = GamePlant(
    rule="own_square",
    wording=Wording(key="grew", shown_after=("grow",)),
    settings={"games_per_tester": 4},
)
