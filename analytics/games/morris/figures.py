"""Plotly figures of the Bricks & Walls board and its hesitation.

>>> from analytics.data import StudyData
>>> from analytics.games.morris.points import points_table
>>> [t.type for t in points_figure(points_table(StudyData.empty("s"))).data]
['scatter', 'scatter']
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from analytics.figures import HEATMAP_SCALE, OKABE_ITO, _layout
from analytics.games.morris.board import drawn_lines, xy


def points_figure(table: pd.DataFrame) -> go.Figure:
    """The board's 24 points: colour = wrong-click rate, size = clicks, lines drawn.

    Hover shows the point, its clicks, wrong clicks, rate with its 95 % interval and the
    most frequent refusal reason. Points nobody clicked are small and grey.
    """
    line_x: list[float | None] = []
    line_y: list[float | None] = []
    for start, end in drawn_lines():
        (x0, y0), (x1, y1) = xy(start), xy(end)
        line_x += [x0, x1, None]
        line_y += [y0, y1, None]
    fig = go.Figure(go.Scatter(x=line_x, y=line_y, mode="lines", hoverinfo="skip",
                               line={"color": OKABE_ITO[7], "width": 1}, showlegend=False))
    clicks = table["clicks"].to_numpy(dtype=float)
    biggest = max(float(clicks.max()) if len(clicks) else 0.0, 1.0)
    rates = table["wrong_rate"].to_numpy(dtype=float)
    hover = [html.escape(
        f"{point}: {int(n)} clicks, {int(k)} wrong"
        + (f" ({rate:.0%}, 95 % {low:.0%}–{high:.0%})" if n else "")
        + (f"; mostly {reason}" if isinstance(reason, str) else ""))
        for point, n, k, rate, low, high, reason in zip(
            table["point"], table["clicks"], table["wrong"], rates, table["ci_low"],
            table["ci_high"], table["top_reason"], strict=True)]
    fig.add_trace(go.Scatter(
        x=[xy(p)[0] for p in table["point"]], y=[xy(p)[1] for p in table["point"]],
        mode="markers+text", text=list(table["point"]), textposition="top right",
        textfont={"size": 10},
        hovertext=hover, hoverinfo="text", showlegend=False,
        marker={"size": 10 + 18 * np.sqrt(clicks / biggest), "opacity": 1.0,
                "color": np.where(np.isnan(rates), 0.0, rates), "cmin": 0.0,
                "cmax": max(0.05, float(np.nanmax(rates)) if np.isfinite(rates).any()
                            else 0.05),
                "colorscale": HEATMAP_SCALE, "showscale": True,
                # under the board: a phone keeps its width for the points
                "colorbar": {"title": {"text": "wrong rate", "side": "top"},
                             "tickformat": ".0%", "orientation": "h", "y": -0.08,
                             "thickness": 12},
                "line": {"color": OKABE_ITO[7], "width": 1}}))
    fig.update_xaxes(visible=False, range=[-0.6, 6.8])
    fig.update_yaxes(visible=False, autorange="reversed", scaleanchor="x")
    return _layout(fig, "Clicks per point<br><sup>size: clicks · colour: wrong rate"
                        "</sup>", height=560)


def hesitation_figure(removals: pd.DataFrame) -> go.Figure:
    """Box plots with points: time to the removal click, and time on the wall-forming
    click (ms)."""
    fig = go.Figure()
    for index, (column, name) in enumerate((("removal_ms", "wall → removal click"),
                                            ("forming_ms", "click that formed the wall"))):
        values = pd.to_numeric(removals[column], errors="coerce").dropna() \
            if len(removals) else pd.Series(dtype=float)
        fig.add_box(y=values, name=name, boxpoints="all", jitter=0.4,
                    marker_color=OKABE_ITO[(4 + index) % len(OKABE_ITO)])
    return _layout(fig, "Wall and removal hesitation", yaxis_title="ms", showlegend=False)
