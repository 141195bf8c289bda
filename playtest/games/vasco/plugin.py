"""Vasco as a plug-in of the lab (:class:`~playtest.games.plugin.GamePlugin`).

Vasco has one preset ("standard") and one option, the pool size; two seats, Red (O)
first, the tester against the medium (greedy) computer by default.

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets, PLUGIN.seats
('vasco', 'Vasco', ('standard',), (2, 2))
>>> PLUGIN.checked_rules({"base": "standard", "pool": 24})
{'base': 'standard', 'pool': 24}
>>> PLUGIN.make_game("standard", 2).new_initial_state().legal_targets()
['0,0']
"""

from __future__ import annotations

from typing import Final

from analytics.games.vasco import ANALYTICS
from engine.vasco.players import LEVELS
from engine.vasco.state import VascoGame
from playtest.games.plugin import (
    DemoBehaviour,
    GameFiles,
    GamePlugin,
    Surveys,
)
from playtest.games.ui_settings import SPEED
from playtest.games.vasco import demo, session
from playtest.games.vasco.messages import CATALOG

PLUGIN: Final = GamePlugin(
    name="vasco", title="Vasco", engine=VascoGame, levels=LEVELS,
    presets=("standard",), rule_options={"base": ("standard",), "pool": (54, 24, 600)},
    # Two seats, Red first, against the greedy level by default: it closes its own loops
    # and avoids giving the tester one, so a child sees the rule at work.
    seats=(2, 2), default_seats=("human", "ai:medium"),
    surveys=Surveys.usual("vasco", post="vasco_post_short"),
    files=GameFiles.beside(__file__),
    ui_settings=(SPEED,),  # the computer's pace and its board's animations
    analytics=ANALYTICS, refusal_words=CATALOG.refusal_words,
    demo=DemoBehaviour(settings=demo.demo_settings, slip_targets=demo.slip_targets,
                       messages_shown=demo.messages_shown,
                       message_effect=demo.message_effect),
    result=session.result, words=session.words, view=session.view,
    seat_name=session.seat_name, on_step=session.on_step,
)
