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
>>> PLUGIN.check_rules({"board": ["1.."]})
{'board': ['1..']}
>>> PLUGIN.check_rules({"stages": ["S1", "S9"]})
Traceback (most recent call last):
...
engine.core.RulesError: stages[1]: unknown stage 'S9' (known: S1, S2, S3, S4, S5, S6, S7, S8)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from engine.core import Game
from engine.dokusen.course import ALL, CHANGEABLE, Course
from engine.dokusen.players import LEVELS
from engine.dokusen.stage import AI_LEVELS, builtin_stages
from engine.dokusen.state import DokusenGame
from playtest.games.dokusen import demo
from playtest.games.dokusen.catalog import REFUSAL_REASONS, load_catalog, refusal_key
from playtest.games.dokusen import session
from playtest.games.plugin import BoardSpec, DemoBehaviour, GamePlugin, Telemetry, board_replay

HERE: Final = Path(__file__).resolve().parent


def _engine(rules: Any, players: int) -> Game:
    return DokusenGame(rules, players)


def _check_rules(rules: Any) -> Any:
    """A stage id, stage object, ``"all"`` or course the engine builds (RulesError naming
    the field if not)."""
    Course.from_rules(rules)
    return rules


def _refusal_words(reason: str) -> str | None:
    """An engine refusal reason as the play screen words it (None: not one of them)."""
    from playtest.display_words import catalog_words

    return catalog_words(load_catalog(), refusal_key(reason)) if reason in REFUSAL_REASONS else None


def _analytics() -> Any:
    from analytics.games.dokusen import ANALYTICS

    return ANALYTICS


PLUGIN: Final = GamePlugin(
    name="dokusen",
    title="Dokusen",
    engine=_engine,
    levels=LEVELS,
    presets=(*(s.id for s in builtin_stages()), ALL),
    default_rules=ALL,
    check_rules=_check_rules,
    rule_options={
        "stages": (*(s.id for s in builtin_stages()), "a stage object with an id"),
        "changes": CHANGEABLE,
        "players.ai": AI_LEVELS,
        "meteors": ("{firstRound, every, radius}", "[{round, at, radius}]"),
        "maxRounds": ("4 × squares",),
    },
    seats=(1, 1),
    default_seats=("human",),
    pre_survey="dokusen_pre",
    post_survey="dokusen_post_short",
    child_surveys={"pre": "dokusen_pre_child", "post": "dokusen_post_child"},
    catalog_path=HERE / "messages.yaml",
    board=BoardSpec(HERE / "static", "render.js"),
    ui_settings=(),  # its board has no highlight and no paced messages (yet)
    analytics=_analytics,
    computer_level=demo.computer_level,
    demo=DemoBehaviour(settings=demo.demo_settings, slip_targets=demo.slip_targets,
                       game_rules=demo.game_rules),
    result=session.result,
    next_rules=session.next_rules,
    next_choices=session.next_choices,
    paced=False,
    telemetry=Telemetry(start=session.start_props),
    words=session.words,
    view=session.view,
    rules_path=HERE / "rules.yaml",
    replay=board_replay,
    refusal_words=_refusal_words,
)
