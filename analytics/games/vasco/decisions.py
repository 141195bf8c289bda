"""The tester's decisions in Vasco, and the refusals the rules gave them.

A **decision** is one of the core's turns (:mod:`analytics.turns`) that placed a tile:
the tester's ``click`` events from the end of the previous move (any seat's ``place``)
to their ``place`` event; a click with ``ok: false`` is a **refusal**, with the engine's
``reason`` (``mismatch``, ``dead_cell``, ``not_connected``…).

Every decision is an **occasion** of every refusal reason (the core's default): any tile
on any cell could have been refused for any of them (the board offers only cells where
some tile fits, but a tile can still be wrong). A reason's **rate** is the share of
decisions with at least one refusal of that reason, with its 95 % Wilson interval
(:func:`analytics.confusion.reason_table`).

>>> from analytics.data import StudyData
>>> decisions(StudyData.empty("s")).empty, reason_table(StudyData.empty("s")).empty
(True, True)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analytics import derive
from analytics.confusion import reason_table, turns_with_later
from analytics.data import StudyData

DECISION_COLUMNS = [
    "participant_id",
    "session_id",
    "game_id",
    "later",
    "decision",
    "seat",
    "cell",
    "clicks",
    "refusals",
    "reasons",
    "first_ms",
    "decide_ms",
    "after_cascade",
    "cascade_tiles",
]
#: The click props of this game beyond the contract's ``seat, ok, reason, ms``.
CLICK_KEYS = ("cell", "tile")
#: Where a game ends or starts again (a forced-tile count starts afresh).
_RESET_KINDS = ("game_start", "win", "draw", "game_end")
#: The props tables of this game (``GameAnalytics.prepared``): its forced tiles and ends.
PREPARED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("auto", ("seat",)), ("win", ("seat",)), ("draw", ("seat",)), ("game_end", ("game_id",)))
_KEYS = {"game_start": ["game_id", "seats"], "win": ["seat"], "draw": ["seat"],
         "game_end": ["game_id"]}


def decisions(data: StudyData) -> pd.DataFrame:
    """One row per tile the tester placed (see the module docstring).

    ``first_ms``: the ``ms`` of the decision's first click (time from the board showing
    the turn to that click); ``decide_ms``: of its last (accepted) click;
    ``after_cascade``: forced tiles appeared since the tester's previous decision of the
    game (``cascade_tiles`` of them), by either seat's move; ``game_id`` the game and
    ``later``: in a later game than the tester's first.
    """
    return derive.remember(data, "vasco:decisions", lambda: _decisions(data)).copy()


def _decisions(data: StudyData) -> pd.DataFrame:
    placed = turns_with_later(data, "place")
    if placed.empty:
        return pd.DataFrame(columns=DECISION_COLUMNS)
    click_table = derive.clicks(data)
    mine = click_table[click_table["turn_id"].isin(placed["turn_id"])]
    by_turn = mine.groupby("turn_id")
    wrong = derive.refusals(data)
    reasons = wrong.groupby("turn_id")["reason"].agg(list)
    ids = placed["turn_id"]
    tiles = _cascade_tiles(data, placed, click_table)
    table = pd.DataFrame({
        "participant_id": placed["participant_id"].to_numpy(),
        "session_id": placed["session_id"].to_numpy(),
        "game_id": placed["game_id"].to_numpy(),
        "later": placed["later"].to_numpy(dtype=bool),
        "decision": placed.groupby("session_id", sort=False).cumcount().to_numpy() + 1,
        "seat": placed["seat"].to_numpy(),
        "cell": ids.map(by_turn["cell"].last()).to_numpy(dtype=object),
        "clicks": placed["n_clicks"].to_numpy(dtype="int64"),
        "refusals": placed["n_wrong"].to_numpy(dtype="int64"),
        "reasons": [list(found) if isinstance(found, list) else []
                    for found in ids.map(reasons)],
        "first_ms": placed["first_ms"].to_numpy(dtype=float),
        "decide_ms": ids.map(by_turn["ms"].last()).to_numpy(dtype=float),
        "after_cascade": tiles > 0,
        "cascade_tiles": tiles,
    })
    table["seat"] = table["seat"].astype("int64")
    return table[DECISION_COLUMNS]


def _cascade_tiles(data: StudyData, placed: pd.DataFrame, click_table: pd.DataFrame
                   ) -> np.ndarray:
    """Per decision: the forced tiles (``auto`` events) since the tester's previous
    decision of the same game, or since the game started."""
    autos = derive.props_of(data, "auto", ["seat"])
    if autos.empty:
        return np.zeros(len(placed), dtype="int64")
    resets = pd.concat([derive.props_of(data, kind, keys)[["row", "session_code"]]
                        for kind, keys in _KEYS.items()], ignore_index=True)
    codes = click_table.drop_duplicates("turn_id").set_index("turn_id")["session_code"]
    session = placed["turn_id"].map(codes).to_numpy(dtype="int64")
    start = placed["row"].to_numpy(dtype="int64")
    span = int(max(start.max(initial=0), autos["row"].to_numpy().max(initial=0),
                   resets["row"].to_numpy().max(initial=0))) + 2
    order = np.lexsort((start, session))
    # the previous decision of the session, else nothing (-1), bounded by the last reset
    previous = np.full(len(placed), -1, dtype="int64")
    same = np.zeros(len(placed), dtype=bool)
    same[order[1:]] = session[order[1:]] == session[order[:-1]]
    previous[order[1:]] = np.where(same[order[1:]], start[order[:-1]], -1)
    reset_keys = np.sort(resets["session_code"].to_numpy(dtype="int64") * span
                         + resets["row"].to_numpy(dtype="int64"))
    at = np.searchsorted(reset_keys, session * span + start, side="left") - 1
    last_reset = np.where(at >= 0, reset_keys[np.maximum(at, 0)], -1)
    last_reset = np.where(last_reset // span == session, last_reset % span, -1)
    lower = np.maximum(previous, last_reset)
    auto_keys = np.sort(autos["session_code"].to_numpy(dtype="int64") * span
                        + autos["row"].to_numpy(dtype="int64"))
    return (np.searchsorted(auto_keys, session * span + start, side="left")
            - np.searchsorted(auto_keys, session * span + lower, side="right")
            ).astype("int64")


#: The ``rule:<reason>`` confusion points' definition on the designer's pages.
DEFINITION = ("Occasions: every tile the tester placed (any tile on any space could have "
              "been refused for any reason). Trouble: a click of theirs refused for this "
              "reason before the tile went down. Rate: decisions with such a refusal per "
              "decision, with a 95 % Wilson interval.")


__all__ = ["CLICK_KEYS", "DECISION_COLUMNS", "DEFINITION", "PREPARED", "decisions",
           "reason_table"]
