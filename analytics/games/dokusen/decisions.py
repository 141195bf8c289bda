"""The tester's decisions in Dokusen, the refusals the rules gave them, and the
confusion-point family of Dokusen's own.

A **decision** is one of the core's turns (:mod:`analytics.turns`) that placed a tile:
the tester's ``click`` events since the previous placement up to their ``place`` event.
A click with ``ok: false`` is a **refusal**, with the engine's ``reason``
(``own_square``, ``void``, ``not_your_turn``, ``game_over``, ``off_board``).

- ``rule:<reason>`` points (the core's): every turn of the tester's with a click is an
  **occasion** of every reason (any click on the board could be on an own square, a
  void, or come too early); **trouble**: at least one click refused for that reason in
  it (:func:`analytics.confusion.reason_table` gives the rates);
- ``flip:<stage>`` points (the "I placed it and it turned orange" signal, per stage):
  occasions are the tester's placements on that stage that a growth followed; trouble:
  the growth flipped the fresh tile (:func:`analytics.games.dokusen.stages.fresh_flips`).

A decision is **later** when it is in a later game than the tester's first (the severity
score's persistence).

>>> from analytics.data import StudyData
>>> decisions(StudyData.empty("s")).empty, reason_table(StudyData.empty("s")).empty
(True, True)
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analytics import derive, severity
from analytics.confusion import occasion_tallies, reason_table, turns_with_later
from analytics.data import StudyData
from analytics.games.dokusen.stages import fresh_flips, games

DECISION_COLUMNS = ["participant_id", "session_id", "game_id", "stage", "decision", "clicks",
                    "refusals", "reasons", "later"]
RULE_DEFINITION = ("Occasions: every turn of the tester's with a click (a tile placed, or "
                   "clicks without one). Trouble: at least one click refused for this "
                   "reason in it.")
FLIP_DEFINITION = ("Occasions: the tester's placements on the stage that a growth followed. "
                   "Trouble: the growth flipped the fresh tile to another colour (not taken "
                   "by a rival's placement first).")
#: A refusal reason as what the tester did (the labels of its points).
REASON_WORDS = {
    "own_square": "clicked a square they already own",
    "void": "clicked a void (not a square)",
    "not_your_turn": "clicked while a rival or a meteor was due",
    "game_over": "clicked after the stage ended",
    "off_board": "clicked off the board",
}
#: The fix to suggest for each refusal reason of the engine (engine/dokusen/state.py).
ACTIONS = {
    "rule:own_square": "Mark the tester's own squares more clearly (their symbol) and say "
                       "that a tile goes on a black or a rival's square.",
    "rule:void": "Draw void cells so they do not look like squares.",
    "rule:not_your_turn": "Show more clearly that the board is busy while rivals and "
                          "meteors act (dim it, say whose turn it is).",
    "rule:game_over": "Make the end screen's Retry / Next stage the obvious way on.",
    "rule:off_board": "Leave a clear margin around the board, and make its edge squares "
                      "large enough to hit.",
}


def decisions(data: StudyData) -> pd.DataFrame:
    """One row per tile the tester placed (see the module docstring)."""
    return derive.remember(data, "dokusen:decisions", lambda: _decisions(data)).copy()


def _decisions(data: StudyData) -> pd.DataFrame:
    placed = turns_with_later(data, "place")
    if placed.empty:
        return pd.DataFrame(columns=DECISION_COLUMNS)
    stages = games(data).drop_duplicates("game_id").set_index("game_id")["stage"]
    reasons = derive.refusals(data).groupby("turn_id")["reason"].agg(list)
    return pd.DataFrame({
        "participant_id": placed["participant_id"].to_numpy(),
        "session_id": placed["session_id"].to_numpy(),
        "game_id": placed["game_id"].to_numpy(),
        "stage": placed["game_id"].map(stages).fillna("custom").to_numpy(dtype=object),
        "decision": placed.groupby("session_id", sort=False).cumcount().to_numpy() + 1,
        "clicks": placed["n_clicks"].to_numpy(dtype="int64"),
        "refusals": placed["n_wrong"].to_numpy(dtype="int64"),
        "reasons": [list(found) if isinstance(found, list) else []
                    for found in placed["turn_id"].map(reasons)],
        "later": placed["later"].to_numpy(dtype=bool)}, columns=DECISION_COLUMNS)


def flip_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                 ) -> tuple[list[severity.Tally], float | None]:
    """``flip:<stage>`` tallies: per stage, the tester's placements (their decisions, the
    core's turns: ``attempted``) that a growth followed, and the fresh flips; later: the
    decision's (``later``, per turn)."""
    flips = fresh_flips(data)
    flips = flips[flips["turn_id"].isin(attempted["turn_id"])]
    if flips.empty:
        return [], None
    later_by_turn = pd.Series(later.reindex(attempted.index).fillna(False).to_numpy(dtype=bool),
                              index=attempted["turn_id"].to_numpy())
    frame = pd.DataFrame({
        "candidate": flips["stage"], "participant_id": flips["participant_id"],
        "later": flips["turn_id"].map(later_by_turn).fillna(False).astype(bool),
        "trouble": flips["flipped"].astype(bool)})
    return occasion_tallies(frame, "flip", 0.0, 0.5), None


def flip_label(name: str, extra: dict[str, Any]) -> str:
    """``Fresh tile flipped at once on S4``."""
    return f"Fresh tile flipped at once on {name}"


def flip_action(name: str, extra: dict[str, Any]) -> str:
    return (f"On {name}, show before the growth which placed tiles are outnumbered (the "
            "neighbour counts), or teach it on an earlier stage.")


__all__ = ["ACTIONS", "DECISION_COLUMNS", "FLIP_DEFINITION", "REASON_WORDS",
           "RULE_DEFINITION", "decisions", "flip_action", "flip_label", "flip_tallies",
           "reason_table"]
