"""What Vasco's board shows, as one JSON-ready value (pure: no Streamlit).

:func:`board_view` turns an engine state (and the app's selection, the last move's
events and whose seat is a person) into the data the browser draws: tiles with their
drawing face, candidate cells, the previews of the selected cell, the forced tiles to
animate in order with the sentence saying why each appeared, the tile counter, and at
the end the winning loop or the longest paths.

>>> from engine.vasco import VascoGame, Place
>>> s = VascoGame().new_initial_state()
>>> _ = s.apply(Place(0, 0, "ox*")); _ = s.apply(Place(0, 1, "xo*"))
>>> events = s.apply(Place(1, 2, "ox*"))
>>> v = board_view(s, seats=("human", "computer"), events=events)
>>> v.counter, [a["cell"] for a in v.autos]
('48 of 54 tiles left', ['0,2', '1,0', '1,1'])
>>> v.interactive, v.to_move
(False, 2)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.core import Event
from engine.vasco import VascoState, cell_name, parse_cell
from engine.vasco.geometry import face, is_up

SEAT_WORDS = {1: "Red (O)", 2: "Blue (X)"}


@dataclass(frozen=True)
class BoardView:
    """Everything the board draws; ``to_data()`` is what the JavaScript receives."""

    tiles: tuple[dict[str, Any], ...]
    candidates: tuple[str, ...]
    selected: str | None
    previews: tuple[str, ...]
    autos: tuple[dict[str, Any], ...]
    placed: str | None
    counter: str
    tiles_left: int
    pool: int
    to_move: int
    turn_text: str
    interactive: bool
    over: bool
    result_text: str
    highlight: tuple[str, ...]
    message: str = ""
    labels: dict[str, str] = field(default_factory=dict)

    @property
    def token(self) -> str:
        """Names this exact view: a click made on another view is stale."""
        body = json.dumps(asdict(self), sort_keys=True, default=str).encode()
        return hashlib.sha1(body).hexdigest()[:16]

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["token"] = self.token
        return data


def board_view(
    state: VascoState,
    *,
    seats: Sequence[str] = ("human", "computer"),
    selection: Sequence[str] = (),
    events: Sequence[Event] = (),
    message: str = "",
) -> BoardView:
    """The view of ``state`` for a person playing the ``"human"`` seats.

    ``selection`` is the click selection held (a cell ``"r,c"``); ``events`` the last
    move's events (their ``auto`` tiles are animated in order, with why).
    """
    tiles = tuple(
        {
            "cell": cell_name(cell),
            "r": cell[0],
            "c": cell[1],
            "state": st,
            "up": is_up(cell),
            "face": face(cell, st),
        }
        for cell, st in sorted(state.tiles.items())
    )
    over = state.is_terminal()
    human_turn = not over and seats[state.to_move - 1] == "human"
    candidates = tuple(state.legal_targets()) if human_turn else ()
    selected = None
    previews: tuple[str, ...] = ()
    if human_turn and selection and selection[-1] in candidates:
        selected = selection[-1]
        previews = tuple(state.legal_states_at(parse_cell(selected)))
    autos = tuple(
        {
            "cell": cell_name(e.tiles[0]),
            "r": e.tiles[0][0],
            "c": e.tiles[0][1],
            "state": e.data.get("tile", ""),
            "why": e.data.get("why", ""),
            "order": i,
        }
        for i, e in enumerate(x for x in events if x.kind == "auto")
    )
    placed = next((cell_name(e.tiles[0]) for e in events if e.kind == "place"), None)
    left, pool = state.tiles_remaining, state.rules.pool
    outcome = state.outcome
    if outcome is None:
        who = SEAT_WORDS[state.to_move]
        turn_text = f"{who} to play" + (" (you)" if human_turn else " (computer)")
        result_text = ""
        highlight: tuple[str, ...] = ()
    else:
        turn_text = "Game over"
        result_text = _result_words(outcome.winner, outcome.reason, outcome.lengths)
        highlight = tuple(dict.fromkeys(cell_name(c) for c in outcome.highlight))
    return BoardView(
        tiles=tiles,
        candidates=candidates,
        selected=selected,
        previews=previews,
        autos=autos,
        placed=placed,
        counter=f"{left} of {pool} tiles left",
        tiles_left=left,
        pool=pool,
        to_move=state.to_move,
        turn_text=turn_text,
        interactive=human_turn,
        over=over,
        result_text=result_text,
        highlight=highlight,
        message=message,
        labels={cell_name(c): _cell_label(c, st) for c, st in state.tiles.items()},
    )


_COLOUR = {"o": "red", "x": "blue", "*": "purple"}


def _cell_label(cell: tuple[int, int], st: str) -> str:
    edges = ", ".join(
        f"{n} {_COLOUR[k]}" for n, k in zip(("left", "right", "flat"), st, strict=True)
    )
    return f"Tile at {cell_name(cell)}: {edges}"


def _result_words(winner: int | None, reason: str, lengths: tuple[int, int]) -> str:
    o, x = lengths
    if reason == "loop":
        return f"{SEAT_WORDS[winner or 1]} wins: a closed loop of {max(o, x)} tiles."
    if reason == "both_loops":
        if winner is None:
            return f"A draw: both colours closed loops of {o} tiles."
        return (
            f"{SEAT_WORDS[winner]} wins: both closed loops, red {o} and blue {x}; the longer loses."
        )
    why = "No tiles left" if reason == "pool_empty" else "No legal move left"
    if winner is None:
        return f"{why}: the longest paths are equal ({o} tiles each), a draw."
    return (
        f"{why}: longest paths red {o}, blue {x}. The longer loses, so {SEAT_WORDS[winner]} wins."
    )
