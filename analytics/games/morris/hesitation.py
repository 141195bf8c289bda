"""Wall and removal hesitation: how long a tester takes once their wall forms.

A **removal becomes due** when a tester's action (a ``place`` or ``move`` event of a
human seat) completes a wall (``wall`` events of that seat; a double wall is one
removal) and the engine then waits for the removal: the next engine event of the game
is that seat's ``remove``. A wall that wins at once, or finds no enemy brick to take,
asks for no removal and is left out.

Per due removal (:func:`removals`):

- ``removal_ms``: time from the ``wall`` event to the ``remove`` event, i.e. from the
  wall's forming to the tester's removal click (the engine's events are logged as the
  click is applied, so the click's own position in the log does not matter);
- ``wrong_clicks`` and ``reasons``: the tester's clicks the rules refused in between
  (e.g. ``walled``: a brick in a wall; ``own_brick``);
- ``forming_ms``: the ``ms`` of the click that formed the wall (the tester's accepted
  click on the action's point nearest the wall event): hesitation *before* the wall.

:func:`hesitation_summary` gives each measure's median with a distribution-free 95 %
interval, and the share of removals with a wrong click first (Wilson interval).

>>> from analytics.data import StudyData
>>> removals(StudyData.empty("s")).empty
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics import derive
from analytics.data import StudyData
from analytics.games.morris.telemetry import engine_events, human_clicks
from analytics.stats import median_interval, wilson_interval

REMOVAL_COLUMNS = ["participant_id", "session_id", "game_id", "seat", "wall_at",
                   "removal_ms", "wrong_clicks", "reasons", "forming_ms"]
_ACTIONS = ("place", "move")
_ENDS = ("win", "draw", "game_start", "game_end")


def removals(data: StudyData) -> pd.DataFrame:
    """One row per removal that became due to a tester (see the module docstring)."""
    return derive.remember(data, "morris:removals", lambda: _removals(data)).copy()


def _removals(data: StudyData) -> pd.DataFrame:
    events = engine_events(data, ["place", "move", "wall", "remove", *_ENDS])
    if events.empty:
        return pd.DataFrame(columns=REMOVAL_COLUMNS)
    at_ms = derive._at_ms(events["at"])
    found: list[dict[str, Any]] = []
    for _, session in events.groupby("session_code", sort=False):
        pending: dict[str, Any] | None = None
        last_action: dict[str, Any] | None = None
        before_action = -1  # row of the engine event before the last action
        previous_row = -1
        for index, event in zip(session.index.to_numpy(dtype=int),
                                session.to_dict("records"), strict=True):
            kind, seat = event["kind"], event["seat"]
            if kind == "wall":
                if pending is None and last_action is not None \
                        and last_action["seat"] == seat and bool(event["human"]):
                    pending = {"participant_id": event["participant_id"],
                               "session_id": event["session_id"],
                               "session_code": event["session_code"],
                               "game_id": event["game_id"], "seat": seat,
                               "wall_at": event["at"], "wall_ms": at_ms[index],
                               "wall_row": int(event["row"]), "point": last_action["point"],
                               "from_row": before_action}
            elif kind == "remove":
                if pending is not None and seat == pending["seat"]:
                    pending["removal_ms"] = at_ms[index] - pending["wall_ms"]
                    pending["end_row"] = int(event["row"])
                    found.append(pending)
                pending = None
            else:
                pending = None  # the turn went on without a removal, or the game ended
                if kind in _ACTIONS:
                    last_action = {"seat": seat, "point": event["point"]}
                    before_action = previous_row
                else:
                    last_action = None
            previous_row = int(event["row"])
    if not found:
        return pd.DataFrame(columns=REMOVAL_COLUMNS)
    table = pd.DataFrame(found)
    _add_clicks(data, table)
    return table[REMOVAL_COLUMNS].reset_index(drop=True)


def _add_clicks(data: StudyData, table: pd.DataFrame) -> None:
    """Add ``wrong_clicks``, ``reasons`` and ``forming_ms`` to the removals (in place).

    Each session's clicks are taken once as arrays (a removal's clicks are then picked
    by masks on them, not by filtering frames: a study has hundreds of removals). The
    clicks' ``ok`` is a bool column (:func:`analytics.derive.clicks`)."""
    clicks = human_clicks(data)
    by_session = {
        code: (pd.to_numeric(part["seat"], errors="coerce").to_numpy(dtype=float),
               part["row"].to_numpy(), part["ok"].to_numpy(),
               part["point"].to_numpy(dtype=object), part["reason"].to_numpy(dtype=object),
               part["ms"].to_numpy())
        for code, part in clicks.groupby("session_code", sort=False)}
    wrong_counts: list[int] = []
    reasons: list[list[str]] = []
    forming: list[float] = []
    for removal in table.to_dict("records"):
        arrays = by_session.get(removal["session_code"])
        if arrays is None:
            wrong_counts.append(0)
            reasons.append([])
            forming.append(np.nan)
            continue
        seat, row, ok, point, reason, ms = arrays
        own = seat == pd.to_numeric(removal["seat"])
        before_end = own & (row < removal["end_row"])
        during = before_end & (row > removal["wall_row"]) & ~ok
        wrong_counts.append(int(during.sum()))
        reasons.append([str(r) for r in reason[during] if isinstance(r, str)])
        formed = np.flatnonzero(before_end & ok & (point == removal["point"])
                                & (row > removal["from_row"]))
        if not len(formed):
            forming.append(np.nan)
        else:
            nearest = formed[np.argmin(np.abs(row[formed] - removal["wall_row"]))]
            forming.append(float(ms[nearest]))
    table["wrong_clicks"] = wrong_counts
    table["reasons"] = reasons
    table["forming_ms"] = forming


def hesitation_summary(data: StudyData) -> pd.DataFrame:
    """Per measure: ``measure, definition, n, testers, median_ms, ci_low, ci_high``
    (medians with a distribution-free 95 % interval) and, for ``wrong_first``, the share
    of removals with a refused click before the removal (``share`` and its Wilson
    interval in ``ci_low``/``ci_high``; ``median_ms`` NaN)."""
    table = removals(data)
    rows: list[dict[str, Any]] = []
    for measure, column, definition in (
            ("removal", "removal_ms", "Time from the wall's forming to the tester's "
                                      "removal click (ms)."),
            ("wall_forming", "forming_ms", "The tester's time on the click that formed "
                                           "the wall (its ms, since the options "
                                           "appeared).")):
        values = pd.to_numeric(table[column], errors="coerce") if len(table) \
            else pd.Series(dtype=float)
        kept = table[values.notna()] if len(table) else table
        median, low, high = median_interval(values.to_numpy(dtype=float))
        rows.append({"measure": measure, "definition": definition,
                     "n": int(values.notna().sum()),
                     "testers": int(kept["participant_id"].nunique()) if len(kept) else 0,
                     "median_ms": median, "share": np.nan, "ci_low": low, "ci_high": high})
    wrong = int((table["wrong_clicks"] > 0).sum()) if len(table) else 0
    low, high = wilson_interval(wrong, len(table)) if len(table) else (np.nan, np.nan)
    rows.append({"measure": "wrong_first",
                 "definition": "Share of due removals with a refused click before the "
                               "removal.",
                 "n": len(table),
                 "testers": int(table["participant_id"].nunique()) if len(table) else 0,
                 "median_ms": np.nan, "share": wrong / len(table) if len(table) else np.nan,
                 "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


def _number(value: Any, digits: int) -> float | None:
    return None if value is None or not np.isfinite(value) else round(float(value), digits)


def hesitation_rows(data: StudyData, top: int, min_attempts: int) -> list[dict[str, Any]]:
    """The report's ``removal_hesitation`` (:func:`hesitation_summary`, JSON-safe)."""
    del top, min_attempts
    rows = []
    for row in hesitation_summary(data).to_dict("records"):
        interval = [_number(row["ci_low"], 4), _number(row["ci_high"], 4)]
        ms = row["measure"] != "wrong_first"
        rows.append({"measure": row["measure"], "definition": row["definition"],
                     "n": int(row["n"]), "testers": int(row["testers"]),
                     "median_ms": _number(row["median_ms"], 1),
                     "share": _number(row["share"], 4),
                     # the interval of the median (ms) or of the share
                     "interval_ms": interval if ms else None,
                     "interval": None if ms else interval})
    return rows
