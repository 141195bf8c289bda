"""The Bricks & Walls board as one Streamlit custom component (real ``static/board.js``
and ``static/board.css``), and its clicks judged by the engine.

``render_board(state, key=..., selection=..., sides=..., on_click=...)`` mounts the board.
Each click or tap (or Enter/Space on the focused point) is sent to Python; the browser
sends every click made since it last drew, so a quick select-then-move loses nothing:

    {"clicks": [{"point": "d5", "from": "d6", "nonce": "<uuid>", "ms": 2140,
                 "via": "mouse" | "touch" | "pen" | "keyboard", "token": "<position>"}]}

``from`` is the brick the browser had selected (or null); ``ms`` counts from the moment
the position appeared. The browser keeps re-sending a click until the data it gets back lists its nonce in
``ack``. Before ``on_click`` is called, a click is dropped (and counted in
``dropped_clicks(key)``) when its nonce was seen, it was made on another position than
the one on screen (``token``, e.g. the second click of a double click), or the board
took no input (computer to play, game over): the browser sends those too, so that every
click is counted somewhere.
Every other click is judged by the engine (``state.click(point, selection)``) and handed
to ``on_click`` as a :class:`JudgedClick`, whose ``telemetry()`` is the ``click`` event of
telemetry-format.md (``seat``, ``point``, ``from``, ``ok``, ``reason``, ``ms``). The
callback applies ``judged.result.action`` (if any) to the same state object and keeps
``judged.result.selection`` for the next render.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import streamlit as st
from streamlit.components.v2.types import ComponentRenderer
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from engine.core import ClickResult, Refusal
from engine.morris.board import is_point
from engine.morris.state import MorrisState
from playtest.board.component import (
    BoardEventError,
    batched_clicks,
    click_stamp,
    component_renderer,
    trigger_payload,
)
from playtest.games.click_gate import ClickGate, session_gate
from playtest.games.morris.view import PASS_AND_PLAY, Sides, board_data, position_token
from playtest.messages.catalog import MessageCatalog

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
PROJECT_NAME: Final = "playtest-morris"
COMPONENT_NAME: Final = f"{PROJECT_NAME}.board"


@dataclass(frozen=True)
class BoardClick:
    """One click as the browser sent it (not yet judged)."""

    point: str
    frm: str | None
    nonce: str
    ms: int
    via: str
    token: str


@dataclass(frozen=True)
class JudgedClick:
    """A click and what the rules make of it."""

    click: BoardClick
    seat: int  # 1-based, as in telemetry
    result: ClickResult

    def telemetry(self) -> dict[str, Any]:
        """The props of the ``click`` event (telemetry-format.md, other games: morris).

        >>> from engine.core import ClickResult, Refusal
        >>> c = BoardClick("d5", "d6", "n1", 812, "mouse", "g:3")
        >>> JudgedClick(c, 1, ClickResult(None, Refusal("not_adjacent", "..."),
        ...             ("d6",), {"point": "d5", "from": "d6"})).telemetry()
        {'seat': 1, 'point': 'd5', 'from': 'd6', 'ok': False, 'ms': 812, 'reason': 'not_adjacent'}
        """
        props: dict[str, Any] = {"seat": self.seat, "point": self.click.point}
        if "from" in self.result.fields:
            props["from"] = self.result.fields["from"]
        props["ok"] = self.result.ok
        props["ms"] = self.click.ms
        if self.result.refusal is not None:
            props["reason"] = self.result.refusal.reason
        return props

    @property
    def refusal(self) -> Refusal | None:
        return self.result.refusal


def parse_clicks(payload: Any) -> list[BoardClick]:
    """The clicks of one trigger payload (raises :class:`BoardEventError` if malformed).

    >>> parse_clicks({"clicks": [{"point": "a7", "from": None, "nonce": "n", "ms": 5,
    ...                          "via": "touch", "token": ":0"}]})[0].point
    'a7'
    >>> parse_clicks({"clicks": [{"point": "d4"}]})
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: click.point: 'd4' is not a point
    """
    out = []
    for raw in batched_clicks(payload):
        point = raw.get("point")
        if not isinstance(point, str) or not is_point(point):
            raise BoardEventError(f"click.point: {str(point)[:10]!r} is not a point")
        frm = raw.get("from")
        if frm is not None and not is_point(frm):
            raise BoardEventError(f"click.from: {str(frm)[:10]!r} is not a point")
        out.append(BoardClick(point, frm, *click_stamp(raw)))
    return out


def _gate(key: str) -> ClickGate:
    return session_gate("morris", key)


def dropped_clicks(key: str) -> dict[str, int]:
    """How many clicks of board ``key`` were dropped, by reason."""
    return dict(_gate(key).dropped)


def judge(state: MorrisState, click: BoardClick) -> JudgedClick:
    """What the rules make of a click, with the selection the browser held."""
    selection = () if click.frm is None else (click.frm,)
    return JudgedClick(click, state.current_player() + 1, state.click(click.point, selection))


def _component() -> ComponentRenderer:
    """The board's mount command (:func:`playtest.board.component.component_renderer`)."""
    return component_renderer(PROJECT_NAME, "board", STATIC_DIR, js="board.js",
                              css="board.css")


def render_board(
    state: MorrisState,
    *,
    key: str,
    selection: Sequence[str] = (),
    sides: Sides = PASS_AND_PLAY,
    on_click: Callable[[JudgedClick], None] | None = None,
    refusal: Refusal | None = None,
    catalog: MessageCatalog | None = None,
    variant: str = "default",
    game_id: str = "",
    highlight: bool = True,
) -> dict[str, Any]:
    """Mount the board for ``state`` under Streamlit ``key`` (element class ``st-key-<key>``).

    ``refusal``: the last click's refusal, shown as the message; ``variant``: the catalog
    wording; ``game_id``: tells games apart in position tokens; ``highlight``: ring the
    points a click may choose. Returns the data sent to
    the browser (for tests and logs).
    """
    data = board_data(
        state,
        selection=selection,
        sides=sides,
        refusal=refusal,
        catalog=catalog,
        variant=variant,
        game_id=game_id,
        highlight=highlight,
    )
    if get_script_run_ctx(suppress_warning=True) is None:
        return data  # bare mode (no `streamlit run`): nothing to mount
    gate = _gate(key)
    data["ack"] = gate.recent()  # the callbacks of this run have already judged them

    def handle() -> None:
        payload = trigger_payload(st.session_state, key, "click")
        if payload is None:
            return
        try:
            clicks = parse_clicks(payload)
        except BoardEventError:
            gate.dropped["malformed"] += 1
            return
        for click in clicks:
            seat = state.current_player()
            interactive = seat >= 0 and sides.kinds[seat] == "human"
            current = position_token(state, game_id)
            if gate.admit(click.nonce, click.token, current=current, interactive=interactive):
                continue
            judged = judge(state, click)
            if on_click is not None:
                on_click(judged)

    _component()(key=key, data=data, on_click_change=handle)
    return data
