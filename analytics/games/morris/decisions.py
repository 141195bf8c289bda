"""The tester's decisions and the occasions of each refusal reason (``rule:<reason>``).

A **decision** is one action of a tester's seat: a ``place``, ``move`` (``fly`` when the
engine logged ``fly: true``) or ``remove`` event. Its clicks are the tester's clicks of
that seat after the previous action event of the game (either seat) up to it, so a
refused click belongs to the decision the tester was trying to make.

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

import numpy as np
import pandas as pd

from analytics import derive, severity
from analytics.confusion import occasion_tallies
from analytics.data import StudyData
from analytics.games.morris.telemetry import engine_events, human_clicks

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


def decisions(data: StudyData) -> pd.DataFrame:
    """One row per decision of a tester: ``decision`` (its event row), ``participant_id,
    game_id, phase, later`` (a later game than the tester's first) and ``reasons`` (the
    refusal reasons of its clicks, a list)."""
    return derive.remember(data, "morris:decisions", lambda: _decisions(data))


def _decisions(data: StudyData) -> pd.DataFrame:
    actions = engine_events(data, ["place", "move", "remove"])
    if actions.empty:
        return pd.DataFrame(columns=COLUMNS)
    actions["phase"] = np.where(actions["kind"] == "move",
                                np.where(actions["fly"].eq(True), "fly", "move"),
                                actions["kind"])
    actions["previous"] = actions.groupby("session_code")["row"].shift(1).fillna(-1) \
        .astype("int64")
    mine = actions[actions["human"]].copy()
    clicks = human_clicks(data)
    refused = clicks[~clicks["ok"] & clicks["reason"].notna()]
    reasons: list[list[str]] = [[] for _ in range(len(mine))]
    if len(refused) and len(mine):
        # each refused click goes to the first own action event at or after it
        matched = pd.merge_asof(
            refused[["row", "session_code", "reason"]].sort_values("row"),
            mine[["row", "session_code"]].assign(decision=mine["row"]).sort_values("row"),
            on="row", by="session_code", direction="forward")
        matched = matched[matched["decision"].notna()]
        previous = mine.set_index("row")["previous"]
        matched = matched[matched["row"] > matched["decision"].map(previous)]
        position = {row: i for i, row in enumerate(mine["row"])}
        for decision, reason in zip(matched["decision"].astype("int64"), matched["reason"],
                                    strict=True):
            reasons[position[int(decision)]].append(str(reason))
    games = mine["game_id"].astype(object).where(mine["game_id"].notna(), "")
    first_game = mine.assign(game=games).groupby("participant_id", sort=False)["game"] \
        .transform("first")
    return pd.DataFrame({"decision": mine["row"].to_numpy(dtype="int64"),
                         "participant_id": mine["participant_id"].to_numpy(),
                         "game_id": mine["game_id"].to_numpy(),
                         "phase": mine["phase"].to_numpy(),
                         "later": (games != first_game).to_numpy(dtype=bool),
                         "reasons": reasons})


def wrong_clicks_by_reason(data: StudyData) -> pd.DataFrame:
    """The testers' refused clicks per reason: ``reason, clicks, participants,
    per_turn`` (refused clicks per decision of the testers), most frequent first.

    >>> wrong_clicks_by_reason(StudyData.empty("s")).empty
    True
    """
    clicks = human_clicks(data)
    wrong = clicks[~clicks["ok"] & clicks["reason"].notna()]
    grouped = wrong.groupby("reason")
    table = pd.DataFrame({"clicks": grouped.size(),
                          "participants": grouped["participant_id"].nunique()})
    table["per_turn"] = table["clicks"] / max(len(decisions(data)), 1)
    return table.rename_axis("reason").reset_index().sort_values(
        "clicks", ascending=False, kind="stable").reset_index(drop=True)


def reason_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                   ) -> tuple[list[severity.Tally], float | None]:
    """``rule:<reason>`` tallies for every refusal reason seen in the study."""
    del attempted, later  # the core's turns are rolls: this game has its own decisions
    table = decisions(data)
    seen = sorted({reason for found in table["reasons"] for reason in found})
    frames = []
    for reason in seen:
        phases = REASON_PHASES.get(reason, PHASES)
        occasions = table[table["phase"].isin(phases)]
        frames.append(pd.DataFrame({
            "candidate": reason, "participant_id": occasions["participant_id"],
            "later": occasions["later"],
            "trouble": occasions["reasons"].map(lambda found, r=reason: r in found)}))
    if not frames:
        return [], None
    return occasion_tallies(pd.concat(frames, ignore_index=True), "rule", 0.0, 1.0), None


def reason_label(name: str, extra: dict[str, Any]) -> str:
    """``Rule not understood: not adjacent``."""
    return f"Rule not understood: {name.replace('_', ' ')}"
