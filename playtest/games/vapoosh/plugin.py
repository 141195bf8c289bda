"""Vapoosh! as a plug-in of the lab (:class:`~playtest.games.plugin.GamePlugin`).

>>> PLUGIN.title, PLUGIN.presets
('Vapoosh!', ('standard', 'classic', 'house'))
>>> PLUGIN.checked_rules({"base": "standard", "surround": "group"})
{'base': 'standard', 'surround': 'group'}
>>> PLUGIN.make_game("classic", 2).name
'vapoosh'
>>> [s.name for s in PLUGIN.ui_settings]
['highlight_options', 'show_computer_dice', 'speed']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from analytics.games.vapoosh import ANALYTICS
from engine.core import Game
from engine.vapoosh.players import LEVELS
from engine.vapoosh.rules import (
    CAPTURE_CHOICES,
    PRESETS,
    SURROUND_CHOICES,
    VAPOOH_CHOICES,
    Rules,
)
from engine.vapoosh.state import VapooshGame, deal_preplaced
from playtest.games.plugin import (
    DemoBehaviour,
    GameFiles,
    GamePlugin,
    Surveys,
    Telemetry,
)
from playtest.games.ui_settings import HIGHLIGHT_OPTIONS, SPEED, Choice, UiSetting
from playtest.games.vapoosh import session

NAME: Final = "vapoosh"

#: Whether the tester sees the computer's dice (and messages that name them).
SHOW_COMPUTER_DICE: Final = UiSetting(
    "show_computer_dice", "Show the computer's dice",
    (Choice(False, "hidden"), Choice(True, "shown")), True,
    "Show the dice of the computer's roll while it moves (its messages name them too).")


def dice_for(seed: int, roll_number: int) -> tuple[int, int, int, int]:
    """The four dice (pink, pink, green, green) of a game's ``roll_number``-th roll,
    seeded by ``"vapoosh:<seed>:<roll number>"``: a retried roll shows the same dice and
    a replay of the record is exact.

    >>> dice_for(7, 0) == dice_for(7, 0)
    True
    >>> all(1 <= d <= 6 for d in dice_for(7, 3))
    True
    """
    rng = random.Random(f"{NAME}:{seed}:{roll_number}")
    return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))


def draw_chance(state: Any, seed: int, actions: Sequence[Any]) -> int:
    """The chance action due: the deal of preplaced counters (a setup), else the next
    roll's dice (:func:`dice_for` of the rolls so far).

    >>> game = VapooshGame(Rules.from_obj("standard"), 2)
    >>> game.decode(draw_chance(game.new_initial_state(), 7, [])).to_json()[0]
    'roll'
    """
    game = state.game
    if state.phase == "setup":
        return int(game.encode(deal_preplaced(game.rules, game.num_players, seed)))
    rolls = sum(1 for a in actions if a[0] == "roll")
    return int(game.action_from_json(["roll", list(dice_for(seed, rolls))]))


def _engine(rules: Any, players: int) -> Game:
    return VapooshGame(Rules.from_obj(rules), players)



def _demo_settings() -> Mapping[str, Any]:
    from playtest.games.vapoosh.demo import demo_settings

    return demo_settings()


def _demo_play_game(*args: Any, **kwargs: Any) -> None:
    from playtest.games.vapoosh.demo import play_game

    play_game(*args, **kwargs)


def _replay_glow(events: list[dict[str, Any]], computer: bool) -> dict[tuple[int, int], str]:
    """The replay board's marks for the tiles one action touched (its engine events)."""
    from playtest.games.vapoosh.view import glow_from_events

    return glow_from_events(events, computer=computer)


PLUGIN: Final = GamePlugin(
    name=NAME, title="Vapoosh!", about="a dice and times-tables board game",
    engine=_engine, levels=LEVELS, seats=(1, 4), presets=tuple(PRESETS),
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
    surveys=Surveys.usual(NAME, post="vapoosh_post_short"),
    files=GameFiles.beside(__file__, catalog="catalog.yaml"),
    ui_settings=(HIGHLIGHT_OPTIONS, SHOW_COMPUTER_DICE, SPEED),
    # the dice: chance actions the tester's (or the computer's) Roll makes
    chance=draw_chance, chance_by=session.roller,
    result=session.result,
    telemetry=Telemetry(click=session.click_props, events=session.action_events),
    on_step=session.on_step, words=session.words, view=session.view,
    seat_name=session.seat_name, analytics=ANALYTICS,
    demo=DemoBehaviour(settings=_demo_settings, play_game=_demo_play_game),
    replay_glow=_replay_glow,
)
