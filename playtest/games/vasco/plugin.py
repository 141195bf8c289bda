"""Vasco as a plug-in of the lab (:class:`~playtest.games.plugin.GamePlugin`).

Vasco has one preset ("standard") and one option, the pool size; two seats, Red (O)
first, the tester against the medium (greedy) computer by default.

>>> PLUGIN.name, PLUGIN.title, PLUGIN.presets, PLUGIN.seats
('vasco', 'Vasco', ('standard',), (2, 2))
>>> PLUGIN.check_rules({"base": "standard", "pool": 24})
{'base': 'standard', 'pool': 24}
>>> PLUGIN.make_game("standard", 2).new_initial_state().legal_targets()
['0,0']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from engine.core import Game
from engine.vasco.players import LEVELS
from engine.vasco.state import Rules, VascoGame
from playtest.games.plugin import BoardSpec, DemoBehaviour, GamePlugin, board_replay
from playtest.games.vasco import session
from playtest.games.vasco import demo
from playtest.games.vasco.messages import REFUSAL_KEYS, load_vasco_catalog

HERE: Final = Path(__file__).resolve().parent


def _engine(rules: Any, players: int) -> Game:
    return VascoGame(rules, players)


def _check_rules(rules: Any) -> Any:
    """A preset name or rules object the engine builds (RulesError naming the field if not)."""
    Rules.from_obj(rules)
    return rules


def _refusal_words(reason: str) -> str | None:
    """An engine refusal reason as the play screen words it (None: not one of them)."""
    from playtest.display_words import catalog_words

    key = REFUSAL_KEYS.get(reason)
    return None if key is None else catalog_words(load_vasco_catalog(), key)


def _analytics() -> Any:
    from analytics.games.vasco import ANALYTICS

    return ANALYTICS


PLUGIN: Final = GamePlugin(
    name="vasco",
    title="Vasco",
    engine=_engine,
    levels=LEVELS,
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
    board=BoardSpec(HERE / "static", "render.js"),
    ui_settings=(),  # its board has no highlight and no paced messages (yet)
    analytics=_analytics,
    demo=DemoBehaviour(settings=demo.demo_settings, slip_targets=demo.slip_targets,
                       messages_shown=demo.messages_shown,
                       message_effect=demo.message_effect),
    result=session.result,
    words=session.words,
    view=session.view,
    seat_name=session.seat_name,
    rules_path=HERE / "rules.yaml",
    replay=board_replay,
    refusal_words=_refusal_words,
)
