"""A chart with nothing to show says so ("No data yet …") instead of drawing bare axes.

Designer pages draw charts through :func:`plot`. An empty study (or an empty filter, or a
study whose testers have not clicked yet) gives figures without points: every trace
empty, or a heatmap of zeros. Those are replaced by one line naming the chart.

>>> import plotly.graph_objects as go
>>> figure_is_empty(go.Figure(go.Bar(x=[], y=[])))
True
>>> figure_is_empty(go.Figure(go.Heatmap(z=[[0, 0], [0, None]])))
True
>>> figure_is_empty(go.Figure(go.Bar(x=["consent"], y=[3])))
False
>>> figure_is_empty(go.Figure(go.Bar(x=["a", "b"], y=[0, 0])))
True
>>> figure_is_empty(go.Figure(go.Scatter(x=[0.0], y=["B - A"])))
False

A figure kept on disk (:mod:`playtest.page_results` pickles them) holds its arrays as
Plotly's typed arrays (``{"dtype": "f8", "bdata": <base64>}``); their numbers count too:

>>> import pickle
>>> import numpy as np
>>> kept = pickle.loads(pickle.dumps(go.Figure(go.Heatmap(z=np.array([[0.0, 2.0]])))))
>>> figure_is_empty(kept)
False
>>> figure_is_empty(pickle.loads(pickle.dumps(go.Figure(go.Heatmap(z=np.zeros((2, 2)))))))
True
>>> figure_title(go.Figure(layout={"title": {"text": "Wrong clicks by class"}}))
'Wrong clicks by class'
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

NO_DATA = "No data yet"
ICON = ":material/hourglass_empty:"


def _numbers(values: Any) -> list[float]:
    """The finite numbers in a (possibly nested) sequence of values."""
    if values is None:
        return []
    if isinstance(values, str):
        return []
    if isinstance(values, Mapping):  # a typed array: {"dtype", "bdata"[, "shape"]}
        if "bdata" not in values or "dtype" not in values:
            return []
        array = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
        return [float(n) for n in array if math.isfinite(float(n))]
    if isinstance(values, int | float) and not isinstance(values, bool):
        return [float(values)] if math.isfinite(float(values)) else []
    if isinstance(values, Iterable):
        return [n for value in values for n in _numbers(value)]
    return []


def _trace_is_empty(trace: Any) -> bool:
    z = getattr(trace, "z", None)
    if z is not None:  # a heatmap: empty when it holds no non-zero number
        return not any(_numbers(z))
    values = [getattr(trace, axis, None) for axis in ("x", "y")]
    present = [v for v in values if v is not None]
    if not present or any(len(v) == 0 for v in present):
        return True
    if getattr(trace, "type", None) != "bar":
        return False  # a point at 0 (an effect of 0, say) is data
    # Bars: empty when every bar is 0 (counts of nothing).
    lengths = [_numbers(v) for v in present]
    numbers = [n for values in lengths for n in values]
    return bool(numbers) and not any(numbers)


def figure_is_empty(fig: go.Figure) -> bool:
    """True when no trace of ``fig`` has a point (or a non-zero heatmap cell) to show."""
    return all(_trace_is_empty(trace) for trace in fig.data)


def figure_title(fig: go.Figure) -> str:
    title = fig.layout.title.text if fig.layout.title else None
    return str(title) if title else "this chart"


def plot(fig: go.Figure, key: str, when_empty: str | None = None) -> None:
    """Draw ``fig``, or one line saying there is nothing in it yet."""
    if figure_is_empty(fig):
        st.info(f"{NO_DATA}: {when_empty or figure_title(fig)}.", icon=ICON)
        return
    st.plotly_chart(fig, key=key)


def no_testers_yet(participants: int, page: str | None = None) -> bool:
    """On a study without testers: say so once (and the page draws nothing else).
    ``page``: the page's title ("Experiments": "the Experiments page")."""
    if participants:
        return False
    st.info(f"{NO_DATA}: no tester has taken part in this study, so "
            f"{f'the {page} page' if page else 'this page'} has nothing to show yet. Share "
            "the study's link from the Studies page.", icon=ICON)
    return True
