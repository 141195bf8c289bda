"""The points heatmap: the testers' clicks and wrong clicks on each of the 24 points.

``points_table(data)``: one row per point (all 24, in board order), ``point, clicks,
wrong, wrong_rate, ci_low, ci_high, testers, top_reason``. ``clicks`` counts the testers'
clicks on the point (selections, placements, moves' destinations and removals alike);
``wrong`` those the rules refused; ``wrong_rate = wrong / clicks`` (NaN without clicks)
with its 95 % Wilson interval; ``top_reason`` the most frequent refusal reason there.

>>> from analytics.data import StudyData
>>> table = points_table(StudyData.empty("s"))
>>> len(table), int(table["clicks"].sum())
(24, 0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analytics.data import StudyData
from analytics.games.morris.board import POINTS
from analytics.games.morris.telemetry import human_clicks
from analytics.stats import wilson_interval

COLUMNS = ["point", "clicks", "wrong", "wrong_rate", "ci_low", "ci_high", "testers",
           "top_reason"]


def points_table(data: StudyData) -> pd.DataFrame:
    """Clicks and wrong clicks per point (see the module docstring)."""
    clicks = human_clicks(data)
    clicks = clicks[clicks["point"].isin(POINTS)]
    grouped = clicks.assign(wrong=~clicks["ok"]).groupby("point")
    table = pd.DataFrame({"clicks": grouped.size(), "wrong": grouped["wrong"].sum(),
                          "testers": grouped["participant_id"].nunique()}) \
        .reindex(list(POINTS)).fillna(0).astype("int64").rename_axis("point").reset_index()
    wrong = clicks[~clicks["ok"] & clicks["reason"].notna()]
    top = wrong.groupby("point")["reason"].agg(lambda s: s.value_counts().index[0]) \
        if len(wrong) else pd.Series(dtype=object)
    table["top_reason"] = table["point"].map(top).astype(object)
    table["top_reason"] = table["top_reason"].where(table["top_reason"].notna(), None)
    intervals = [wilson_interval(int(k), int(n)) if n else (np.nan, np.nan)
                 for k, n in zip(table["wrong"], table["clicks"], strict=True)]
    table["wrong_rate"] = np.where(table["clicks"] > 0,
                                   table["wrong"] / table["clicks"].clip(lower=1), np.nan)
    table["ci_low"] = [low for low, _ in intervals]
    table["ci_high"] = [high for _, high in intervals]
    return table[COLUMNS]


def points_for_people(data: StudyData) -> pd.DataFrame:
    """:func:`points_table` most wrong-clicked first, '–' where nothing was refused."""
    table = points_table(data).sort_values(["wrong", "wrong_rate", "clicks"],
                                           ascending=False, kind="stable")
    return table.assign(top_reason=table["top_reason"].fillna("–"))


def points_rows(data: StudyData, top: int, min_attempts: int) -> list[dict[str, Any]]:
    """The report's ``points``: every point with a click, most wrong-clicked first
    (by wrong clicks, then rate); ``interval`` is the wrong rate's 95 % interval.
    ``top`` and ``min_attempts`` do not apply (24 points are few)."""
    del top, min_attempts
    table = points_table(data)
    table = table[table["clicks"] > 0].sort_values(["wrong", "wrong_rate", "clicks"],
                                                   ascending=False, kind="stable")
    return [{"point": str(row["point"]), "clicks": int(row["clicks"]),
             "wrong": int(row["wrong"]), "wrong_rate": round(float(row["wrong_rate"]), 4),
             "interval": [round(float(row["ci_low"]), 4), round(float(row["ci_high"]), 4)],
             "testers": int(row["testers"]), "top_reason": row["top_reason"]}
            for row in table.to_dict("records")]
