"""Vapoosh!: the dice-and-multiplication board game, exactly as vapoosh-rules.md.

Readings this engine fixes where the rules page leaves room:

- One seat (solo): there is no opponent, so nothing is ever captured (by
  replacement or surround) and no tile is ever suicide; brown counters still
  exist. "Both options own" makes the only seat owe a turn, which is paid at
  once (a ``skip`` event) and the seat rolls again. Solo games end with a
  pattern, VAPOOSH! or the ``max_turns`` draw.
- ``quad`` events are emitted only when ``quad_skips_next`` is on (the rule
  fired); a quad is always a square roll for ``square_extra_turn``.
- Re-rolls: the own+suicide case re-rolls while fewer than
  ``own_suicide_rerolls`` re-rolls were made this turn; once they are used up
  that case is a missed turn. Other blocked cases on a re-roll follow their own
  rule. Every roll, re-rolls included, counts towards ``max_turns``; the draw
  is declared when a roll would be due after ``max_turns`` rolls.
- ``brown_and_miss_next``: the roller owes one turn when the brown counter is
  placed (not when both options are already brown and the turn is missed).
- Surround capture is judged on the board right after the placement, for all
  neighbours at once (``group`` mode: whole groups); one ``surround_capture``
  event per tile (``tile``) or group (``group``), neighbours in board order
  (row by row). A win is checked after captures; a line is reported before a
  square when both complete.
- The Deal of preplaced counters is a chance action: ``legal_actions()`` and
  ``chance_outcomes()`` at setup list the deals of seeds 0..63 (each 1/64),
  but any *valid* deal is accepted (so the app can deal with any seed); it
  emits one ``deal`` event (the only event kind beyond scenario-format.md).
- ``state.skips`` lists only seats that owe turns; at ``over`` ``to_move`` is
  the winner (for a draw: the seat that would have rolled next);
  ``returns()`` gives the winner +1 and the others -1/(n-1) (solo win:
  [1.0]), all 0 for a draw.

>>> from engine.vapoosh import VapooshGame, Rules, Roll, Place
>>> state = VapooshGame(Rules.preset("standard"), players=2).new_initial_state()
>>> [e.kind for e in state.apply(Roll((3, 4, 2, 5)))] + [e.kind for e in state.apply(Place(7, 7))]
['roll', 'place', 'extra_turn']
"""

from __future__ import annotations

from engine.vapoosh.actions import (
    Action,
    Brown,
    Deal,
    Place,
    Roll,
    action_from_json,
    decode,
    encode,
)
from engine.vapoosh.clicks import ClickVerdict, classify_click
from engine.vapoosh.rules import PRESETS, Rules
from engine.vapoosh.state import Outcome, VapooshGame, VapooshState, deal_preplaced

__all__ = [
    "Action",
    "Brown",
    "ClickVerdict",
    "Deal",
    "Outcome",
    "PRESETS",
    "Place",
    "Roll",
    "Rules",
    "VapooshGame",
    "VapooshState",
    "action_from_json",
    "classify_click",
    "deal_preplaced",
    "decode",
    "encode",
]
