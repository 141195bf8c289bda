"""The game board: a pure view model, one Streamlit component, and synthesised sounds.

`playtest.board.view` and `playtest.board.sounds` import no Streamlit; the component
lives in `playtest.board.component` (imports Streamlit; registers the component on first
mount) and its front end in real files under `static/`: `board.js` (the ES module Streamlit
loads), `board.html`, `board.css` and the sound cues `cues.json`.
"""

from __future__ import annotations

from playtest.board.view import (
    SEAT_STYLES,
    BoardView,
    BoardViewError,
    TileView,
    board_view,
    default_label,
    glow_from_events,
    tile_at,
    tile_index,
)

__all__ = [
    "SEAT_STYLES",
    "BoardView",
    "BoardViewError",
    "TileView",
    "board_view",
    "default_label",
    "glow_from_events",
    "tile_at",
    "tile_index",
]
