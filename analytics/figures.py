"""Plotly figure builders for the dashboard and the report (colour-blind-safe palettes).

Each builder takes the frame its ``analytics`` function returns, so pages can filter or
cache the numbers and draw them separately. Categorical colours are Okabe–Ito; heatmaps
use the perceptually uniform, colour-blind-safe ``Cividis`` scale.

>>> import pandas as pd
>>> fig = funnel_figure(pd.DataFrame({"step": ["consent", "done"], "reached": [10, 7],
...     "drop_off": [0, 3], "drop_off_rate": [0.0, 0.3], "median_seconds": [5.0, None]}))
>>> fig.data[0].type
'bar'
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from analytics.verdicts import difference_words

OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
             "#000000"]
HEATMAP_SCALE = "Cividis"


# The look of the charts in files (the HTML plan). Figures do not carry it: a template in
# a figure's layout costs a validated deep copy per figure (40-150 ms; a page draws five
# or more), and in the app Streamlit's theme replaces it anyway. Files add it as plain
# JSON when they are written (see analytics.report.report_html).
FILE_TEMPLATE: dict[str, Any] = pio.templates["plotly_white"].to_plotly_json()


def _layout(fig: go.Figure, title: str, **extra: Any) -> go.Figure:
    fig.update_layout(title=title, colorway=OKABE_ITO,
                      margin={"l": 60, "r": 20, "t": 60, "b": 50}, **extra)
    return fig


def funnel_figure(table: pd.DataFrame) -> go.Figure:
    """Bar per funnel step (participants reached), drop-off and median time in hover."""
    seconds = table["median_seconds"].astype(float).round(1).fillna(-1).tolist()
    optional = (table["optional"].astype(bool).tolist() if "optional" in table
                else [False] * len(table))
    hover = [("optional extra game: no drop-off" if extra
              else f"drop-off {drop} ({rate:.0%})") + "<br>median time on step "
             + (f"{sec:g} s" if sec >= 0 else "–")
             for drop, rate, sec, extra in zip(table["drop_off"], table["drop_off_rate"],
                                               seconds, optional, strict=True)]
    fig = go.Figure(go.Bar(x=[html.escape(str(step)) for step in table["step"]],
                           y=table["reached"],
                           marker_color=[OKABE_ITO[1] if extra else OKABE_ITO[4]
                                         for extra in optional],
                           text=table["reached"], textposition="outside", hovertext=hover,
                           name="reached"))
    return _layout(fig, "Funnel: participants reaching each step",
                   xaxis_title="step", yaxis_title="participants")


def wrong_class_figure(table: pd.DataFrame, column: str = "wrong_kind") -> go.Figure:
    """Horizontal bars of wrong clicks per class (``wrong_kind``) or ``rule_reason``."""
    ordered = table.sort_values("clicks")
    fig = go.Figure(go.Bar(
        x=ordered["clicks"],
        # Plotly renders a subset of HTML in labels: data strings are escaped to stay text.
        y=[html.escape(str(v).replace("_", " ")) for v in ordered[column]],
        orientation="h", marker_color=[OKABE_ITO[i % len(OKABE_ITO)]
                                       for i in range(len(ordered))],
        customdata=ordered[["participants", "per_turn"]].to_numpy(),
        hovertemplate="%{y}: %{x} clicks<br>%{customdata[0]} participants"
                      "<br>%{customdata[1]:.3f} per turn<extra></extra>"))
    title = "Wrong clicks by class" if column == "wrong_kind" else "Rule wrong clicks by reason"
    return _layout(fig, title, xaxis_title="wrong clicks")


def score_distribution_figure(scores: pd.DataFrame, instrument: str,
                              variants: pd.Series | None = None,
                              norm_mean: float | None = None) -> go.Figure:
    """Box + points of an instrument's ``total`` scores by phase (and variant)."""
    table = scores[(scores["instrument"] == instrument) & (scores["scale"] == "total")]
    table = table.assign(value=pd.to_numeric(table["value"], errors="coerce"))
    table = table.assign(group=table["participant_id"].map(variants)
                         if variants is not None else "all")
    fig = go.Figure()
    for index, (group, part) in enumerate(table.groupby("group", sort=True)):
        fig.add_box(x=part["phase"], y=part["value"], name=str(group), boxpoints="all",
                    jitter=0.4, marker_color=OKABE_ITO[index % len(OKABE_ITO)])
    if norm_mean is not None:
        fig.add_hline(y=norm_mean, line_dash="dash", line_color=OKABE_ITO[7],
                      annotation_text=f"norm {norm_mean:g}")
    return _layout(fig, f"{instrument} scores", boxmode="group", yaxis_title="score")


def _wrap(label: str, width: int = 26) -> str:
    """A long axis label on two or more lines (narrow screens keep room for the plot).

    >>> _wrap("Response time after the message (primary)")
    'Response time after the<br>message (primary)'
    """
    lines: list[str] = []
    for word in label.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def experiment_effect_figure(experiment: dict[str, Any]) -> go.Figure:
    """A forest plot where right is always better: each metric's difference between the
    two variants it compares, with its 95 % interval, signed so that right favours the
    second (a lower-is-better metric's difference turned round), in units of that
    metric's smallest difference worth acting on (``min_effect``), so metrics of
    different units share one axis; the band from −1 to +1 holds differences too small
    to act on. Each side names the variant it favours ("← A better", "B better →");
    a metric with no better side (e.g. game length) says in its label what right means.
    The primary metric (always-valid interval) is drawn first and larger; metrics
    without variance are listed, not plotted.

    ``experiment`` is one ``experiments[]`` entry of the report JSON.

    >>> fig = experiment_effect_figure({"key": "w", "headline": "B is better", "metrics": [
    ...     {"metric": "response_time", "name": "Response time", "role": "primary",
    ...      "direction": "lower", "compared": ["A", "B"], "effect": -3.0,
    ...      "ci95": [-5.0, -1.0], "min_effect": 1.0, "effect_text": "−3.0 s [−5.0, −1.0]"},
    ...     {"metric": "completion", "name": "Completion", "role": "secondary",
    ...      "direction": "higher", "compared": ["A", "B"], "effect": -0.2,
    ...      "ci95": [-0.3, -0.1], "min_effect": 0.1, "effect_text": "−20 pp"}]})
    >>> [round(x, 1) for x in fig.data[0].x]  # B faster: right; B completes less: left
    [3.0, -2.0]
    >>> [note.text for note in fig.layout.annotations]  # each side says whom it favours
    ['<b>← A better</b>', '<b>B better →</b>']
    """
    names: list[str] = []
    effects: list[float | None] = []
    lows: list[float] = []
    highs: list[float] = []
    texts: list[str] = []
    sizes: list[int] = []
    colours: list[str] = []
    entries = experiment.get("metrics", [])
    pairs = {tuple(m.get("compared") or list(m["variants"])[:2]) for m in entries}
    one_pair = len(pairs) == 1
    for metric in entries:
        control, treatment = metric.get("compared") or list(metric["variants"])[:2]
        label = str(metric.get("name") or metric["metric"])
        effect, ci = metric.get("effect"), metric.get("ci95") or [None, None]
        scale = metric.get("min_effect") or 1.0
        primary = metric.get("role") == "primary"
        if metric.get("no_variance") or effect is None or ci[0] is None or ci[1] is None:
            names.append(_wrap(html.escape(f"{label} (no variance: not tested)"
                                           if metric.get("no_variance")
                                           else f"{label} (no data)")))
            effects.append(None)
            lows.append(0.0)
            highs.append(0.0)
            texts.append("")
            sizes.append(0)
            colours.append(OKABE_ITO[7])
            continue
        role = "primary" if primary else "guardrail" if metric.get("guardrail") else \
            "secondary"
        direction = metric.get("direction")
        sign = -1.0 if direction == "lower" else 1.0
        right = f"right: {treatment} better"
        if direction not in ("lower", "higher"):
            right = f"right: {difference_words(str(metric.get('unit') or ''))[1]} with " \
                    f"{treatment}"
        detail = role if one_pair and direction in ("lower", "higher") else \
            f"{role}; {right}" if one_pair else f"{role}; {treatment} vs {control}"
        names.append(_wrap(html.escape(f"{label} ({detail})")))
        x = sign * effect / scale
        low, high = sorted((sign * ci[0] / scale, sign * ci[1] / scale))
        effects.append(x)
        lows.append(x - low)
        highs.append(high - x)
        texts.append(html.escape(f"{treatment} − {control}: "
                                 f"{metric.get('effect_text', '')}; {right}"))
        sizes.append(15 if primary else 10)
        colours.append(OKABE_ITO[5] if primary else OKABE_ITO[4])
    fig = go.Figure(go.Scatter(
        x=effects, y=names, mode="markers",
        marker={"color": colours, "size": sizes, "symbol": "diamond"},
        error_x={"type": "data", "symmetric": False, "array": highs, "arrayminus": lows,
                 "color": OKABE_ITO[4]}, text=texts,
        hovertemplate="%{y}<br>%{text}<extra></extra>"))
    # The band is explained in the axis title: a label inside it ran over the dashed line
    # at 0, and one long title line was cut off on a phone (short lines, centred).
    fig.add_vrect(x0=-1, x1=1, fillcolor=OKABE_ITO[7], opacity=0.12, line_width=0)
    fig.add_vline(x=0, line_dash="dash", line_color=OKABE_ITO[7])
    fig.update_yaxes(autorange="reversed")
    if one_pair and pairs:
        control, treatment = next(iter(pairs))
        sides = (f"← {control} better", f"{treatment} better →")
    else:
        sides = ("← worse", "better → for the variant named first")
    # Each side says whom it favours, at its own end above the plot, on a line of its own
    # (one line across the axis ran off a phone; side by side, long names overlapped).
    for x, anchor, side, lift in ((0.0, "left", sides[0], 18), (1.0, "right", sides[1], 0)):
        fig.add_annotation(x=x, y=1.0, xref="paper", yref="paper", xanchor=anchor,
                           yanchor="bottom", yshift=lift, showarrow=False, align=anchor,
                           text=f"<b>{html.escape(side)}</b>")
    headline = experiment.get("headline") or experiment.get("verdict", "")
    # two short lines: one long line ran off a phone
    title = _wrap(html.escape(f"Experiment {experiment.get('key', '')}:"), 34) + "<br>" + \
        _wrap(html.escape(str(headline)), 34)
    fig = _layout(fig, title, height=max(360, 170 + 48 * len(names)),
                  xaxis={"title": "difference ÷ smallest<br>worthwhile difference,"
                                  "<br>with 95% intervals; grey:<br>too small to act on"})
    fig.update_layout(margin={"t": 120, "b": 110})
    return fig
