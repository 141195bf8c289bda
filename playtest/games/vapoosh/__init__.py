"""Vapoosh! on the platform: its plug-in (``PLUGIN``), board view, message catalog, sounds
and play-screen cues (this folder), with its engine in ``engine/vapoosh/``, its surveys in
``surveys/games/vapoosh/`` and its analytics in ``analytics/games/vapoosh/``.

>>> PLUGIN.title, PLUGIN.presets
('Vapoosh!', ('standard', 'classic', 'house'))
>>> PLUGIN.check_rules({"base": "standard", "surround": "group"})
{'base': 'standard', 'surround': 'group'}
>>> PLUGIN.make_game("classic", 2).name
'vapoosh'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.vapoosh.rules import (
    CAPTURE_CHOICES,
    PRESETS,
    SURROUND_CHOICES,
    VAPOOH_CHOICES,
    Rules,
)
from engine.vapoosh.state import deal_preplaced
from playtest.games.registry import GamePlugin
from playtest.games.vapoosh.view import glow_from_events

HERE = Path(__file__).parent


def _replay_glow(events: list[dict[str, Any]], computer: bool) -> dict[tuple[int, int], str]:
    """The replay board's marks for the tiles one action touched (its engine events)."""
    return glow_from_events(events, computer=computer)


def _check_rules(rules: Any) -> Any:
    """A preset name or rules object the engine builds (RulesError/TypeError if not)."""
    Rules.from_obj(rules)
    return rules


PLUGIN = GamePlugin(
    name="vapoosh",
    title="Vapoosh!",
    about="a dice and times-tables board game",
    presets=tuple(PRESETS),
    default_rules="standard",
    check_rules=_check_rules,
    rule_options={
        "base": tuple(PRESETS),
        "capture": CAPTURE_CHOICES,
        "surround": SURROUND_CHOICES,
        "suicide": (True, False),
        "vapooh": VAPOOH_CHOICES,
        "square_extra_turn": (True, False),
        "quad_skips_next": (True, False),
        "own_suicide_rerolls": (0, 3),
        "preplaced": (0, 12),
        "max_turns": (400,),
    },
    seats=(1, 4),
    pre_survey="vapoosh_pre",
    post_survey="vapoosh_post_short",
    child_surveys={"pre": "vapoosh_pre_child", "post": "vapoosh_post_child"},
    catalog_path=HERE / "catalog.yaml",
    board_module="playtest.games.vapoosh.component",
    play_module="playtest.games.vapoosh.play",
    replay_module="playtest.games.vapoosh.replay",
    replay_glow=_replay_glow,
    deal=deal_preplaced,
)
