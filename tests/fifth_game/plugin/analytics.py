"""Tic-tac-toe's analytics: what a turn is, and the fix to suggest for its refusals.

The core finds the refused clicks (``ok: false``) and their engine ``reason`` (``taken``…)
and scores them as ``rule:<reason>`` confusion points (:mod:`analytics.confusion`); every
turn with a click is an occasion of every reason (a taken square is on the board on all
but the game's very first turn), the core's default.

>>> ANALYTICS.name, ANALYTICS.turns.acts
('tictactoe', ('place',))
"""

from __future__ import annotations

from analytics.game_analytics import GameAnalytics
from analytics.game_parts import board_turns
from tests.fifth_game.engine import NAME

ANALYTICS = GameAnalytics(
    name=NAME, title="Tic-tac-toe",
    actions={"rule:taken": "Make taken squares look unclickable."},
    turns=board_turns(("place",), "A turn is the tester's clicks for one mark of theirs, "
                      "from the computer's mark to their own."))
