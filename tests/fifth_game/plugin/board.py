"""What the tic-tac-toe board says and draws (the game's ``words`` and ``view`` for the one
game session, :mod:`playtest.session`).

>>> from tests.fifth_game.plugin import PLUGIN
>>> from playtest.session import Moment, Play
>>> play = Play.new(PLUGIN, game_id="g", participant_id="p", seats=("human", "ai:easy"),
...                 seed=7, rules="standard")
>>> [(say.key, say.voice) for say in words(Moment(play))]
[('your_turn', 'you')]
>>> data = view(Moment(play, interactive=True))
>>> data["turn_text"], data["targets"][:3], data["cells"]["b2"]
('X to play', ['a1', 'b1', 'c1'], '')
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playtest.messages.catalog import GameCatalog
from playtest.session.play import Play
from playtest.session.view import Moment
from playtest.session.words import Say
from tests.fifth_game.engine import MARKS, SQUARES, tile

#: The catalog beside this module, the keys its board needs and its refusal reasons.
CATALOG = GameCatalog(
    Path(__file__).resolve().parent / "messages.yaml",
    frozenset({"your_turn", "computer_thinking", "win", "draw"}),
    refusals=("taken", "game_over"))


def seat_name(seat: int) -> str:
    """X or O (1-based seat)."""
    return MARKS[seat - 1]


def _voice(play: Play, seat: int) -> tuple[str, str]:
    """Who a 0-based seat is to the tester: (name, voice)."""
    if play.seats[seat].is_computer:
        return "the computer", "computer"
    if sum(s.is_human for s in play.seats) == 1:
        return "you", "you"
    return MARKS[seat], "seat"


def words(moment: Moment) -> tuple[Say, ...]:
    """One line: a refusal, the result, whose turn it is."""
    play, state = moment.play, moment.play.state
    if play.refusal is not None and not state.is_terminal():
        return (Say(CATALOG.refusal_key(play.refusal.reason)),)
    if state.is_terminal():
        winner = state.winner()
        if winner is None:
            return (Say("draw"),)
        name, voice = _voice(play, winner)
        return (Say("win", {"name": name}, voice=voice),)
    name, voice = _voice(play, play.mover())
    key = "computer_thinking" if voice == "computer" else "your_turn"
    return (Say(key, {"name": name}, voice=voice),)


def view(moment: Moment) -> dict[str, Any]:
    """What ``static/render.js`` draws: each square's mark, the squares a click may take,
    the last mark, the winning line, whose turn it is."""
    play, state = moment.play, moment.play.state
    line = state.line()
    placed = [e for e in state.last_events if e.kind == "place"]
    mover = play.mover()
    return {
        "cells": {s: "" if c is None else MARKS[c] for s, c in zip(SQUARES, state.cells,
                                                                   strict=True)},
        "targets": state.legal_targets(),
        "last": placed[-1].data["square"] if placed else "",
        "line": [] if line is None else [SQUARES[i] for i in line],
        "xy": {s: tile(i) for i, s in enumerate(SQUARES)},
        "turn_text": f"{MARKS[mover]} to play" if mover >= 0 else "Game over",
        "highlight": bool(moment.setting("highlight_options", True)),
        "interactive": moment.interactive,
    }
