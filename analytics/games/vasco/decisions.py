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
    (``cascade_tiles`` of them), by either seat's move.
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
        for kind, props, pid, sid in zip(
            session["type"],
            session["props"],
            session["participant_id"],
            session["session_id"],
            strict=True,
        ):
            p = _props(props)
            if kind == "click":
                if p.get("stale") is not True:
                    clicks.append(p)
                continue
            if kind in _RESET_KINDS:
                clicks, autos = [], 0
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
    return pd.DataFrame(found, columns=DECISION_COLUMNS)


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
