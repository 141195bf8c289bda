"""Bricks & Walls as a plug-in of the lab (:class:`~playtest.games.plugin.GamePlugin`).

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets, PLUGIN.seats
('morris', 'Bricks & Walls', ('standard', 'classic'), (2, 2))
>>> PLUGIN.check_rules({"base": "standard", "blocked": "lose"})
{'base': 'standard', 'blocked': 'lose'}
>>> [s.name for s in PLUGIN.ui_settings]
['highlight_options']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from engine.core import Game
from engine.morris.players import LEVELS
from engine.morris.rules import PRESETS, Rules
from engine.morris.state import MorrisGame
from playtest.games.morris.catalog import REFUSAL_REASONS, load_catalog, refusal_key
from playtest.games.morris import session
from playtest.games.plugin import BoardSpec, DemoBehaviour, GamePlugin, board_replay
from playtest.games.ui_settings import HIGHLIGHT_OPTIONS

HERE: Final = Path(__file__).resolve().parent


def _engine(rules: Any, players: int) -> Game:
    return MorrisGame(rules, players)


def _check_rules(rules: Any) -> Any:
    """A preset name or rules object the engine builds (RulesError if not)."""
    Rules.from_obj(rules)
    return rules


def _refusal_words(reason: str) -> str | None:
    """An engine refusal reason as the play screen words it (None: not one of them)."""
    from playtest.display_words import catalog_words

    return catalog_words(load_catalog(), refusal_key(reason)) if reason in REFUSAL_REASONS else None


def _analytics() -> Any:
    from analytics.games.morris import ANALYTICS

    return ANALYTICS


PLUGIN: Final = GamePlugin(
    name="morris",
    title="Bricks & Walls",
    engine=_engine,
    levels=LEVELS,
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
    board=BoardSpec(HERE / "static", "render.js"),
    ui_settings=(HIGHLIGHT_OPTIONS,),
    analytics=_analytics,
    demo=DemoBehaviour(),
    words=session.words,
    view=session.view,
    seat_name=session.seat_name,
    rules_path=HERE / "rules.yaml",
    replay=board_replay,
    refusal_words=_refusal_words,
)
