"""Dokusen as a plug-in of the lab (:class:`~playtest.games.plugin.GamePlugin`).

The presets are the built-in stages (``engine/dokusen/stages.json``) and ``"all"`` (the
eight in order, the default: testers progress through them). A study may also give a
stage object (a designer's own stage) or a course: the stages it picks, in order, with
changed parameters of some (``{"stages": ["S5", "S6", "S7"], "changes": {"S7":
{"meteors": {"firstRound": 3, "every": 3}}}}``, :mod:`engine.dokusen.course`); an
experiment with target ``rules`` whose variants are two such courses A/B tests a
stage's parameters. ``check_rules`` validates all of these, naming the field. One human
seat: the computer colours come from the stage.

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets[:3], PLUGIN.default_rules, PLUGIN.seats
('dokusen', 'Dokusen', ('S1', 'S2', 'S3'), 'all', (1, 1))
>>> PLUGIN.checked_rules({"board": ["1.."]})
{'board': ['1..']}
>>> PLUGIN.checked_rules({"stages": ["S1", "S9"]})
Traceback (most recent call last):
...
engine.core.RulesError: stages[1]: unknown stage 'S9' (known: S1, S2, S3, S4, S5, S6, S7, S8)
"""

from __future__ import annotations

from typing import Final

from analytics.games.dokusen import ANALYTICS
from engine.dokusen.course import ALL, CHANGEABLE, Course
from engine.dokusen.players import LEVELS
from engine.dokusen.stage import AI_LEVELS, builtin_stages
from engine.dokusen.state import DokusenGame
from playtest.games.dokusen import demo, session
from playtest.games.dokusen.catalog import CATALOG
from playtest.games.plugin import (
    DemoBehaviour,
    GameFiles,
    GamePlugin,
    Surveys,
    Telemetry,
    built_by,
)
from playtest.games.ui_settings import SPEED

PLUGIN: Final = GamePlugin(
    name="dokusen", title="Dokusen", engine=DokusenGame,
    presets=(*(s.id for s in builtin_stages()), ALL), default_rules=ALL,
    check_rules=built_by(Course.from_rules),
    rule_options={
        "stages": (*(s.id for s in builtin_stages()), "a stage object with an id"),
        "changes": CHANGEABLE,
        "players.ai": AI_LEVELS,
        "meteors": ("{firstRound, every, radius}", "[{round, at, radius}]"),
        "maxRounds": ("4 × squares",),
    },
    # one human seat: the computer colours and their levels come from the stage
    seats=(1, 1), default_seats=("human",), levels=LEVELS,
    computer_level=demo.computer_level,
    surveys=Surveys.usual("dokusen", post="dokusen_post_short"),
    files=GameFiles.beside(__file__), analytics=ANALYTICS,
    ui_settings=(SPEED,),  # the computer's pace and its board's animations
    demo=DemoBehaviour(settings=demo.demo_settings, slip_targets=demo.slip_targets,
                       game_rules=demo.game_rules),
    # one game is one stage of the study's course; its board animates a whole round
    result=session.result, next_rules=session.next_rules,
    next_choices=session.next_choices, paced=False,
    telemetry=Telemetry(start=session.start_props),
    words=session.words, view=session.view, refusal_words=CATALOG.refusal_words,
)
