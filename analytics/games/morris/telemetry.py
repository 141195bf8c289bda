"""Bricks & Walls telemetry read as tables (telemetry-format.md, ``click`` for other games).

- ``click``: ``seat`` (1-based), ``ok``, ``reason`` (the engine's refusal code when not
  ok), ``ms``, ``point`` and, when moving, ``from``. A stale tab's click
  (``stale: true``) is left out, as for every game.
- Engine events are logged as their kind with ``seat``: ``place``, ``move``, ``wall``
  (one per completed line, with its ``points``), ``remove``, ``skip``, ``win``, ``draw``.
- A seat is the tester's when the game's ``game_start`` lists it as ``human`` (the game
  is the event's ``game_id``, else the latest ``game_start`` of the session); games
  without a ``game_start`` count every seat as human.

>>> from analytics.data import StudyData
>>> list(human_clicks(StudyData.empty("s")).columns)[:4]
['participant_id', 'session_id', 'seq', 'at']
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData

CLICK_KEYS = ["seat", "ok", "reason", "ms", "point", "from", "stale"]
#: The props read per event type (one table each: what a study's snapshot keeps).
EVENT_KEYS: dict[str, list[str]] = {
    "game_start": ["game_id", "seats"],
    "game_end": ["game_id"],
    "place": ["seat", "point"],
    "move": ["seat", "point", "fly"],
    "wall": ["seat"],
    "remove": ["seat", "point"],
    "win": ["seat"],
    "draw": ["seat"],
}
#: The props tables of this game (``GameAnalytics.prepared``).
PREPARED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("click", tuple(CLICK_KEYS)),
    *((kind, tuple(keys)) for kind, keys in EVENT_KEYS.items()),
)


def _human(data: StudyData, table: pd.DataFrame) -> pd.Series:
    """Per row of ``table`` (a :func:`analytics.derive.props_of` frame with ``seat``):
    is the seat a human's?"""
    starts = derive.props_of(data, "game_start", EVENT_KEYS["game_start"])
    if table.empty or starts.empty:
        return pd.Series(True, index=table.index)
    latest = pd.merge_asof(
        table[["row", "session_code"]].reset_index().sort_values("row"),
        starts[["row", "session_code", "seats"]].sort_values("row"),
        on="row", by="session_code", direction="backward").set_index("index")["seats"]
    seat = pd.to_numeric(table["seat"], errors="coerce")

    def human(seats: object, number: float) -> bool:
        if isinstance(seats, tuple | np.ndarray):  # a list read back from a snapshot
            seats = list(seats)
        if not isinstance(seats, list):
            return True
        if not np.isfinite(number) or not 1 <= number <= len(seats):
            return False
        return bool(seats[int(number) - 1] == "human")

    return pd.Series([human(s, n) for s, n in zip(latest.reindex(table.index), seat,
                                                 strict=True)], index=table.index)


def human_clicks(data: StudyData) -> pd.DataFrame:
    """The testers' clicks (human seats, not stale), props as columns; ``ok`` bool,
    ``ms`` float; ordered as the events."""
    def build() -> pd.DataFrame:
        table = derive.props_of(data, "click", CLICK_KEYS)
        table = table[~table["stale"].eq(True)].drop(columns="stale").reset_index(drop=True)
        table["ok"] = table["ok"].fillna(False).astype(bool)
        table["ms"] = pd.to_numeric(table["ms"], errors="coerce")
        return table[_human(data, table).to_numpy(dtype=bool)].reset_index(drop=True)
    return derive.remember(data, "morris:human_clicks", build)


def engine_events(data: StudyData, kinds: list[str]) -> pd.DataFrame:
    """Events of the given kinds (:data:`EVENT_KEYS`; a ``kind`` column), with ``seat``,
    ``point``, ``fly`` (NaN where a kind has none) and ``human``, ordered as the events."""
    frames = []
    for kind in kinds:
        table = derive.props_of(data, kind, EVENT_KEYS[kind])
        table = table.reindex(columns=[*table.columns, *(c for c in ("seat", "point", "fly")
                                                          if c not in table.columns)])
        frames.append(table.assign(kind=kind))
    table = pd.concat(frames, ignore_index=True).sort_values("row", kind="stable") \
        .reset_index(drop=True)
    table["human"] = _human(data, table).to_numpy(dtype=bool)
    return table
