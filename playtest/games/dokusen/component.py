"""The Dokusen board as one Streamlit custom component (real ``static/board.js`` and
``static/board.css``), and its clicks judged by the engine.

``render_board(state, key=..., events=..., on_click=..., on_action=...)`` mounts the board.
Each click or tap on a square (or Enter/Space on the focused square) is sent to Python;
the browser sends every click made since it last drew, so nothing is lost:

    {"clicks": [{"at": [r, c], "nonce": "<uuid>", "ms": 2140,
                 "via": "mouse" | "touch" | "pen" | "keyboard", "token": "<position>"}]}

``ms`` counts from the moment the position appeared (after the growth animation). A click
is dropped (and counted in ``dropped_clicks(key)``) when its nonce was seen, it was made
on another position than the one on screen, or the board took no input (a computer
colour or a meteor is due, the stage is over). Every other click is judged by the engine
(``state.click("r,c")``) and handed to ``on_click`` as a :class:`JudgedClick`, whose
``telemetry()`` is the ``click`` event of telemetry-format.md (``seat``, ``at``, ``ok``,
``reason``, ``ms``). The end screen's buttons send ``{"name": "retry" | "next", "nonce"}``
to ``on_action``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import streamlit as st
from streamlit.components.v2.types import ComponentRenderer
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from engine.core import ClickResult, Event, Refusal
from engine.dokusen.state import DokusenState
from playtest.board.component import (
    BoardEventError,
    batched_clicks,
    click_stamp,
    click_text,
    component_renderer,
    trigger_payload,
)
from playtest.games.click_gate import ClickGate, session_gate
from playtest.games.dokusen.view import board_data, position_token
from playtest.messages.catalog import MessageCatalog

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
PROJECT_NAME: Final = "playtest-dokusen"
COMPONENT_NAME: Final = f"{PROJECT_NAME}.board"
ACTIONS: Final = ("retry", "next")


@dataclass(frozen=True)
class BoardClick:
    """One click as the browser sent it (not yet judged)."""

    at: tuple[int, int]
    nonce: str
    ms: int
    via: str
    token: str


@dataclass(frozen=True)
class JudgedClick:
    """A click and what the rules make of it."""

    click: BoardClick
    result: ClickResult

    def telemetry(self) -> dict[str, Any]:
        """The props of the ``click`` event (telemetry-format.md, other games: dokusen).

        >>> from engine.core import ClickResult, Refusal
        >>> c = BoardClick((2, 3), "n1", 812, "touch", "g:3")
        >>> JudgedClick(c, ClickResult(None, Refusal("void", "..."), (), {"at": [2, 3]})).telemetry()
        {'seat': 1, 'at': [2, 3], 'ok': False, 'ms': 812, 'reason': 'void'}
        """
        props: dict[str, Any] = {"seat": 1, "at": list(self.click.at), "ok": self.result.ok}
        props["ms"] = self.click.ms
        if self.result.refusal is not None:
            props["reason"] = self.result.refusal.reason
        return props

    @property
    def refusal(self) -> Refusal | None:
        return self.result.refusal


def parse_clicks(payload: Any) -> list[BoardClick]:
    """The clicks of one trigger payload (raises :class:`BoardEventError` if malformed).

    >>> parse_clicks({"clicks": [{"at": [0, 4], "nonce": "n", "ms": 5, "via": "touch",
    ...                          "token": ":0"}]})[0].at
    (0, 4)
    >>> parse_clicks({"clicks": [{"at": "0,4"}]})
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: click.at: must be [row, col]
    """
    out = []
    for raw in batched_clicks(payload):
        at = raw.get("at")
        if (
            not isinstance(at, list)
            or len(at) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100 for v in at)
        ):
            raise BoardEventError("click.at: must be [row, col]")
        out.append(BoardClick((at[0], at[1]), *click_stamp(raw)))
    return out


def parse_action(payload: Any) -> tuple[str, str]:
    """``(name, nonce)`` of an end-screen button press.

    >>> parse_action({"name": "retry", "nonce": "x"})
    ('retry', 'x')
    """
    if not isinstance(payload, Mapping) or payload.get("name") not in ACTIONS:
        raise BoardEventError(f"action: must be {{'name': one of {ACTIONS}, 'nonce'}}")
    return str(payload["name"]), click_text(payload, "nonce")


def _gate(key: str) -> ClickGate:
    return session_gate("dokusen", key)


def dropped_clicks(key: str) -> dict[str, int]:
    """How many clicks of board ``key`` were dropped, by reason."""
    return dict(_gate(key).dropped)


def judge(state: DokusenState, click: BoardClick) -> JudgedClick:
    """What the rules make of the tester's click."""
    return JudgedClick(click, state.click(f"{click.at[0]},{click.at[1]}"))


def _component() -> ComponentRenderer:
    """The board's mount command (:func:`playtest.board.component.component_renderer`)."""
    return component_renderer(PROJECT_NAME, "board", STATIC_DIR, js="board.js",
                              css="board.css")


def render_board(
    state: DokusenState,
    *,
    key: str,
    events: Sequence[Event] = (),
    on_click: Callable[[JudgedClick], None] | None = None,
    on_action: Callable[[str], None] | None = None,
    refusal: Refusal | None = None,
    catalog: MessageCatalog | None = None,
    variant: str = "default",
    game_id: str = "",
    has_next: bool = True,
    has_retry: bool = True,
    speed_ms: int = 220,
    stage_of: tuple[int, int] | None = None,
    next_stage: str = "",
) -> dict[str, Any]:
    """Mount the board for ``state`` under Streamlit ``key`` (element class ``st-key-<key>``).

    ``events``: what happened since the tester last saw the board (animated square by
    square); ``refusal``: the last click's refusal, shown as the message. Returns the data
    sent to the browser (for tests and logs).
    """
    data = board_data(
        state,
        events=events,
        refusal=refusal,
        catalog=catalog,
        variant=variant,
        game_id=game_id,
        has_next=has_next,
        has_retry=has_retry,
        speed_ms=speed_ms,
        stage_of=stage_of,
        next_stage=next_stage,
    )
    if get_script_run_ctx(suppress_warning=True) is None:
        return data  # bare mode (no `streamlit run`): nothing to mount
    gate = _gate(key)
    seen_actions: set[str] = st.session_state.setdefault(f"_dokusen_actions_{key}", set())

    def handle_click() -> None:
        raw = trigger_payload(st.session_state, key, "click")
        if raw is None:
            return
        try:
            clicks = parse_clicks(raw)
        except BoardEventError:
            gate.dropped["malformed"] += 1
            return
        for click in clicks:
            current = position_token(state, game_id)
            interactive = state.current_player() == 0
            if gate.admit(click.nonce, click.token, current=current, interactive=interactive):
                continue
            judged = judge(state, click)
            if on_click is not None:
                on_click(judged)

    def handle_action() -> None:
        raw = trigger_payload(st.session_state, key, "action")
        if raw is None:
            return
        try:
            name, nonce = parse_action(raw)
        except BoardEventError:
            gate.dropped["malformed"] += 1
            return
        if nonce in seen_actions:
            return
        seen_actions.add(nonce)
        if on_action is not None:
            on_action(name)

    _component()(key=key, data=data, on_click_change=handle_click, on_action_change=handle_action)
    return data
