"""The tester's decisions in Vasco, and the refusals the rules gave them.

A **decision** is one tile the tester placed: from the end of the previous move (any
seat's ``place`` or ``auto`` event, or the game's start) to the tester's ``place``
event. Its clicks are the tester's ``click`` events in between; a click with
``ok: false`` is a **refusal**, with the engine's ``reason`` (``mismatch``, ``dead_cell``,
``not_connected``…).

Every decision is an **occasion** of every refusal reason: any tile on any cell could
have been refused for any of them (the board offers only cells where some tile fits,
but a tile can still be wrong). A reason's **rate** is the share of decisions with at
least one refusal of that reason, with its 95 % Wilson interval.

>>> from analytics.data import StudyData
>>> decisions(StudyData.empty("s")).empty, reason_table(StudyData.empty("s")).empty
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from analytics import derive
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
_MOVE_KINDS = ("place", "auto")
_RESET_KINDS = ("game_start", "win", "draw", "game_end")


def _ordered(data: StudyData) -> pd.DataFrame:
    events = derive.ordered_events(data)
    return events[events["type"].isin(("click", *_MOVE_KINDS, *_RESET_KINDS))]


def decisions(data: StudyData) -> pd.DataFrame:
    """One row per tile the tester placed (see the module docstring).

    ``first_ms``: the ``ms`` of the decision's first click (time from the board showing
    the turn to that click); ``decide_ms``: of its last (accepted) click;
    ``after_cascade``: forced tiles appeared since the tester's previous decision
    (``cascade_tiles`` of them), by either seat's move; ``game_id`` the game (the events'
    ``game_id`` column, else its ``game_start``) and ``later``: in a later game than the
    tester's first.
    """
    return derive.remember(data, "vasco:decisions", lambda: _decisions(data)).copy()


def _props(row: Any) -> dict[str, Any]:
    return row if isinstance(row, dict) else {}


def _decisions(data: StudyData) -> pd.DataFrame:
    events = _ordered(data)
    found: list[dict[str, Any]] = []
    for _, session in events.groupby("session_code", sort=False):
        clicks: list[dict[str, Any]] = []
        autos = 0
        number = 0
        game_id: Any = None
        games = session["game_id"] if "game_id" in session else [None] * len(session)
        for kind, props, pid, sid, event_game in zip(
            session["type"],
            session["props"],
            session["participant_id"],
            session["session_id"],
            games,
            strict=True,
        ):
            p = _props(props)
            if isinstance(event_game, str) and event_game:
                game_id = event_game  # the event's own game column, when it has one
            if kind == "click":
                if p.get("stale") is not True:
                    clicks.append(p)
                continue
            if kind in _RESET_KINDS:
                clicks, autos = [], 0
                if kind == "game_start":
                    game_id = p.get("game_id", game_id)
                continue
            if kind == "auto":
                autos += 1
                continue
            # a place: the tester's when their clicks led to it (the seat that clicked)
            seat = p.get("seat")
            mine = [c for c in clicks if c.get("seat") == seat] if clicks else []
            if mine:
                number += 1
                refused = [c for c in mine if c.get("ok") is False]
                ms = [float(c["ms"]) for c in mine if isinstance(c.get("ms"), int | float)]
                found.append(
                    {
                        "participant_id": pid,
                        "session_id": sid,
                        "game_id": game_id,
                        "later": False,
                        "decision": number,
                        "seat": seat,
                        "cell": mine[-1].get("cell"),
                        "clicks": len(mine),
                        "refusals": len(refused),
                        "reasons": [str(c.get("reason")) for c in refused],
                        "first_ms": ms[0] if ms else np.nan,
                        "decide_ms": ms[-1] if ms else np.nan,
                        "after_cascade": autos > 0,
                        "cascade_tiles": autos,
                    }
                )
                autos = 0
            clicks = []
    table = pd.DataFrame(found, columns=DECISION_COLUMNS)
    if not table.empty:
        # a later game: a known game other than the first the tester's decisions were in
        first = table.groupby("participant_id", sort=False)["game_id"].transform("first")
        table["later"] = table["game_id"].notna() & first.notna() & (
            table["game_id"] != first)
    return table


#: The ``rule:<reason>`` confusion points' definition on the designer's pages.
DEFINITION = ("Occasions: every tile the tester placed (any tile on any space could have "
              "been refused for any reason). Trouble: a click of theirs refused for this "
              "reason before the tile went down. Rate: decisions with such a refusal per "
              "decision, with a 95 % Wilson interval.")


def reason_tallies(data: StudyData, attempted: pd.DataFrame, later: pd.Series
                   ) -> tuple[list[Any], float | None]:
    """``rule:<reason>`` tallies for every refusal reason seen in the study (the
    occasions of each are all the testers' decisions)."""
    from analytics.confusion import occasion_tallies

    del attempted, later  # Vasco's turns are its own decisions, not the core's rolls
    table = decisions(data)
    seen = sorted({reason for found in table["reasons"] for reason in found})
    frames = [pd.DataFrame({
        "candidate": reason, "participant_id": table["participant_id"],
        "later": table["later"],
        "trouble": table["reasons"].map(lambda found, r=reason: r in found)})
        for reason in seen]
    if not frames:
        return [], None
    return occasion_tallies(pd.concat(frames, ignore_index=True), "rule", 0.0, 1.0), None


def reason_label(name: str, extra: dict[str, Any]) -> str:
    """``Rule not understood: dead cell``."""
    return f"Rule not understood: {name.replace('_', ' ')}"


def wrong_clicks_by_reason(data: StudyData) -> pd.DataFrame:
    """The testers' refused clicks per reason: ``reason, clicks, participants, per_turn``
    (refused clicks per decision), most frequent first (the core's bar chart reads it).

    >>> wrong_clicks_by_reason(StudyData.empty("s")).empty
    True
    """
    table = decisions(data)
    rows = [(reason, pid) for found, pid in zip(table["reasons"], table["participant_id"],
                                                strict=True) for reason in found]
    wrong = pd.DataFrame(rows, columns=["reason", "participant_id"])
    if wrong.empty:
        return pd.DataFrame(columns=["reason", "clicks", "participants", "per_turn"])
    grouped = wrong.groupby("reason")
    out = pd.DataFrame({"clicks": grouped.size(),
                        "participants": grouped["participant_id"].nunique()})
    out["per_turn"] = out["clicks"] / max(len(table), 1)
    return out.rename_axis("reason").reset_index().sort_values(
        "clicks", ascending=False, kind="stable").reset_index(drop=True)


def wilson(k: int, n: int) -> tuple[float, float]:
    """95 % Wilson interval of ``k`` successes in ``n`` (NaNs when ``n`` is 0).

    >>> [round(v, 3) for v in wilson(3, 10)]
    [0.108, 0.603]
    """
    if n <= 0:
        return (float("nan"), float("nan"))
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    return (float(low), float(high))


def reason_table(data: StudyData) -> pd.DataFrame:
    """Per refusal reason seen: ``reason, decisions_with, occasions, rate, ci_low, ci_high,
    refusals, testers`` (most frequent first)."""
    table = decisions(data)
    columns = ["reason", "decisions_with", "occasions", "rate", "ci_low", "ci_high",
               "refusals", "testers"]  # fmt: skip
    if table.empty or not any(len(rs) for rs in table["reasons"]):
        return pd.DataFrame(columns=columns)
    occasions = len(table)
    rows = []
    reasons = sorted({r for rs in table["reasons"] for r in rs})
    for reason in reasons:
        hit = table["reasons"].map(lambda rs, r=reason: r in rs)
        k = int(hit.sum())
        low, high = wilson(k, occasions)
        rows.append(
            {
                "reason": reason,
                "decisions_with": k,
                "occasions": occasions,
                "rate": k / occasions,
                "ci_low": low,
                "ci_high": high,
                "refusals": int(sum(rs.count(reason) for rs in table["reasons"])),
                "testers": int(table.loc[hit, "participant_id"].nunique()),
            }
        )
    out = pd.DataFrame(rows)
    return out.sort_values(
        ["decisions_with", "reason"], ascending=[False, True], kind="stable"
    ).reset_index(drop=True)
