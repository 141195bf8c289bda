"""Vapoosh!'s board as one Streamlit custom component (Components v2), and its Python events.

`render_board(view, key=..., on_click=..., on_roll=..., on_mute=...)` mounts the board.
The browser sends three triggers; each is parsed into a frozen event and handed to your
callback, which Streamlit runs BEFORE the script body of the rerun the event caused (so
the callback changes the game and the script then draws the new state):

- click -> `ClickEvent(index, c, r, nonce, seq, t_ms, via, token)`
- roll  -> `RollEvent(nonce, t_ms, via, token)`
- mute  -> `MuteEvent(muted, nonce)`

Raw trigger payloads (JSON, what the JavaScript sends):
    click: {"index": 88, "c": 5, "r": 8, "nonce": "<uuid>", "seq": 3, "t_ms": 2140,
            "via": "mouse" | "touch" | "pen" | "keyboard", "token": "<view token shown>",
            "brown": false}   (brown: the "Brown" button beside the tile was pressed)
    roll:  {"nonce": "<uuid>", "t_ms": 812, "via": "mouse" | ..., "token": "..."}
    mute:  {"muted": true, "nonce": "<uuid>"}
`t_ms` counts from the moment the browser showed the current turn's dice/phase.

Each cue the view names is sent with its notes (`playtest.board.sounds.cue_notes`), which
the browser plays. The trigger checks, the event gate and the mute event are the shared
ones of `playtest.board.component`.

Before a callback is called, `render_board` drops (never passes on):
- a nonce it has already seen (a re-sent trigger),
- a click or roll made while the shown view was not interactive (computer thinking,
  game over): the browser ignores these too, this is the server-side check,
- a click or roll whose token is not the token of the last rendered view (made on an
  outdated board, e.g. the second half of a double click).
Dropped events are counted in `dropped_events(key)`; the app should still validate the
move against the game state (the rules engine is the judge).

Example (inside a Streamlit script)::

    view = board_view(state.board_rows(), dice=state.dice, options=state.options,
                      seats=("human", "computer"), to_move=state.to_move, phase=state.phase)
    render_board(view, key="board", on_click=lambda ev: game.click(ev.c, ev.r),
                 on_roll=lambda ev: game.roll())
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import streamlit as st
from streamlit.components.v2.types import ComponentRenderer
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from playtest.board.component import (
    MAX_SEQ,
    MAX_T_MS,
    MAX_VIA_CHARS,
    BoardEventError,
    EventGate,
    MuteEvent,
    _count,
    _field,
    _short,
    _text,
    component_renderer,
    parse_mute,
    trigger_payload,
)
from playtest.board.sounds import cue_notes
from playtest.games.vapoosh.view import TILE_COUNT, BoardView, tile_at

# "<project>.<component>", the name Streamlit gives a packaged component.
PROJECT_NAME: Final = "vapoosh-playtest-lab"
COMPONENT_NAME: Final = f"{PROJECT_NAME}.board"
# The board's front end: real files in the component's asset dir. board.js is the ES module
# Streamlit loads; it fetches board.html and board.css from beside itself.
STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
BOARD_JS_FILE: Final = "board.js"
FRONT_END_FILES: Final = ("board.js", "board.html", "board.css")


def _board() -> ComponentRenderer:
    """The mount command (:func:`playtest.board.component.component_renderer`); board.js
    fetches board.html and board.css from beside itself."""
    renderer: ComponentRenderer = component_renderer(PROJECT_NAME, "board", STATIC_DIR,
                                                     js=BOARD_JS_FILE)
    return renderer


@dataclass(frozen=True)
class ClickEvent:
    """A click (or Enter/Space) on tile (c, r)."""

    index: int
    c: int
    r: int
    nonce: str
    seq: int
    t_ms: int
    via: str
    token: str
    brown: bool = False


@dataclass(frozen=True)
class RollEvent:
    """The roll button was pressed."""

    nonce: str
    t_ms: int
    via: str
    token: str


def parse_click(payload: Any) -> ClickEvent:
    """Check and convert a raw click payload.

    >>> parse_click({"index": 88, "nonce": "n1", "seq": 1, "t_ms": 5, "via": "mouse",
    ...              "token": "t"}).c
    5
    >>> parse_click({"index": 88, "nonce": "n" * 100_000, "t_ms": 5})
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: trigger field 'nonce' must be a text of 1 to 128 characters, got 'nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn…
    """
    if not isinstance(payload, Mapping):
        raise BoardEventError(f"a click payload is an object, got {_short(payload)}")
    index = _field(payload, "index", int)
    if not 0 <= index < TILE_COUNT:
        raise BoardEventError(f"click index {index} is outside 0..{TILE_COUNT - 1}")
    c, r = tile_at(index)
    return ClickEvent(
        index=index,
        c=c,
        r=r,
        nonce=_text(payload, "nonce"),
        seq=_count(payload, "seq", MAX_SEQ),
        t_ms=_count(payload, "t_ms", MAX_T_MS),
        via=_text(payload, "via", default="mouse", limit=MAX_VIA_CHARS) or "mouse",
        token=_text(payload, "token", default=""),
        brown=payload.get("brown") is True,
    )


def parse_roll(payload: Any) -> RollEvent:
    if not isinstance(payload, Mapping):
        raise BoardEventError(f"a roll payload is an object, got {_short(payload)}")
    return RollEvent(
        nonce=_text(payload, "nonce"),
        t_ms=_count(payload, "t_ms", MAX_T_MS),
        via=_text(payload, "via", default="mouse", limit=MAX_VIA_CHARS) or "mouse",
        token=_text(payload, "token", default=""),
    )


def _gate(key: str) -> EventGate:
    name = f"_vapoosh_board_gate_{key}"
    gate: EventGate | None = st.session_state.get(name)  # one lookup on every rerun
    if gate is None:
        gate = st.session_state[name] = EventGate()
    return gate


def dropped_events(key: str) -> dict[str, int]:
    """How many events of board `key` were dropped, by reason (for logging and tests)."""
    return dict(_gate(key).dropped)


def board_data(view: BoardView, *, mute_control: bool) -> dict[str, Any]:
    """What the browser gets for ``view``: its data, whether to draw the mute button, and
    the notes of the sound cue it names (None without one).

    >>> from playtest.games.vapoosh.view import board_view
    >>> data = board_view(["." * 12] * 12, seats=("human",), sound="place", nonce="1")
    >>> [n["wave"] for n in board_data(data, mute_control=False)["sound_notes"]]
    ['triangle', 'sine']
    """
    data = view.to_data()
    data["mute_control"] = mute_control
    data["sound_notes"] = cue_notes(view.sound) if view.sound else None
    return data



def render_board(
    view: BoardView,
    *,
    key: str,
    on_click: Callable[[ClickEvent], None] | None = None,
    on_roll: Callable[[RollEvent], None] | None = None,
    on_mute: Callable[[MuteEvent], None] | None = None,
) -> None:
    """Mount the board for `view` under Streamlit `key` (its element gets class st-key-<key>).

    Callbacks receive parsed, de-duplicated events (see the module docstring); a callback
    left as None makes that control inert (no mute button is drawn without `on_mute`).
    """

    def handle(name: str) -> None:
        payload = trigger_payload(st.session_state, key, name)
        if payload is None:
            return
        try:
            if name == "click":
                ev_c = parse_click(payload)
                if gate.admit(ev_c.nonce, ev_c.token) is None and on_click is not None:
                    on_click(ev_c)
            elif name == "roll":
                ev_r = parse_roll(payload)
                if gate.admit(ev_r.nonce, ev_r.token) is None and on_roll is not None:
                    on_roll(ev_r)
            else:
                ev_m = parse_mute(payload)
                if gate.admit(ev_m.nonce, None) is None and on_mute is not None:
                    on_mute(ev_m)
        except BoardEventError:
            gate.dropped["malformed"] += 1

    gate = _gate(key)
    gate.shown(view.token, interactive=view.interactive)
    data = board_data(view, mute_control=on_mute is not None)
    if get_script_run_ctx(suppress_warning=True) is None:
        return  # bare mode (no `streamlit run`): nothing to mount, no events to handle
    _board()(
        key=key,
        # One top-level key: Streamlit tests each top-level value for a dataframe (about
        # 25 tests of 0.1 ms with the view's own keys); board.js reads ``data.view``.
        data={"view": data},
        on_click_change=lambda: handle("click"),
        on_roll_change=lambda: handle("roll"),
        on_mute_change=lambda: handle("mute"),
    )
