"""Vasco on the platform: its board view (``view``, ``board`` and ``static/``), its
message catalog (``messages.yaml``), its plug-in description (``plugin.py``, ``PLUGIN``,
for playtest/games/registry.py) and its play step (``play.py``), with its engine in
``engine/vasco/`` and its analytics in ``analytics/games/vasco/``.

Importing this package does not import Streamlit; ``PLUGIN`` is loaded on first use.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "PLUGIN":
        from playtest.games.vasco.plugin import PLUGIN

        return PLUGIN
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
