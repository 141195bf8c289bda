"""What a **turn** is, for any game: one decision of a seat, found in the game's log.

The per-turn numbers (wrong clicks per turn, thinking time per turn, the turn after a
message) and every game's confusion families count by turns. A turn is a **decision**:
a seat's clicks from the first one to the action the rules accept, with the refusals on
the way (each click of telemetry-format.md has ``seat``, ``ok``, ``ms`` and, refused, the
engine's ``reason``). Each game's analytics plug-in
(:class:`analytics.game_analytics.GameAnalytics`) carries a :class:`TurnRule` saying
where its decisions start and end in its log:

- **a turn marker** (``marker``): an event type every one of which starts a decision of
  the seat in its ``props.seat`` (a dice game's ``roll``: the options appear with it; the
  decision is the roll and the clicks up to the next roll);
- **otherwise the acting seat and its actions** (:data:`GENERIC_DEFINITION`): a decision
  starts with a seat's click (not a stale tab's) and ends with the next of the game's
  action events (``acts``: ``place``, ``move``, ``remove`` …, whose ``props.seat``
  acted) by that seat: the action its clicks made. Every other act (an ``ai_move``, an
  action with no click of its seat before it: the computer's) is a turn of its own, and
  a new decision also starts when another seat clicks, at a ``game_start`` or
  ``game_end``, and after one of the game's ``breaks``.

So in a game whose move takes two actions (a brick placed, then a brick taken because
the placement made a wall) each action is a decision of its own, and the wait before the
second one is measured where it happens.

A tester's turn is a turn of a seat the game's ``game_start`` lists as ``human`` (every
seat when the game has no ``game_start``) that is not an ``ai_move``; without a marker it
must hold at least one click of the tester's (:func:`analytics.derive.turns`).

>>> import pandas as pd
>>> log = pd.DataFrame({
...     "type": ["game_start", "click", "click", "place", "ai_move", "click", "skip",
...              "click"],
...     "props": [{}, {"seat": 1}, {"seat": 1}, {"seat": 1}, {"seat": 2}, {"seat": 1}, {},
...               {"seat": 1}],
...     "session_code": [0] * 8})
>>> turn_starts(log, TurnRule(acts=("place",), breaks=("skip",))).tolist()
[False, True, False, False, True, True, False, True]
>>> turn_starts(log, TurnRule(marker="ai_move")).tolist()
[False, False, False, False, True, False, False, False]
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
    "A turn is one decision of the tester's: their clicks from the first one to the "
    "action the rules accept (refused clicks on the way included); a new game, another "
    "seat's click or the game's own turn end also starts a new one. Thinking time: the ms "
    "of a turn's first click (from the board being ready to that click).")


@dataclass(frozen=True)
class TurnRule:
    """Where a game's decisions start and end in its log (see the module docstring).

    ``marker``: an event type each of whose events starts a turn of its ``props.seat``
    ('' : decisions follow the clicks and the actions); ``acts``: the game's own action
    events whose ``props.seat`` is the seat that acted (a decision ends with its seat's
    next one); ``breaks``: events after which the next act starts a new turn even by the
    same seat; ``definition``: the words the pages show.
    """

    marker: str = ""
    acts: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()
    definition: str = GENERIC_DEFINITION


#: Turns by the clicks and ``ai_move`` alone (a game without a plug-in).
GENERIC_TURNS = TurnRule()


def _seat_and_stale(props: Any) -> tuple[float, bool]:
    if not isinstance(props, dict):
        return -1.0, False
    seat = props.get("seat")
    number = float(seat) if isinstance(seat, int | float) and not isinstance(seat, bool) \
        else -1.0
    return number, props.get("stale") is True


def acting_rows(ordered: pd.DataFrame, rule: TurnRule) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``ordered`` where a seat acts under ``rule`` (clicks that are not a
    stale tab's, ``ai_move`` and the game's acts), and each one's seat (-1: none)."""
    kinds = ordered["type"].to_numpy()
    acting = np.flatnonzero(np.isin(kinds, [*ACTING_EVENTS, *rule.acts]))
    if not len(acting):
        return acting, np.zeros(0, dtype=float)
    seat_stale = [_seat_and_stale(p) for p in ordered["props"].to_numpy()[acting]]
    seat = np.array([s for s, _ in seat_stale], dtype=float)
    stale = np.array([t for _, t in seat_stale], dtype=bool)
    return acting[~stale], seat[~stale]


def turn_starts(ordered: pd.DataFrame, rule: TurnRule) -> np.ndarray:
    """Per event of ``ordered`` (events in order, with ``type``, ``props`` and
    ``session_code``), whether a turn starts there under ``rule``.

    Without a marker, an acting event starts a turn unless the acting event before it
    (between the same two boundaries, in the same session) is a click of the same seat:
    a seat's clicks run on in one decision, and its next act closes it.
    """
    kinds = ordered["type"].to_numpy()
    if rule.marker:
        return np.asarray(kinds == rule.marker, dtype=bool)
    starts = np.zeros(len(ordered), dtype=bool)
    acting, seat = acting_rows(ordered, rule)
    if not len(acting):
        return starts
    boundary = np.isin(kinds, [*BOUNDARY_EVENTS, *rule.breaks])
    stretch = np.cumsum(boundary)[acting]  # acts between the same two boundaries
    session = ordered["session_code"].to_numpy()[acting]
    is_click = kinds[acting] == "click"
    first = np.ones(len(acting), dtype=bool)
    first[1:] = ((stretch[1:] != stretch[:-1]) | (session[1:] != session[:-1])
                 | ~(is_click[:-1] & (seat[1:] == seat[:-1])))
    starts[acting[first]] = True
    return starts


def closing_acts(ordered: pd.DataFrame, rule: TurnRule, starts: np.ndarray) -> np.ndarray:
    """Per event of ``ordered``: is it the action that closes a decision (one of the
    game's ``acts`` right after its seat's clicks)? Never with a marker: a marker's turn
    runs to the next marker.

    >>> log = pd.DataFrame({"type": ["click", "place", "place"],
    ...                     "props": [{"seat": 1}, {"seat": 1}, {"seat": 2}],
    ...                     "session_code": [0, 0, 0]})
    >>> rule = TurnRule(acts=("place",))
    >>> closing_acts(log, rule, turn_starts(log, rule)).tolist()
    [False, True, False]
    """
    closing = np.zeros(len(ordered), dtype=bool)
    if rule.marker or not rule.acts:
        return closing
    kinds = ordered["type"].to_numpy()
    closing[np.flatnonzero(np.isin(kinds, rule.acts) & ~starts)] = True
    # a stale tab's click is no act: an act right after one starts a turn of its own
    # (turn_starts saw no click before it), so ~starts already leaves it out
    return closing
