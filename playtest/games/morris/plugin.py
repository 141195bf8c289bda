"""Bricks & Walls as a plug-in of the platform's registry (playtest/games/registry.py,
built by the "platform" work): ``PLUGIN`` describes the game to the app.

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets, PLUGIN.seats
('morris', 'Bricks & Walls', ('standard', 'classic'), (2, 2))
>>> PLUGIN.check_rules({"base": "standard", "blocked": "lose"})
{'base': 'standard', 'blocked': 'lose'}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.morris.rules import PRESETS, Rules
from playtest.games.morris.catalog import REFUSAL_REASONS, load_catalog, refusal_key
from playtest.games.registry import GamePlugin

HERE = Path(__file__).resolve().parent


def _check_rules(rules: Any) -> Any:
    """A preset name or rules object the engine builds (RulesError if not)."""
    Rules.from_obj(rules)
    return rules



def _refusal_words(reason: str) -> str | None:
    """An engine refusal reason as the play screen words it (None: not one of them)."""
    from playtest.display_words import catalog_words

    return catalog_words(load_catalog(), refusal_key(reason)) if reason in REFUSAL_REASONS else None

PLUGIN = GamePlugin(
    name="morris",
    # display settings its board does not use (no dice; no message pacing)
    ignored_ui=("show_computer_dice", "speed"),
    title="Bricks & Walls",
    presets=tuple(PRESETS),
    default_rules="standard",
    check_rules=_check_rules,
    rule_options={
        "base": tuple(PRESETS),
        "bricks": (9, 3, 11),
        "flying": (True, False),
        "blocked": ("skip", "lose"),
        "move_cap": (0, 200),
    },
    seats=(2, 2),
    pre_survey="morris_pre",
    post_survey="morris_post",
    child_surveys={"pre": "morris_pre_child", "post": "morris_post_child"},
    catalog_path=HERE / "messages.yaml",
    board_module="playtest.games.morris.component",
    play_module="playtest.games.morris.play",
    replay_module="playtest.games.morris.replay",
    refusal_words=_refusal_words,
)
