"""The tester's decisions and the occasions of each refusal reason (``rule:<reason>``).

A **decision** is one of the core's turns (:mod:`analytics.turns`: the tester's clicks
up to the action they made), here the ones that made a ``place``, ``move`` (``fly``
when the engine logged ``fly: true``) or ``remove``: a wall's removal is a decision of
its own, after the placement or move that formed the wall. A refused click belongs to
the decision the tester was trying to make.

A reason's **occasions** are the decisions in a phase where the engine can refuse a click
for it (:data:`REASON_PHASES`: ``occupied`` while placing or moving, ``not_adjacent``
while stepping, ``walled`` while removing …; a reason not listed there can bite in every
phase). Trouble: at least one click refused for the reason in the decision.

>>> from analytics.data import StudyData
>>> decisions(StudyData.empty("s")).empty
True
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics import derive
from analytics.confusion import later_games
from analytics.data import StudyData

REASON_PHASES: dict[str, tuple[str, ...]] = {
    "occupied": ("place", "move", "fly"),
    "not_adjacent": ("move",),
    "not_yours": ("move", "fly"),
    "select_first": ("move", "fly"),
    "no_moves": ("move",),
    "still_placing": ("place",),
    "placement_over": ("move", "fly"),
    "walled": ("remove",),
    "remove_empty": ("remove",),
    "remove_own": ("remove",),
    "removal_pending": ("remove",),
}
PHASES = ("place", "move", "fly", "remove")
DEFINITION = ("Occasions: the tester's decisions (place, move, remove) in a phase where "
              "the rules can refuse a click for this reason. Trouble: a click refused "
              "for it.")
COLUMNS = ["decision", "participant_id", "game_id", "phase", "later", "reasons"]


def phases(data: StudyData, turn_table: pd.DataFrame) -> pd.Series:
    """Per turn of ``turn_table`` (:func:`analytics.derive.turns` rows): the phase of the
    action that closed it (``place``, ``move``, ``fly`` or ``remove``; None: none)."""
    moves = derive.props_of(data, "move", ["seat", "point", "fly"])
    flew = moves.loc[moves["fly"].eq(True), "turn_no"].unique()
    action = turn_table["action"].astype(object)
    phase = action.where(action.isin(PHASES), None)
    return phase.where(~(action.eq("move") & turn_table["turn_id"].isin(flew)), "fly")


def decisions(data: StudyData) -> pd.DataFrame:
    """One row per decision of a tester: ``decision`` (1, 2, 3 … in its session),
    ``participant_id,
    game_id, phase, later`` (a later game than the tester's first) and ``reasons`` (the
    refusal reasons of its clicks, a list)."""
    return derive.remember(data, "morris:decisions", lambda: _decisions(data))


def _decisions(data: StudyData) -> pd.DataFrame:
    turn_table = derive.turns(data)
    phase = phases(data, turn_table)
    later = later_games(turn_table)
    mine = turn_table.assign(phase=phase, later=later)[phase.notna()]
    if mine.empty:
        return pd.DataFrame(columns=COLUMNS)
    wrong = derive.refusals(data)
    reasons = wrong.groupby("turn_id")["reason"].agg(list)
    return pd.DataFrame({
        "decision": mine.groupby("session_id", sort=False).cumcount().to_numpy() + 1,
        "participant_id": mine["participant_id"].to_numpy(),
        "game_id": mine["game_id"].to_numpy(),
        "phase": mine["phase"].to_numpy(),
        "later": mine["later"].to_numpy(dtype=bool),
        "reasons": [list(found) if isinstance(found, list) else []
                    for found in mine["turn_id"].map(reasons)]})


def reason_occasions(data: StudyData, attempted: pd.DataFrame) -> pd.Series:
    """Per turn with a click: the refusal reasons seen in the study that can bite in the
    phase of its action (none for a decision left unfinished)."""
    seen = sorted(set(derive.refusals(data)["reason"]))
    phase = phases(data, attempted)
    by_phase = {name: [r for r in seen if name in REASON_PHASES.get(r, PHASES)]
                for name in PHASES}
    return pd.Series([by_phase.get(p, []) if isinstance(p, str) else []
                      for p in phase], index=attempted.index, dtype=object)


def reason_label(name: str, extra: dict[str, Any]) -> str:
    """``Rule not understood: not adjacent``."""
    return f"Rule not understood: {name.replace('_', ' ')}"
