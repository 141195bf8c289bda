"""Tic-tac-toe as a plug-in of the lab, from outside the lab's packages: registered by
configuration (``PLAYTEST_GAMES=tests.fifth_game.plugin:PLUGIN``), never named by the lab.

Its rules are ``tests/fifth_game/engine``; its board (``board.py``, ``static/``), message
catalog (``messages.yaml``), rules overlay (``rules.yaml``), surveys (``surveys/``) and
analytics (``analytics.py``) are in this folder.

>>> PLUGIN.name, PLUGIN.seats, PLUGIN.ai_levels()
('tictactoe', (2, 2), ('easy', 'medium', 'hard'))
>>> PLUGIN.checked_rules("standard"), sorted(PLUGIN.shown_messages)[:2]
('standard', ['computer_thinking', 'draw'])
>>> PLUGIN.pre_survey, PLUGIN.post_survey, PLUGIN.survey_folder.name
('tictactoe_pre', 'tictactoe_post', 'surveys')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from playtest.games.plugin import DemoBehaviour, GameFiles, GamePlugin, Surveys
from playtest.games.ui_settings import HIGHLIGHT_OPTIONS, SPEED
from tests.fifth_game.engine import LEVELS, NAME, PRESETS, SQUARES, TicTacToeGame
from tests.fifth_game.plugin import board
from tests.fifth_game.plugin.analytics import ANALYTICS


def slip_targets(state: Any, selection: Sequence[str]) -> Sequence[str]:
    """A simulated tester may click any square, a taken one too (refused: ``taken``)."""
    del state, selection
    return SQUARES


PLUGIN: Final = GamePlugin(
    name=NAME, title="Tic-tac-toe", about="three in a row on a 3×3 grid",
    engine=TicTacToeGame, levels=LEVELS, presets=PRESETS, seats=(2, 2),
    default_seats=("human", "ai:easy"), files=GameFiles.beside(__file__, surveys="surveys"),
    surveys=Surveys(pre=f"{NAME}_pre", post=f"{NAME}_post"),
    ui_settings=(HIGHLIGHT_OPTIONS, SPEED), analytics=ANALYTICS,
    words=board.words, view=board.view, seat_name=board.seat_name,
    refusal_words=board.CATALOG.refusal_words,
    demo=DemoBehaviour(slip_targets=slip_targets),
)
