"""Vasco's board as a Streamlit custom component (Components v2), and its click events.

The front end is two real files in ``static/``: ``vasco_board.js`` (an ES module) and
``vasco_board.css``. The browser sends one trigger, ``click``, with the target clicked: a
cell ``"r,c"`` or a tile state such as ``"ox*"`` (a preview). :func:`parse_click` checks
it; :func:`render_board` drops re-sent, stale and non-interactive clicks (the shared
:class:`~playtest.board.component.EventGate`) before calling ``on_click``.

Example (inside a Streamlit script)::

    view = board_view(state, seats=("human", "computer"), selection=selection)
    render_board(view, key="vasco", on_click=lambda ev: play(ev.target))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from playtest.board.component import (
    PROJECT_NAME,
    BoardEventError,
    EventGate,
    _count,
    _text,
    component_renderer,
)
from playtest.games.vasco.view import BoardView

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
JS_FILE: Final = "vasco_board.js"
CSS_FILE: Final = "vasco_board.css"
COMPONENT_NAME: Final = f"{PROJECT_NAME}.vasco_board"
MAX_SEQ: Final = 10_000_000
MAX_T_MS: Final = 2**31 - 1
_TARGET = re.compile(r"^(-?\d{1,4},-?\d{1,4}|[ox*]{3})$")


@dataclass(frozen=True)
class ClickEvent:
    """A click (or Enter/Space) on a cell ``"r,c"`` or a tile preview ``"ox*"``."""

    target: str
    nonce: str
    seq: int
    t_ms: int
    via: str
    token: str


def parse_click(payload: Any) -> ClickEvent:
    """Check and convert a raw click payload.

    >>> parse_click({"target": "1,-2", "nonce": "n1", "seq": 2, "t_ms": 40, "token": "t"}).target
    '1,-2'
    >>> parse_click({"target": "<img src=x>", "nonce": "n2"})
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: click target must be a cell 'r,c' or a tile like 'ox*', got '<img src=x>'
    """
    if not isinstance(payload, Mapping):
        raise BoardEventError("a click payload is an object")
    target = payload.get("target")
    if not isinstance(target, str) or not _TARGET.match(target):
        raise BoardEventError(
            f"click target must be a cell 'r,c' or a tile like 'ox*', got {str(target)[:40]!r}"
        )
    return ClickEvent(
        target=target,
        nonce=_text(payload, "nonce"),
        seq=_count(payload, "seq", MAX_SEQ),
        t_ms=_count(payload, "t_ms", MAX_T_MS),
        via=_text(payload, "via", default="mouse", limit=16) or "mouse",
        token=_text(payload, "token", default=""),
    )


def _component() -> Any:
    """The board's mount command (:func:`playtest.board.component.component_renderer`)."""
    return component_renderer(PROJECT_NAME, "vasco_board", STATIC_DIR, js=JS_FILE,
                              css=CSS_FILE)


def _gate(key: str) -> EventGate:
    import streamlit as st

    name = f"_vasco_board_gate_{key}"
    if name not in st.session_state:
        st.session_state[name] = EventGate()
    gate: EventGate = st.session_state[name]
    return gate


def render_board(
    view: BoardView, *, key: str, on_click: Callable[[ClickEvent], None] | None = None
) -> None:
    """Mount the board for ``view`` under Streamlit ``key``; clicks reach ``on_click``."""
    import streamlit as st
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    gate = _gate(key)
    data = view.to_data()
    gate.shown(data["token"], interactive=view.interactive)

    def handle() -> None:
        value = st.session_state.get(key)
        payload = (
            value.get("click") if isinstance(value, Mapping) else getattr(value, "click", None)
        )
        if payload is None:
            return
        try:
            ev = parse_click(payload)
        except BoardEventError:
            gate.dropped["malformed"] += 1
            return
        if gate.admit(ev.nonce, ev.token) is None and on_click is not None:
            on_click(ev)

    if get_script_run_ctx(suppress_warning=True) is None:
        return
    _component()(key=key, data=data, on_click_change=handle)


def dropped_events(key: str) -> dict[str, int]:
    """How many clicks of board ``key`` were dropped, by reason."""
    return dict(_gate(key).dropped)
