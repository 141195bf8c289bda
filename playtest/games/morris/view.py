"""What the Bricks & Walls board shows, as plain data (no Streamlit): the JSON its renderer
draws, and what the board says (a catalog key with its values).

>>> from engine.morris import MorrisGame, Place
>>> s = MorrisGame().new_initial_state()
>>> for p in ("a7", "b6", "d7", "d6"):
...     _ = s.apply(Place(p))
>>> _ = s.apply(Place("g7"))
>>> data = board_data(s)
>>> data["phase"], prompt(s).text
('remove', "Wall! Take one of Black's bricks.")
>>> data["targets"], data["counts"]["W"]["reserve"]
(['b6', 'd6'], 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.core import Event, Refusal
from engine.morris.board import ADJACENT, POINTS, index, xy
from engine.morris.state import COLOUR_NAMES, COLOURS, MorrisState
from playtest.games.morris.catalog import END_REASONS, load_catalog, refusal_key
from playtest.messages.catalog import Message, MessageCatalog
from playtest.session.words import Say

HUMAN: Final = "human"
COMPUTER: Final = "computer"

#: The drawn lines (each edge once), as point pairs: 3 squares and 4 connectors.
EDGES: Final[tuple[tuple[str, str], ...]] = tuple(
    (POINTS[i], POINTS[j]) for i in range(len(POINTS)) for j in ADJACENT[i] if i < j
)


@dataclass(frozen=True)
class Sides:
    """Who plays each colour (``"human"`` or ``"computer"``), and how messages name them.

    Against the computer the one human is "you"; in pass-and-play each side is its colour.

    >>> Sides(("human", "computer")).name(0), Sides(("human", "computer")).possessive(1)
    ('you', "the computer's")
    >>> Sides().name(1), Sides().possessive(0), Sides().voice(0)
    ('Black', "White's", 'seat')
    """

    kinds: tuple[str, str] = (HUMAN, HUMAN)

    @property
    def solo_human(self) -> int | None:
        """The seat of the one human playing the computer, else None."""
        humans = [s for s, k in enumerate(self.kinds) if k == HUMAN]
        return humans[0] if len(humans) == 1 else None

    def name(self, seat: int) -> str:
        if self.solo_human is None:
            return COLOUR_NAMES[seat]
        return "you" if seat == self.solo_human else "the computer"

    def possessive(self, seat: int) -> str:
        if self.solo_human is None:
            return f"{COLOUR_NAMES[seat]}'s"
        return "your" if seat == self.solo_human else "the computer's"

    def voice(self, seat: int) -> str:
        if self.solo_human is None:
            return "seat"
        return "you" if seat == self.solo_human else "computer"


#: Both colours played by people at one device.
PASS_AND_PLAY: Final = Sides()


def prompt_say(
    state: MorrisState,
    *,
    selection: Sequence[str] = (),
    sides: Sides = PASS_AND_PLAY,
    refusal: Refusal | None = None,
    last_events: Sequence[Event] | None = None,
) -> Say:
    """The one message the board shows now: a refusal, the end, a wall to act on, the
    selected brick, a skipped turn, or whose turn it is and what to do."""
    seat = state.current_player()
    events = list(state.last_events if last_events is None else last_events)
    kinds = [e.kind for e in events]
    if refusal is not None and seat >= 0:
        return Say(refusal_key(refusal.reason), {"enemy_of": sides.possessive(1 - seat)})
    if state.is_terminal():
        winner = state.winner
        if winner is None:
            return Say("draw")
        w = COLOURS.index(winner)
        return Say("win", {"name": sides.name(w)}, voice=sides.voice(w))
    ctx = {"name": sides.name(seat), "enemy_of": sides.possessive(1 - seat)}
    if state.phase == "remove":
        return Say("wall", ctx, voice=sides.voice(seat))
    if sides.kinds[seat] == COMPUTER:
        return Say("computer_thinking", {"name": sides.name(seat)})
    if selection and state.phase in ("move", "fly") and state.owner(selection[0]) == COLOURS[seat]:
        return Say("selected", {"point": selection[0]})
    if "skip" in kinds:
        skipped = next(e.seat for e in events if e.kind == "skip")
        assert skipped is not None
        return Say("skipped", {"name": sides.name(seat),
                               "blocked_name": sides.name(skipped - 1)})
    if "wall" in kinds and "remove" not in kinds and events and events[0].seat is not None:
        mover = events[0].seat - 1
        return Say("wall_nothing", {"name": sides.name(mover),
                                    "enemy_of": sides.possessive(1 - mover)})
    key = {"place": "place_turn", "move": "move_turn", "fly": "fly_turn"}[state.phase]
    return Say(key, {"name": sides.name(seat)}, voice=sides.voice(seat))


def prompt(
    state: MorrisState,
    *,
    selection: Sequence[str] = (),
    sides: Sides = PASS_AND_PLAY,
    refusal: Refusal | None = None,
    last_events: Sequence[Event] | None = None,
    catalog: MessageCatalog | None = None,
    variant: str = "default",
) -> Message:
    """:func:`prompt_say` in the catalog's words (``variant``)."""
    say = prompt_say(state, selection=selection, sides=sides, refusal=refusal,
                     last_events=last_events)
    return _render(catalog, say, variant)


def _render(catalog: MessageCatalog | None, say: Say, variant: str = "default") -> Message:
    assert say.key is not None
    return (catalog or load_catalog()).render(say.key, variant, voice=say.voice, **say.values)


def last_say(state: MorrisState, sides: Sides = PASS_AND_PLAY) -> Say | None:
    """What the last action did ("White moved a brick from d6 to d5."), or None."""
    for e in reversed(state.last_events):
        if e.seat is None:
            continue
        s = e.seat - 1
        if e.kind == "remove":
            return Say("removed", {"name": sides.name(s), "enemy_of": sides.possessive(1 - s),
                                   "point": e.data["point"]}, slot="last")
        if e.kind == "move":
            return Say("moved", {"name": sides.name(s), "frm": e.data["from"],
                                 "point": e.data["point"]}, slot="last")
        if e.kind == "place":
            return Say("placed", {"name": sides.name(s), "point": e.data["point"]},
                       voice=sides.voice(s), slot="last")
    return None


def last_action_text(
    state: MorrisState,
    sides: Sides = PASS_AND_PLAY,
    catalog: MessageCatalog | None = None,
    variant: str = "default",
) -> Message | None:
    """:func:`last_say` in the catalog's words (``variant``)."""
    say = last_say(state, sides)
    return None if say is None else _render(catalog, say, variant)


def end_say(state: MorrisState, sides: Sides = PASS_AND_PLAY) -> Say | None:
    """Why the game ended, for the end screen (None while it goes on)."""
    if not state.is_terminal():
        return None
    final = next((e for e in reversed(state.last_events) if e.kind in ("win", "draw")), None)
    reason = "move_cap" if final is None else str(final.data.get("reason", final.kind))
    if reason not in END_REASONS:
        return None
    if final is None or final.seat is None:
        return Say(f"end_{reason}", slot="end")
    w = final.seat - 1
    return Say(f"end_{reason}", {"name": sides.name(w), "loser": sides.name(1 - w)},
               voice=sides.voice(w), slot="end")


def position_token(state: MorrisState, game_id: str = "") -> str:
    """Names the position a click was made on (clicks on an older one are dropped)."""
    return f"{game_id}:{len(state.history)}"


def board_data(state: MorrisState, *, selection: Sequence[str] = (),
               sides: Sides = PASS_AND_PLAY, highlight: bool = True) -> dict[str, Any]:
    """Everything the renderer draws, JSON-ready (the board's words are the shell's).

    ``highlight``: ring the points a click may choose (the ``ui:highlight`` setting); off,
    the board shows only what the seed shows (the selected brick's inner colour, grey
    walled bricks during a removal).
    """
    seat = state.current_player()
    phase = state.phase
    selection = tuple(p for p in selection if p in POINTS)[:1]
    if selection and (phase not in ("move", "fly") or state.owner(selection[0]) != state.to_move):
        selection = ()
    movable: dict[str, list[str]] = {}
    if phase in ("move", "fly"):
        for p, colour in state.board.items():
            if colour == state.to_move:
                movable[p] = state.destinations(p)
    grey: list[str] = []
    if phase == "remove":
        takeable = set(state.legal_targets())
        grey = [p for p, c in state.board.items() if c != state.to_move and p not in takeable]
    last_points: list[str] = []
    for e in state.last_events:
        if e.kind == "move":
            last_points += [e.data["from"], e.data["point"]]
        elif e.kind in ("place", "remove"):
            last_points.append(e.data["point"])
    taken = [e.data["point"] for e in state.last_events if e.kind == "remove"]
    walls = sorted(
        {p for e in state.last_events if e.kind == "wall" for p in e.data.get("points", [])},
        key=index,
    )
    interactive = seat >= 0 and sides.kinds[seat] == HUMAN
    return {
        "points": [{"id": p, "x": xy(p)[0], "y": xy(p)[1]} for p in POINTS],
        "edges": [list(e) for e in EDGES],
        "cells": state.board,
        "toMove": state.to_move,
        "phase": phase,
        "winner": state.winner,
        "selection": selection[0] if selection else None,
        "targets": state.legal_targets(selection),
        "movable": movable,
        "grey": grey,
        "lastPoints": last_points,
        "walls": walls,
        "taken": taken,
        "placing": not state.placement_over,
        "counts": {
            c: {
                "name": COLOUR_NAMES[s].capitalize(),
                "who": sides.name(s),
                "kind": sides.kinds[s],
                "reserve": state.reserve[c],
                "board": state.on_board(c),
            }
            for s, c in enumerate(COLOURS)
        },
        "interactive": interactive,
        "highlight": highlight,
        "token": position_token(state),
        "labels": {
            "placements": "Placements left",
            "bricks": "Bricks left",
            "board": "Bricks & Walls board: 24 points on three squares",
            "turn": "to play",
            "over": "Game over",
            "computer": "computer",
            "sound_on": "Sound on",
            "sound_off": "Sound off",
            # a point as a screen reader says it: "a1, white brick, selected"
            "W": "white brick",
            "B": "black brick",
            "empty": "empty",
            "walled": "walled",
            "selected": "selected",
            "taken": "brick just taken",
        },
    }
