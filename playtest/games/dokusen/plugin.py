"""Dokusen as a plug-in of the platform's registry (playtest/games/registry.py, built by
the "platform" work): ``PLUGIN`` describes the game to the app.

The presets are the built-in stages (``engine/dokusen/stages.json``); a study may also
give a stage object (a designer's own stage, or a stage with changed parameters for an
A/B test), which ``check_rules`` validates. One human seat: the computer colours come
from the stage.

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets[:3], PLUGIN.seats
('dokusen', 'Dokusen', ('S1', 'S2', 'S3'), (1, 1))
>>> PLUGIN.check_rules({"board": ["1.."]})
{'board': ['1..']}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.dokusen.stage import AI_LEVELS, Stage, builtin_stages
from playtest.games.registry import GamePlugin

HERE = Path(__file__).resolve().parent


def _check_rules(rules: Any) -> Any:
    """A stage id or stage object the engine builds (RulesError naming the field if not)."""
    Stage.from_obj(rules)
    return rules


PLUGIN = GamePlugin(
    name="dokusen",
    title="Dokusen",
    presets=tuple(s.id for s in builtin_stages()),
    default_rules="S1",
    check_rules=_check_rules,
    rule_options={"ai": AI_LEVELS, "maxRounds": (None,)},
    seats=(1, 1),
    default_seats=("human",),
    pre_survey="dokusen_pre",
    post_survey="dokusen_post_short",
    catalog_path=HERE / "messages.yaml",
    board_module="playtest.games.dokusen.component",
    play_module="playtest.games.dokusen.play",
)
