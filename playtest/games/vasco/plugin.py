"""Vasco as a plug-in of the platform's registry (playtest/games/registry.py): ``PLUGIN``
describes the game to the app.

Vasco has one preset ("standard") and one option, the pool size; two seats, Red (O)
first, the tester against the medium (greedy) computer by default. The play step is :mod:`playtest.games.vasco.play`.

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets, PLUGIN.seats
('vasco', 'Vasco', ('standard',), (2, 2))
>>> PLUGIN.check_rules({"base": "standard", "pool": 24})
{'base': 'standard', 'pool': 24}
>>> PLUGIN.make_game("standard", 2).new_initial_state().legal_targets()
['0,0']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.vasco.state import Rules
from playtest.games.registry import GamePlugin
from playtest.games.vasco.messages import REFUSAL_KEYS, load_vasco_catalog

HERE = Path(__file__).resolve().parent


def _check_rules(rules: Any) -> Any:
    """A preset name or rules object the engine builds (RulesError naming the field if not)."""
    Rules.from_obj(rules)
    return rules



def _refusal_words(reason: str) -> str | None:
    """An engine refusal reason as the play screen words it (None: not one of them)."""
    from playtest.display_words import catalog_words

    key = REFUSAL_KEYS.get(reason)
    return None if key is None else catalog_words(load_vasco_catalog(), key)

PLUGIN = GamePlugin(
    name="vasco",
    # display settings its board does not use (no dice; no message pacing)
    ignored_ui=("highlight_options", "show_computer_dice", "speed"),
    title="Vasco",
    presets=("standard",),
    default_rules="standard",
    check_rules=_check_rules,
    rule_options={"base": ("standard",), "pool": (54, 24, 600)},
    seats=(2, 2),
    # Against the greedy level by default: it closes its own loops and avoids giving
    # the tester one, so a child sees the rule at work; random play rarely shows it.
    default_seats=("human", "ai:medium"),
    pre_survey="vasco_pre",
    post_survey="vasco_post_short",
    child_surveys={"pre": "vasco_pre_child", "post": "vasco_post_child"},
    catalog_path=HERE / "messages.yaml",
    board_module="playtest.games.vasco.board",
    play_module="playtest.games.vasco.play",
    replay_module="playtest.games.vasco.replay",
    refusal_words=_refusal_words,
)
