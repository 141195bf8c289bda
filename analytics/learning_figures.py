"""The Learning page's charts (Okabe–Ito colours, as :mod:`analytics.figures`): every
point is drawn with its 95 % interval.

>>> from analytics.learning import Estimate, GainSummary
>>> e = Estimate(1.0, 0.2, 1.8, 10)
>>> fig = gains_figure([GainSummary("all testers", e, e, e, e, e, 0)])
>>> fig.data[0].type, list(fig.data[0].y)
('scatter', ['all testers'])
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from analytics.figures import OKABE_ITO
from analytics.learning import GainSummary
from analytics.learning_view import RuleTrend


def _layout(fig: go.Figure, title: str, **extra: object) -> go.Figure:
    fig.update_layout(title=title, colorway=OKABE_ITO, showlegend=False,
                      margin={"l": 60, "r": 20, "t": 60, "b": 50}, **extra)
    return fig


def _interval(values: Sequence[float], lows: Sequence[float], highs: Sequence[float]
              ) -> dict[str, object]:
    return {"type": "data", "symmetric": False,
            "array": [h - v for v, h in zip(values, highs, strict=True)],
            "arrayminus": [v - lo for v, lo in zip(values, lows, strict=True)]}


def gains_figure(summaries: Sequence[GainSummary]) -> go.Figure:
    """Mean gain in correct facts per minute per group, with its paired 95 % interval."""
    names = [html.escape(s.group) for s in summaries]
    values = [s.gain_cpm.value for s in summaries]
    fig = go.Figure(go.Scatter(
        x=values, y=names, mode="markers", marker={"size": 11, "color": OKABE_ITO[4]},
        error_x=_interval(values, [s.gain_cpm.low for s in summaries],
                          [s.gain_cpm.high for s in summaries]),
        hovertext=[f"n = {s.gain_cpm.n}" for s in summaries]))
    fig.add_vline(x=0, line_dash="dot", line_color="#777")
    return _layout(fig, "Gain in facts per minute",
                   xaxis_title="after − before play (95% interval)",
                   height=140 + 40 * len(summaries), yaxis={"autorange": "reversed"})


def curve_figure(curve: pd.DataFrame) -> go.Figure:
    """The in-play learning curve: share right and median time per attempt number."""
    fig = make_subplots(rows=2, cols=1, vertical_spacing=0.16, subplot_titles=(
        "Share right (no maths slip)", "Median time to the first click"))
    fig.add_trace(go.Scatter(
        x=curve["label"], y=curve["right_rate"], mode="lines+markers",
        marker_color=OKABE_ITO[2], error_y=_interval(
            curve["right_rate"].tolist(), curve["right_low"].tolist(),
            curve["right_high"].tolist()),
        hovertext=[f"{n} tries by {t} testers" for n, t in
                   zip(curve["tries"], curve["testers"], strict=True)]), row=1, col=1)
    fig.add_trace(go.Scatter(
        x=curve["label"], y=curve["median_ms"] / 1000, mode="lines+markers",
        marker_color=OKABE_ITO[5], error_y=_interval(
            (curve["median_ms"] / 1000).tolist(), (curve["ms_low"] / 1000).tolist(),
            (curve["ms_high"] / 1000).tolist())), row=2, col=1)
    fig.update_xaxes(type="category")
    fig.update_xaxes(title_text="attempt at the same fact", row=2, col=1)
    fig.update_yaxes(title_text="share", tickformat=".0%", row=1, col=1)
    fig.update_yaxes(title_text="seconds", row=2, col=1)
    return _layout(fig, "In-play learning curve", height=560)


def facts_figure(table: pd.DataFrame, title: str) -> go.Figure:
    """Each fact's change in share right (partially pooled) with its 95 % interval."""
    labels = [html.escape(str(f).replace("x", " × ")) for f in table["fact"]]
    values = (table["change"] * 100).tolist()
    colours = [OKABE_ITO[2] if v == "improved" else OKABE_ITO[5] if v == "got worse"
               else "#888" for v in table["verdict"]]
    fig = go.Figure(go.Scatter(
        x=values, y=labels, mode="markers", marker={"size": 9, "color": colours},
        error_x=_interval(values, (table["change_low"] * 100).tolist(),
                          (table["change_high"] * 100).tolist()),
        hovertext=[f"{v}: {b}→{a} tries" for v, b, a in
                   zip(table["verdict"], table["n_before"], table["n_after"], strict=True)]))
    fig.add_vline(x=0, line_dash="dot", line_color="#777")
    return _layout(fig, title, xaxis_title="change in share right, percentage points "
                   "(95% interval)", height=160 + 18 * len(table),
                   yaxis={"autorange": "reversed", "type": "category"})


def rules_figure(trend: RuleTrend) -> go.Figure:
    """Rule errors per turn in the first and the second half of testers' turns."""
    parts = [("first half of turns", trend.first), ("second half", trend.later)]
    values = [e.value * 100 for _, e in parts]
    # points, not bars: no rule error at all (0 %) is a result, not a lack of data
    fig = go.Figure(go.Scatter(
        x=[name for name, _ in parts], y=values, mode="markers",
        marker={"size": 12, "color": [OKABE_ITO[1], OKABE_ITO[4]]},
        error_y=_interval(values, [e.low * 100 for _, e in parts],
                          [e.high * 100 for _, e in parts])))
    tops = [e.high * 100 for _, e in parts if e.high == e.high] + values
    fig.update_yaxes(range=[0, max(5.0, *[t for t in tops if t == t]) * 1.1])
    return _layout(fig, "Turns with a rule error",
                   yaxis_title="% of turns (95% interval)")


def quiz_figure(rows: pd.DataFrame) -> go.Figure:
    """The rules quiz: share right per question, before and after play when both."""
    fig = go.Figure()
    for number, (phase, part) in enumerate(rows.groupby("phase", sort=False)):
        values = (part["rate"] * 100).tolist()
        fig.add_trace(go.Bar(
            x=[html.escape(str(i)) for i in part["item"]], y=values,
            name="before play" if phase == "pre" else "after play",
            marker_color=OKABE_ITO[1 + 3 * number % 6],
            error_y=_interval(values, (part["low"] * 100).tolist(),
                              (part["high"] * 100).tolist())))
    fig.update_layout(showlegend=True, barmode="group")
    fig = _layout(fig, "Rules quiz: share right",
                  yaxis_title="% right (95% interval)", yaxis_range=[0, 100])
    fig.update_layout(showlegend=True)
    return fig
