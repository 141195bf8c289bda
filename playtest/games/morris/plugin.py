"""Bricks & Walls as a plug-in of the lab (:class:`~playtest.games.plugin.GamePlugin`).

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets, PLUGIN.seats
('morris', 'Bricks & Walls', ('standard', 'classic'), (2, 2))
>>> PLUGIN.checked_rules({"base": "standard", "blocked": "lose"})
{'base': 'standard', 'blocked': 'lose'}
>>> [s.name for s in PLUGIN.ui_settings]
['highlight_options', 'speed']
"""

from __future__ import annotations

from typing import Final

from analytics.games.morris import ANALYTICS
from engine.morris.players import LEVELS
from engine.morris.rules import PRESETS
from engine.morris.state import MorrisGame
from playtest.games.morris import session
from playtest.games.morris.catalog import CATALOG
from playtest.games.plugin import (
    GameFiles,
    GamePlugin,
    Surveys,
)
from playtest.games.ui_settings import HIGHLIGHT_OPTIONS, SPEED

PLUGIN: Final = GamePlugin(
    name="morris", title="Bricks & Walls", engine=MorrisGame, levels=LEVELS, seats=(2, 2),
    presets=tuple(PRESETS),
    rule_options={
        "base": tuple(PRESETS),
        "bricks": (9, 3, 11),
        "flying": (True, False),
        "blocked": ("skip", "lose"),
        "move_cap": (0, 200),
    },
    surveys=Surveys.usual("morris", post="morris_post"), analytics=ANALYTICS,
    files=GameFiles.beside(__file__), ui_settings=(HIGHLIGHT_OPTIONS, SPEED),
    words=session.words, view=session.view, seat_name=session.seat_name,
    refusal_words=CATALOG.refusal_words,
)
