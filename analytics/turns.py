"""What a **turn** is, for any game: where a game's log shows one seat's turn starting.

The per-turn numbers (wrong clicks per turn, thinking time per turn, the turn after a
message) need turns; games log them differently, so each game's analytics plug-in
(:class:`analytics.game_analytics.GameAnalytics`) carries a :class:`TurnRule`:

- **a turn marker** (``marker``): an event type every one of which starts a turn of the
  seat in its ``props.seat`` (a dice game's ``roll``: the turn is the roll and the clicks
  up to the next roll);
- **otherwise the acting seat** (:data:`GENERIC_DEFINITION`): a turn is a maximal run of
  one seat's acts, where an act is a ``click`` (not a stale tab's), an ``ai_move`` or one
  of the game's own action events (``acts``: ``place`` …, whose ``props.seat`` acted).
  A new turn starts when the acting seat changes, at a ``game_start`` or ``game_end``,
  and after one of the game's ``breaks`` (events after which the same seat plays again:
  a skipped opponent, the end of a round in a game played alone).

A tester's turn is a turn of a seat the game's ``game_start`` lists as ``human`` (every
seat when the game has no ``game_start``) that is not an ``ai_move``; without a marker it
must hold at least one click of the tester's (:func:`analytics.derive.turns`).

>>> import pandas as pd
>>> log = pd.DataFrame({
...     "type": ["game_start", "click", "click", "ai_move", "click", "skip", "click"],
...     "props": [{}, {"seat": 1}, {"seat": 1}, {"seat": 2}, {"seat": 1}, {}, {"seat": 1}],
...     "session_code": [0] * 7})
>>> turn_starts(log, TurnRule(breaks=("skip",))).tolist()
[False, True, False, True, True, False, True]
>>> turn_starts(log, TurnRule(marker="ai_move")).tolist()
[False, False, False, True, False, False, False]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

#: Events that are a seat acting whatever the game (``props.seat``).
ACTING_EVENTS = ("click", "ai_move")
#: Acts of the computer: a turn they start is never a tester's.
COMPUTER_EVENTS = ("ai_move",)
#: Events that end every turn (a game's first and last).
BOUNDARY_EVENTS = ("game_start", "game_end")

GENERIC_DEFINITION = (
    "A turn is a run of one seat's clicks and moves with no other seat acting in between "
    "(a new game, or the game's own turn end, also starts a new one); the tester's turns "
    "are those of their seat with at least one click. Thinking time: the ms of a turn's "
    "first click (from the board being ready to that click).")


@dataclass(frozen=True)
class TurnRule:
    """Where a game's turns start in its log (see the module docstring).

    ``marker``: an event type each of whose events starts a turn of its ``props.seat``
    ('' : turns follow the acting seat); ``acts``: the game's own events whose
    ``props.seat`` is the seat that acted; ``breaks``: events after which the next act
    starts a new turn even by the same seat; ``definition``: the words the pages show.
    """

    marker: str = ""
    acts: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()
    definition: str = GENERIC_DEFINITION


#: Turns by the acting seat alone (a game without a plug-in).
GENERIC_TURNS = TurnRule()


def _seat_and_stale(props: Any) -> tuple[float, bool]:
    if not isinstance(props, dict):
        return -1.0, False
    seat = props.get("seat")
    number = float(seat) if isinstance(seat, int | float) and not isinstance(seat, bool) \
        else -1.0
    return number, props.get("stale") is True


def turn_starts(ordered: pd.DataFrame, rule: TurnRule) -> np.ndarray:
    """Per event of ``ordered`` (events in order, with ``type``, ``props`` and
    ``session_code``), whether a turn starts there under ``rule``."""
    kinds = ordered["type"].to_numpy()
    if rule.marker:
        return np.asarray(kinds == rule.marker, dtype=bool)
    starts = np.zeros(len(ordered), dtype=bool)
    acting = np.flatnonzero(np.isin(kinds, [*ACTING_EVENTS, *rule.acts]))
    if not len(acting):
        return starts
    props = ordered["props"].to_numpy()[acting]
    seat_stale = [_seat_and_stale(p) for p in props]
    seat = np.array([s for s, _ in seat_stale], dtype=float)
    stale = np.array([t for _, t in seat_stale], dtype=bool)
    acting, seat = acting[~stale], seat[~stale]
    if not len(acting):
        return starts
    boundary = np.isin(kinds, [*BOUNDARY_EVENTS, *rule.breaks])
    stretch = np.cumsum(boundary)[acting]  # acts between the same two boundaries
    session = ordered["session_code"].to_numpy()[acting]
    first = np.ones(len(acting), dtype=bool)
    first[1:] = ((seat[1:] != seat[:-1]) | (stretch[1:] != stretch[:-1])
                 | (session[1:] != session[:-1]))
    starts[acting[first]] = True
    return starts
