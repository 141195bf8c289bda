"""Bricks & Walls on the platform: the board component (``component.py`` with
``static/board.js`` and ``static/board.css``), what it shows (``view.py``), its message
catalog (``messages.yaml``, ``catalog.py``) and its plug-in description (``plugin.py``,
``PLUGIN``, for playtest/games/registry.py). The engine is ``engine/morris/``.

Importing this package does not import Streamlit; ``render_board`` and ``PLUGIN`` are
loaded on first use.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "PLUGIN":
        from playtest.games.morris.plugin import PLUGIN

        return PLUGIN
    if name in ("render_board", "JudgedClick", "BoardClick", "dropped_clicks"):
        from playtest.games.morris import component

        return getattr(component, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
