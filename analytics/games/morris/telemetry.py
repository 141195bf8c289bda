"""Bricks & Walls telemetry read as tables (telemetry-format.md, ``click`` for other games).

- ``click``: ``seat`` (1-based), ``ok``, ``reason`` (the engine's refusal code when not
  ok), ``ms``, ``point`` and, when moving, ``from``; logged before the engine's events
  of the action it made. A stale tab's click (``stale: true``) is left out, as for
  every game.
- Engine events are logged as their kind with ``seat``: ``place``, ``move``, ``wall``
  (one per completed line, with its ``points``), ``remove``, ``skip``, ``win``, ``draw``.
- A seat is the tester's when the game's ``game_start`` lists it as ``human``
  (:func:`analytics.derive.human_seats`, the core's one reading of seats).

>>> from analytics.data import StudyData
>>> list(human_clicks(StudyData.empty("s")).columns)[:4]
['participant_id', 'session_id', 'seq', 'at']
"""

from __future__ import annotations

import pandas as pd

from analytics import derive
from analytics.data import StudyData

#: The click props of this game beyond the contract's ``seat, ok, reason, ms``.
CLICK_KEYS = ("point", "from")
#: The props read per event type (one table each: what a study's snapshot keeps).
EVENT_KEYS: dict[str, list[str]] = {
    "place": ["seat", "point"],
    "move": ["seat", "point", "fly"],
    "wall": ["seat"],
    "remove": ["seat", "point"],
    "win": ["seat"],
    "draw": ["seat"],
    "game_end": ["game_id"],
}
#: The props tables of this game (``GameAnalytics.prepared``).
PREPARED: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (kind, tuple(keys)) for kind, keys in EVENT_KEYS.items())


def human_clicks(data: StudyData) -> pd.DataFrame:
    """The testers' clicks: the core's clicks (:func:`analytics.derive.clicks`) in their
    turns; ordered as the events."""
    table = derive.clicks(data)
    table = table.reindex(columns=[*table.columns, *(key for key in CLICK_KEYS
                                                      if key not in table.columns)])
    return table[table["turn_id"] >= 0].reset_index(drop=True)


def engine_events(data: StudyData, kinds: list[str]) -> pd.DataFrame:
    """Events of the given kinds (:data:`EVENT_KEYS`, or ``game_start``; a ``kind``
    column), with ``seat``, ``point``, ``fly`` (NaN where a kind has none) and ``human``,
    ordered as the events."""
    frames = []
    for kind in kinds:
        keys = ["game_id", "seats"] if kind == "game_start" else EVENT_KEYS[kind]
        table = derive.props_of(data, kind, keys)
        table = table.reindex(columns=[*table.columns, *(c for c in ("seat", "point", "fly")
                                                          if c not in table.columns)])
        frames.append(table.assign(kind=kind))
    table = pd.concat(frames, ignore_index=True).sort_values("row", kind="stable") \
        .reset_index(drop=True)
    table["human"] = derive.human_seats(data, table)[0]
    return table
