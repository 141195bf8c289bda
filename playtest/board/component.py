"""The board shell as one Streamlit custom component (Components v2): mounted for every
game's board with the game's renderer script, its inputs checked and gated
(:mod:`playtest.board.protocol`) before they reach the page's callback.

Its front end is ``static/shell.js`` (and ``shell.css``); a game's renderer lives in the
game's asset folder (:attr:`GamePlugin.board <playtest.games.plugin.GamePlugin.board>`),
served as ``<PROJECT_NAME>.<game>`` beside the shell, so the shell imports it by a URL
relative to itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final, Protocol

from playtest.board.protocol import BoardEventError, BoardInput, EventGate, parse_inputs
from playtest.games.plugin import GamePlugin
from playtest.streamlit_private import register_asset_dir, script_running

#: The "<project>" of the components' "<project>.<component>" names.
PROJECT_NAME: Final = "playtest-lab"
SHELL: Final = "board"
STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
JS_FILE: Final = "shell.js"
CSS_FILE: Final = "shell.css"
COMPONENT_NAME: Final = f"{PROJECT_NAME}.{SHELL}"

_renderers: dict[str, Any] = {}


def renderer_url(plugin: GamePlugin) -> str:
    """Where the shell finds the game's renderer, relative to ``shell.js``.

    >>> from playtest.games.registry import games
    >>> renderer_url(games()[0]).startswith("../playtest-lab.")
    True
    """
    assert plugin.board is not None, f"{plugin.name} has no board"
    return f"../{PROJECT_NAME}.{plugin.name}/{plugin.board.script}"


def _component(plugin: GamePlugin) -> Any:
    """The shell's mount command, with the shell's and the game's asset folders registered
    on this runtime (the component itself made once per process)."""
    import streamlit as st

    register_asset_dir(PROJECT_NAME, SHELL, STATIC_DIR)
    assert plugin.board is not None
    register_asset_dir(PROJECT_NAME, plugin.name, plugin.board.static_dir)
    if COMPONENT_NAME not in _renderers:
        _renderers[COMPONENT_NAME] = st.components.v2.component(
            COMPONENT_NAME, js=JS_FILE, css=CSS_FILE)
    return _renderers[COMPONENT_NAME]


class SessionState(Protocol):
    """What :func:`trigger_payload` reads: Streamlit's session state, or a dict."""

    def get(self, key: str, /) -> Any: ...


def trigger_payload(state: SessionState, key: str, name: str) -> Any:
    """The payload of trigger ``name`` of the component under ``key`` in session state
    ``state`` (None when it did not fire).

    >>> trigger_payload({"board": {"input": {"inputs": []}}}, "board", "input")
    {'inputs': []}
    """
    value = state.get(key)
    if value is None:
        return None
    return value.get(name) if isinstance(value, Mapping) else getattr(value, name, None)


def mount(plugin: GamePlugin, board: dict[str, Any], *, key: str, gate: EventGate,
          on_input: Callable[[BoardInput], None] | None = None,
          token_now: Callable[[], str | None] | None = None) -> dict[str, Any]:
    """Mount the board of ``plugin``'s game under Streamlit ``key`` (its element gets the
    class ``st-key-<key>``) with the shell data ``board`` (see ``static/shell.js``):
    every input the browser sends is checked, passed through ``gate`` (re-sent, stale
    and out-of-turn inputs are dropped and counted) and handed to ``on_input``. The data
    ``board`` should carry the same ``token`` and ``interactive`` the gate was ``shown``.
    ``token_now()``: the position's token after an input was handled (None: the game
    was dropped), so that the inputs the browser sent with it that were made on the
    position before (a double click's second click) are dropped as stale.
    Returns the data sent (bare mode, no ``streamlit run``: nothing is mounted)."""
    data = {**board, "renderer": renderer_url(plugin), "ack": gate.recent()}
    if not script_running():
        return data

    def handle() -> None:
        import streamlit as st

        payload = trigger_payload(st.session_state, key, "input")
        if payload is None:
            return
        try:
            inputs = parse_inputs(payload)
        except BoardEventError:
            gate.dropped["malformed"] += 1
            return
        for item in inputs:
            token = None if item.kind == "mute" else item.token
            if gate.admit(item.nonce, token) is None and on_input is not None:
                on_input(item)
                if token_now is not None and token is not None:
                    now = token_now()
                    gate.shown(now or "", interactive=gate.interactive and now is not None)

    # One top-level key: Streamlit tests each top-level value for a dataframe.
    _component(plugin)(key=key, data={"board": data}, on_input_change=handle)
    return data
