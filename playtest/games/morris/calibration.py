"""Bricks & Walls' planted truths for ``python -m playtest.calibrate``
(:mod:`playtest.calibrate`):

- the misread rule: testers unsure of the rules move a brick to an empty point it is not
  joined to by a line (refused ``not_adjacent``), as if bricks could jump. (Taking a
  brick in a wall, ``walled``, is rarer to try: the other player seldom has a wall
  standing when the tester makes one, while every removal is one of its occasions.)
- the puzzling wording: the formal wording of ``wall``, shown when the tester makes a
  wall (before the removal it asks for), leaves testers unsure what to do.

>>> PLANT.truth().rule_point, PLANT.wording.right, PLANT.wording.wrong
('rule:not_adjacent', 'plain', 'formal')
"""

from playtest.calibrate import GamePlant, Wording

PLANT = GamePlant(
    rule="not_adjacent",
    wording=Wording(key="wall", shown_after=("wall",)),
)
