"""Plotly figures of the Vapoosh board and facts (palettes from :mod:`analytics.figures`).

>>> from analytics.games.vapoosh.heatmaps import _empty_board
>>> board_heatmap_figure(_empty_board(), "t", "n").data[0].type
'heatmap'
"""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

from analytics.figures import HEATMAP_SCALE, OKABE_ITO, _layout

TILE_LABELS = [str(n) for n in range(1, 13)]


def board_heatmap_figure(board: pd.DataFrame, title: str, value_label: str) -> go.Figure:
    """A 12×12 board (index ``r``, columns ``c``) with 1–12 headers, row 1 on top.

    Hover shows the tile, its number c×r and the value.
    """
    board = board.reindex(index=range(1, 13), columns=range(1, 13))
    numbers = [[c * r for c in range(1, 13)] for r in range(1, 13)]
    fig = go.Figure(go.Heatmap(
        z=board.to_numpy(dtype=float), x=TILE_LABELS, y=TILE_LABELS, colorscale=HEATMAP_SCALE,
        customdata=numbers, colorbar={"title": value_label}, xgap=1, ygap=1,
        hovertemplate="tile (c %{x}, r %{y}) = %{customdata}<br>" + value_label
                      + ": %{z}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", title="row r", type="category")
    fig.update_xaxes(side="top", title="column c", type="category")
    return _layout(fig, title, height=520)


def hardest_facts_figure(facts: pd.DataFrame, top: int = 15) -> go.Figure:
    """Bars of the hardest facts' wrong rate; median hesitation as markers (right axis)."""
    shown = facts.head(top)
    fig = go.Figure()
    fig.add_bar(x=[html.escape(str(f)) for f in shown["fact"]], y=shown["wrong_rate"], name="wrong rate",
                marker_color=OKABE_ITO[5], customdata=shown["attempts"],
                hovertemplate="%{x}: %{y:.0%} wrong of %{customdata} attempts<extra></extra>")
    fig.add_scatter(x=[html.escape(str(f)) for f in shown["fact"]], y=shown["median_ms"], name="median hesitation (ms)",
                    mode="markers", marker={"color": OKABE_ITO[4], "size": 10,
                                            "symbol": "diamond"}, yaxis="y2")
    return _layout(fig, "Hardest multiplication facts", yaxis={"title": "wrong rate",
                                                               "tickformat": ".0%"},
                   yaxis2={"title": "median ms", "overlaying": "y", "side": "right"},
                   legend={"orientation": "h", "y": -0.2})
