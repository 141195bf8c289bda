"""Vasco's sections of the designer's pages and of the plan: refusal reasons with their
occasions, and the forced-cascade surprise, each with its definition and 95 % interval.

>>> from analytics.data import StudyData
>>> empty = StudyData.empty("s")
>>> reason_rows(empty, 10, 0), surprise_rows(empty, 10, 0)[0]["measure"]
([], 'slow first click after a forced cascade')
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from analytics import figures as core_figures
from analytics.confusion import reason_table, wrong_clicks_by_reason
from analytics.data import StudyData
from analytics.games.vasco.cascades import surprise

#: The surprise measure in one paragraph (shown under its table and in the plan).
SURPRISE_DEFINITION = (
    "A decision (a tile the tester placed) follows a cascade when forced tiles slid in "
    "since their previous one. It is slow when its first click took more than twice the "
    "tester's own median first click over decisions that followed no cascade (testers "
    "with fewer than two such decisions are left out). Surprise excess: the share of slow "
    "decisions after a cascade minus the share after none, with Newcombe's 95 % interval; "
    "an interval above 0 says cascades make testers stop and look."
)
REASONS_CAPTION = (
    "Refused clicks by the engine's reason. Occasions: every tile a tester placed. "
    "Rate: decisions with at least one refusal for the reason, with a 95 % Wilson "
    "interval; refusals: all such clicks; testers: how many had one."
)


def _round(value: float) -> float | None:
    return None if value is None or math.isnan(value) else round(float(value), 4)


def reason_rows(data: StudyData, top: int, min_attempts: int) -> list[dict[str, Any]]:
    """The plan's ``refusal_reasons``: one row per reason seen, most frequent first."""
    del top, min_attempts  # a handful of reasons: all are shown
    return [
        {"reason": str(row["reason"]), "decisions_with": int(row["decisions_with"]),
         "occasions": int(row["occasions"]), "rate": _round(row["rate"]),
         "interval": [_round(row["ci_low"]), _round(row["ci_high"])],
         "refusals": int(row["refusals"]), "testers": int(row["testers"])}
        for row in reason_table(data).to_dict("records")
    ]


def reasons_for_people(data: StudyData) -> pd.DataFrame:
    """The page's table of :func:`reason_rows` (reasons in words)."""
    table = reason_table(data)
    return table.assign(reason=table["reason"].astype(str).str.replace("_", " "))


def surprise_rows(data: StudyData, top: int, min_attempts: int) -> list[dict[str, Any]]:
    """The plan's ``cascade_surprise``: the measure in one row."""
    del top, min_attempts
    s = surprise(data)
    return [{
        "measure": "slow first click after a forced cascade",
        "testers": s.testers,
        "after_cascade": s.after_cascade, "slow_after_cascade": s.slow_after_cascade,
        "rate_after_cascade": _round(s.rate_after_cascade),
        "after_none": s.after_none, "slow_after_none": s.slow_after_none,
        "rate_after_none": _round(s.rate_after_none),
        "excess": _round(s.excess), "interval": [_round(s.ci_low), _round(s.ci_high)],
        "definition": SURPRISE_DEFINITION,
    }]


def surprise_for_people(data: StudyData) -> pd.DataFrame:
    """The page's one-row table of the surprise measure (shares as whole percents)."""
    row = surprise_rows(data, 0, 0)[0]

    def percent(value: float | None, sign: str = "") -> str:
        return "–" if value is None else f"{value:{sign}.0%}"

    low, high = row["interval"]
    return pd.DataFrame([{
        "testers": row["testers"],
        "after_cascade": row["after_cascade"],
        "rate_after_cascade": percent(row["rate_after_cascade"]),
        "after_none": row["after_none"],
        "rate_after_none": percent(row["rate_after_none"]),
        "excess": percent(row["excess"], "+"),
        "ci_low": low, "ci_high": high,
    }])


def reasons_figure(data: StudyData) -> go.Figure:
    """Bars of refused clicks per reason (the core's wrong-click chart)."""
    figure = core_figures.wrong_class_figure(wrong_clicks_by_reason(data), column="reason")
    figure.update_layout(title="Refused clicks by reason")
    return figure


def surprise_figure(data: StudyData) -> go.Figure:
    """Share of slow decisions after a cascade and after none, with Wilson intervals."""
    from analytics.game_parts import wilson

    s = surprise(data)
    names, shares, lows, highs, counts = [], [], [], [], []
    for name, k, n in (("after a cascade", s.slow_after_cascade, s.after_cascade),
                       ("after no cascade", s.slow_after_none, s.after_none)):
        low, high = wilson(k, n)
        share = k / n if n else math.nan
        names.append(name)
        shares.append(share)
        lows.append(share - low if n else 0.0)
        highs.append(high - share if n else 0.0)
        counts.append(f"{k} of {n}")
    figure = go.Figure(go.Bar(
        x=names, y=shares, text=counts, textposition="outside",
        marker_color=[core_figures.OKABE_ITO[1], core_figures.OKABE_ITO[2]],
        error_y={"type": "data", "symmetric": False, "array": highs, "arrayminus": lows},
        hovertemplate="%{x}: %{y:.0%} slow (%{text})<extra></extra>"))
    figure.update_layout(title="Slow first clicks after forced cascades",
                         yaxis_title="share of decisions that were slow",
                         yaxis_tickformat=".0%", yaxis_range=[0, 1])
    return figure
