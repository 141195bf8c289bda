"""Vapoosh!: the dice-and-multiplication board game, exactly as vapoosh-rules.md.

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
