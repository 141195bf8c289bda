"""What Bricks & Walls adds to the one game session (:mod:`playtest.session`): what its
board says (the prompt or refusal, the last move, the reason for the end) and the data its
renderer draws.

>>> from playtest.games.morris.plugin import PLUGIN
>>> from playtest.session import Moment, Play
>>> play = Play.new(PLUGIN, game_id="g", participant_id="p", seats=("human", "ai:easy"),
...                 seed=7, rules="standard")
>>> [say.key for say in words(Moment(play))]
['place_turn']
>>> data = view(Moment(play, interactive=True))
>>> data["turn_text"], data["interactive"], len(data["targets"])
('White to play', True, 24)
"""

from __future__ import annotations

from typing import Any

from playtest.games.morris.view import (
    COMPUTER,
    HUMAN,
    Sides,
    board_data,
    end_say,
    last_say,
    prompt_say,
)
from playtest.session.play import Play
from playtest.session.view import Moment
from playtest.session.words import Say


def sides_of(play: Play) -> Sides:
    """Who plays each colour (the tester is "you" against the computer)."""
    kinds = tuple(HUMAN if s.is_human else COMPUTER for s in play.seats)
    return Sides((kinds[0], kinds[1]))


def words(moment: Moment) -> tuple[Say, ...]:
    """The message (a refusal, a wall to act on, the selected brick, whose turn it is),
    the last move's line and, at the end, why the game ended."""
    play = moment.play
    sides = sides_of(play)
    says = [prompt_say(play.state, selection=play.selection, sides=sides,
                       refusal=play.refusal)]
    last = last_say(play.state, sides)
    if last is not None:
        says.append(last)
    end = end_say(play.state, sides)
    if end is not None:
        says.append(end)
    return tuple(says)


def view(moment: Moment) -> dict[str, Any]:
    """What the renderer draws (:func:`~playtest.games.morris.view.board_data`), with the
    turn line and the last move's line in the tester's wording."""
    play = moment.play
    data = board_data(play.state, selection=play.selection, sides=sides_of(play),
                      highlight=bool(moment.setting("highlight_options", True)))
    last = moment.text("last")
    data["last"] = "" if last is None else last.text
    mover = data["counts"].get(data["toMove"] or "", None)
    data["turn_text"] = f"{mover['name']} to play" if mover else "Game over"
    data["interactive"] = moment.interactive
    return data


def seat_name(seat: int) -> str:
    """White or Black."""
    return ("White", "Black")[seat - 1]
