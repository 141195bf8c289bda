"""The board as one Streamlit custom component (Components v2), and its Python events.

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

import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import streamlit as st
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest
from streamlit.components.v2.types import ComponentRenderer
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from playtest.games.vapoosh.view import TILE_COUNT, BoardView, tile_at

# "<project>.<component>", the name Streamlit gives a packaged component.
PROJECT_NAME: Final = "vapoosh-playtest-lab"
COMPONENT_NAME: Final = f"{PROJECT_NAME}.board"
_SEEN_MAX: Final = 256
# The board's front end: real files in the component's asset dir. board.js is the ES module
# Streamlit loads; it fetches board.html, board.css and cues.json from beside itself.
STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
BOARD_JS_FILE: Final = "board.js"
FRONT_END_FILES: Final = ("board.js", "board.html", "board.css", "cues.json")


def ensure_asset_dir(manager: BidiComponentManager) -> None:
    """Tell Streamlit's component manager that the board's files live in `static/`.

    Streamlit serves a packaged component's files from the `asset_dir` of a
    `[tool.streamlit.component]` manifest it finds in an installed distribution's
    pyproject.toml. Its scanner cannot find ours: it looks the manifest up through the
    import name derived from the distribution name ("vapoosh_playtest_lab", which is not
    a package here) or a pyproject.toml listed in the installed files (never the case for
    an editable install). So the same manifest entry is registered here, on each
    runtime's manager (AppTest makes one per test), before the component is mounted.
    """
    if manager.get_component_asset_root(COMPONENT_NAME) is not None:
        return
    manifest = ComponentManifest(
        name=PROJECT_NAME,
        version="0",
        components=[ComponentConfig(name="board", asset_dir=STATIC_DIR.name)],
    )
    manager.register_from_manifest(manifest, STATIC_DIR.parent)


_renderer: ComponentRenderer | None = None


def _board() -> ComponentRenderer:
    """The mount command, registered on first use: the js is a file in the asset dir, so
    every rerun's BidiComponent message carries its path, not the code."""
    global _renderer
    ensure_asset_dir(get_bidi_component_manager())
    if _renderer is None:
        _renderer = st.components.v2.component(COMPONENT_NAME, js=BOARD_JS_FILE)
    return _renderer


class BoardEventError(ValueError):
    """A trigger payload that does not have the documented shape."""


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


@dataclass(frozen=True)
class MuteEvent:
    """The mute toggle was pressed; `muted` is the new setting."""

    muted: bool
    nonce: str


# Bounds of what a browser sends (hand-made messages beyond them are refused, issue 11):
# ids are UUIDs (36 characters) or a fallback of about 20; a click's seq counts clicks in
# one page view; t_ms counts from the turn's start and a tab left open for weeks stays
# under 2^31 ms (24.8 days).
MAX_ID_CHARS: Final = 128
MAX_VIA_CHARS: Final = 16
MAX_SEQ: Final = 10_000_000
MAX_T_MS: Final = 2**31 - 1


def _field(payload: Mapping[str, Any], name: str, kind: type) -> Any:
    value = payload.get(name)
    if kind is int and isinstance(value, bool):
        raise BoardEventError(f"trigger field {name!r} must be an integer, got {value!r}")
    if not isinstance(value, kind):
        raise BoardEventError(f"trigger field {name!r} must be {kind.__name__}, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}…"


def _text(payload: Mapping[str, Any], name: str, *, default: str | None = None,
          limit: int = MAX_ID_CHARS) -> str:
    """A text field of at most ``limit`` characters (``default`` when absent or null)."""
    value = payload.get(name)
    if value is None and default is not None:
        return default
    if not isinstance(value, str) or len(value) > limit or (default is None and not value):
        raise BoardEventError(
            f"trigger field {name!r} must be a text of 1 to {limit} characters, got {_short(value)}"
        )
    return value


def _count(payload: Mapping[str, Any], name: str, high: int) -> int:
    """A whole number 0..``high`` (absent or null → 0; a finite float is rounded).

    >>> _count({"t_ms": 12.6}, "t_ms", 100), _count({}, "t_ms", 100)
    (13, 0)
    >>> _count({"t_ms": float("inf")}, "t_ms", 100)
    Traceback (most recent call last):
    ...
    playtest.board.component.BoardEventError: trigger field 't_ms' must be a number from 0 to 100, got inf
    """
    value = payload.get(name)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
        math.isfinite(value) and 0 <= value <= high
    ):
        raise BoardEventError(
            f"trigger field {name!r} must be a number from 0 to {high}, got {_short(value)}"
        )
    return int(round(value))


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


def parse_mute(payload: Any) -> MuteEvent:
    if not isinstance(payload, Mapping):
        raise BoardEventError(f"a mute payload is an object, got {_short(payload)}")
    return MuteEvent(muted=_field(payload, "muted", bool), nonce=_text(payload, "nonce"))


class EventGate:
    """Decides which board events reach the app's callbacks (pure; no Streamlit).

    `shown(token, interactive)` records the view just rendered; `admit(nonce, token)`
    returns None to let an event through, or the reason it is dropped: "duplicate"
    (nonce seen before), "not_interactive" (the shown view took no input), "stale"
    (made on an older view). Mute events pass token=None: only de-duplicated.

    >>> gate = EventGate()
    >>> gate.shown("t1", interactive=True)
    >>> gate.admit("n1", "t1"), gate.admit("n1", "t1"), gate.admit("n2", "t0")
    (None, 'duplicate', 'stale')
    """

    def __init__(self, remember: int = _SEEN_MAX) -> None:
        self.token: str | None = None
        self.interactive = False
        self._seen: deque[str] = deque(maxlen=remember)
        self._seen_set: set[str] = set()
        self.dropped = {"duplicate": 0, "not_interactive": 0, "stale": 0, "malformed": 0}

    def shown(self, token: str, *, interactive: bool) -> None:
        self.token = token
        self.interactive = interactive

    def admit(self, nonce: str, token: str | None) -> str | None:
        reason = self._reason(nonce, token)
        if reason is not None:
            self.dropped[reason] += 1
        return reason

    def _reason(self, nonce: str, token: str | None) -> str | None:
        if nonce in self._seen_set:
            return "duplicate"
        if len(self._seen) == self._seen.maxlen:
            self._seen_set.discard(self._seen[0])
        self._seen.append(nonce)
        self._seen_set.add(nonce)
        if token is None:
            return None
        if not self.interactive:
            return "not_interactive"
        if token != self.token:
            return "stale"
        return None


def _gate(key: str) -> EventGate:
    name = f"_vapoosh_board_gate_{key}"
    if name not in st.session_state:
        st.session_state[name] = EventGate()
    gate: EventGate = st.session_state[name]
    return gate


def dropped_events(key: str) -> dict[str, int]:
    """How many events of board `key` were dropped, by reason (for logging and tests)."""
    return dict(_gate(key).dropped)


def _trigger(key: str, name: str) -> Any:
    value = st.session_state.get(key)
    if value is None:
        return None
    return value.get(name) if isinstance(value, Mapping) else getattr(value, name, None)


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
        payload = _trigger(key, name)
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
    data = view.to_data()
    data["mute_control"] = on_mute is not None
    if get_script_run_ctx(suppress_warning=True) is None:
        return  # bare mode (no `streamlit run`): nothing to mount, no events to handle
    _board()(
        key=key,
        data=data,
        on_click_change=lambda: handle("click"),
        on_roll_change=lambda: handle("roll"),
        on_mute_change=lambda: handle("mute"),
    )
