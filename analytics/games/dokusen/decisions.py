"""The tester's decisions in Dokusen, the refusals the rules gave them, and the
confusion-point tallies of the two Dokusen families.

A **decision** is one tile the tester placed: the tester's ``click`` events (seat 1)
since the previous tester placement of the game (or the game's start) up to their
``place`` event. A click with ``ok: false`` is a **refusal**, with the engine's
``reason`` (``own_square``, ``void``, ``not_your_turn``, ``game_over``, ``off_board``).

- ``rule:<reason>`` points: every decision is an **occasion** of every reason (any click
  on the board could be on an own square, a void, or come too early); **trouble**: at
  least one click refused for that reason before the tile was placed.
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
from analytics.confusion import occasion_tallies
from analytics.data import StudyData
from analytics.games.dokusen.stages import fresh_flips, games, stage_label, wilson

DECISION_COLUMNS = ["participant_id", "session_id", "game_id", "stage", "decision", "clicks",
                    "refusals", "reasons", "later"]
REASON_COLUMNS = ["reason", "decisions_with", "occasions", "rate", "ci_low", "ci_high",
                  "refusals", "testers"]
RULE_DEFINITION = ("Occasions: every tile the tester placed. Trouble: at least one click "
                   "refused for this reason before placing it.")
FLIP_DEFINITION = ("Occasions: the tester's placements on the stage that a growth followed. "
                   "Trouble: the growth flipped the fresh tile to another colour (not taken "
                   "by a rival's placement first).")
REASON_WORDS = {
    "own_square": "clicked a square they already own",
    "void": "clicked a void (not a square)",
    "not_your_turn": "clicked while a rival or a meteor was due",
    "game_over": "clicked after the stage ended",
    "off_board": "clicked off the board",
}
ACTIONS = {
    "rule:own_square": "Mark the tester's own squares more clearly (their symbol) and say "
                       "that a tile goes on a black or a rival's square.",
    "rule:void": "Draw void cells so they do not look like squares.",
    "rule:not_your_turn": "Show more clearly that the board is busy while rivals and "
                          "meteors act (dim it, say whose turn it is).",
    "rule:game_over": "Make the end screen's Retry / Next stage the obvious way on.",
}


def _props(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def decisions(data: StudyData) -> pd.DataFrame:
    """One row per tile the tester placed (see the module docstring)."""
    return derive.remember(data, "dokusen:decisions", lambda: _decisions(data)).copy()


def _decisions(data: StudyData) -> pd.DataFrame:
    events = derive.ordered_events(data)
    if events.empty:
        return pd.DataFrame(columns=DECISION_COLUMNS)
    wanted = events[events["type"].isin(("click", "place", "game_start", "win", "loss",
                                         "game_end"))]
    found: list[dict[str, Any]] = []
    first_game: dict[str, Any] = {}
    for _, session in wanted.groupby("session_code", sort=False):
        clicks: list[dict[str, Any]] = []
        game_id: Any = None
        stage = "custom"
        number = 0
        for kind, props, pid, sid in zip(session["type"], session["props"],
                                         session["participant_id"], session["session_id"],
                                         strict=True):
            p = _props(props)
            if kind == "game_start":
                clicks, game_id = [], p.get("game_id")
                stage = stage_label(p.get("rules"))
                first_game.setdefault(str(pid), game_id)
                continue
            if kind in ("win", "loss", "game_end"):
                clicks = []
                continue
            if kind == "click":
                if p.get("seat", 1) == 1:
                    clicks.append(p)
                continue
            if p.get("seat") != 1 or game_id is None:
                continue  # a rival's placement
            number += 1
            refused = [c for c in clicks if c.get("ok") is False and c.get("reason")]
            found.append({
                "participant_id": pid, "session_id": sid, "game_id": game_id, "stage": stage,
                "decision": number, "clicks": len(clicks), "refusals": len(refused),
                "reasons": [str(c["reason"]) for c in refused],
                "later": game_id != first_game.get(str(pid)),
            })
            clicks = []
    return pd.DataFrame(found, columns=DECISION_COLUMNS)


def reason_table(data: StudyData) -> pd.DataFrame:
    """Per refusal reason seen: ``reason, decisions_with, occasions, rate, ci_low,
    ci_high`` (95 % Wilson), ``refusals, testers``; most frequent first."""
    table = decisions(data)
    if table.empty or not any(len(rs) for rs in table["reasons"]):
        return pd.DataFrame(columns=REASON_COLUMNS)
    occasions = len(table)
    rows = []
    for reason in sorted({r for rs in table["reasons"] for r in rs}):
        hit = table["reasons"].map(lambda rs, r=reason: r in rs)
        k = int(hit.sum())
        low, high = wilson(k, occasions)
        rows.append({"reason": reason, "decisions_with": k, "occasions": occasions,
                     "rate": k / occasions, "ci_low": low, "ci_high": high,
                     "refusals": int(sum(rs.count(reason) for rs in table["reasons"])),
                     "testers": int(table.loc[hit, "participant_id"].nunique())})
    return pd.DataFrame(rows, columns=REASON_COLUMNS).sort_values(
        ["decisions_with", "reason"], ascending=[False, True], kind="stable"
    ).reset_index(drop=True)


def wrong_clicks_by_reason(data: StudyData) -> pd.DataFrame:
    """The testers' refused clicks per reason: ``reason, clicks, participants, per_turn``
    (refused clicks per placement), what the core's wrong-click chart draws."""
    table = decisions(data)
    rows = [(r, pid) for rs, pid in zip(table["reasons"], table["participant_id"],
                                        strict=True) for r in rs]
    if not rows:
        return pd.DataFrame(columns=["reason", "clicks", "participants", "per_turn"])
    frame = pd.DataFrame(rows, columns=["reason", "participant_id"])
    grouped = frame.groupby("reason")
    out = pd.DataFrame({"clicks": grouped.size(),
                        "participants": grouped["participant_id"].nunique()})
    out["per_turn"] = out["clicks"] / max(len(table), 1)
    return out.rename_axis("reason").reset_index().sort_values(
        "clicks", ascending=False, kind="stable").reset_index(drop=True)


def reason_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                   ) -> tuple[list[severity.Tally], float | None]:
    """``rule:<reason>`` tallies for every refusal reason seen in the study."""
    del attempted, later  # the core's turns are dice rolls: Dokusen has its decisions
    table = decisions(data)
    seen = sorted({r for rs in table["reasons"] for r in rs})
    if not seen:
        return [], None
    frame = pd.concat([pd.DataFrame({
        "candidate": reason, "participant_id": table["participant_id"],
        "later": table["later"],
        "trouble": table["reasons"].map(lambda rs, r=reason: r in rs)}) for reason in seen],
        ignore_index=True)
    return occasion_tallies(frame, "rule", 0.0, 1.0), None


def flip_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                 ) -> tuple[list[severity.Tally], float | None]:
    """``flip:<stage>`` tallies: per stage, the tester's placements and the fresh flips."""
    del attempted, later
    flips = fresh_flips(data)
    if flips.empty:
        return [], None
    table = games(data)
    first = table.groupby("participant_id", sort=False)["game_id"].first()
    frame = pd.DataFrame({
        "candidate": flips["stage"], "participant_id": flips["participant_id"],
        "later": flips["game_id"].to_numpy() != flips["participant_id"].map(first).to_numpy(),
        "trouble": flips["flipped"].astype(bool)})
    return occasion_tallies(frame, "flip", 0.0, 0.5), None


def reason_label(name: str, extra: dict[str, Any]) -> str:
    """``Refused: clicked a void (not a square)``."""
    return f"Refused: {REASON_WORDS.get(name, name.replace('_', ' '))}"


def reason_action(name: str, extra: dict[str, Any]) -> str:
    return ACTIONS.get(f"rule:{name}", "Explain this rule where it applies.")


def flip_label(name: str, extra: dict[str, Any]) -> str:
    """``Fresh tile flipped at once on S4``."""
    return f"Fresh tile flipped at once on {name}"


def flip_action(name: str, extra: dict[str, Any]) -> str:
    return (f"On {name}, show before the growth which placed tiles are outnumbered (the "
            "neighbour counts), or teach it on an earlier stage.")
