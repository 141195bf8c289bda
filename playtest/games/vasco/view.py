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
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.core import Event
from engine.vasco import VascoState, cell_name, parse_cell
from engine.vasco.board import candidate_cells
from engine.vasco.geometry import face, is_up
from playtest.games.vasco.messages import (
    LEGEND,
    TURN_LINES,
    auto_message_key,
    auto_text,
    end_text,
    message_text,
    pick_text,
)
from playtest.i18n import ENGLISH, Translator, translator
from playtest.messages.catalog import MessageCatalog

#: The words the renderer says of its own (render.js: a screen reader's words for the
#: board, the zoom, the spaces, each tile's origin and a preview), in the tester's
#: language once on the board (its key ``words``).
WORDS = {"board": "Vasco board: triangular tiles", "zoom": "Zoom", "zoom_in": "Zoom in",
         "zoom_out": "Zoom out", "zoom_fit": "Fit the board",
         "picker": "Choose a tile for the glowing space",
         "blocked": "Space where no tile fits now", "chosen": "The glowing space (chosen)",
         "open": "Green space: a tile fits here", "tester": "placed by you",
         "computer": "placed by the computer", "forced": "slid in by itself",
         "preview": "Tile: left {left}, right {right}, flat side {flat}",
         "red": "red", "blue": "blue", "purple": "purple"}

# The colour of a seat's lines, in a child's words (not the rules' O and X).
SEAT_COLOURS = {1: "red", 2: "blue"}


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
    #: The caption over the previews (the selected cell glows: no coordinates).
    pick_text: str = ""
    #: Empty cells touching the tiles (at an edge or a corner) where no tile may go now:
    #: drawn faint and tappable, so a tap next to the group is answered with the reason
    #: (only a corner and nothing joins it, a dead cell...) instead of nothing.
    blocked: tuple[str, ...] = ()
    #: The cell of the click just refused, outlined in red.
    refused: str | None = None
    #: Where each tile came from: ``"tester"`` (a person placed it), ``"computer"``
    #: or ``"forced"`` (it slid in by itself); drawn as a mark and tint per origin.
    origins: dict[str, str] = field(default_factory=dict)
    #: The cell the computer just placed (named and highlighted before its forced tiles).
    computer_placed: str | None = None
    #: How long each step of the computer's move stays on screen (the tester's speed).
    pace_ms: int = 1000
    #: What the board says first while it plays out the computer's move (its tile named).
    computer_text: str = ""
    #: The turn line while a move plays out (the computer's, or what the tester's forced).
    playing_text: str = ""
    #: The legend of the lines and the origins' marks: item → its words
    #: (``legend_<item>``, :data:`~playtest.games.vasco.messages.LEGEND`).
    legend: dict[str, str] = field(default_factory=dict)
    #: The words on the zoom button that shows the whole board again.
    fit_text: str = ""

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
    refused: str | None = None,
    variants: Mapping[str, str] | None = None,
    origins: Mapping[str, str] | None = None,
    computer_placed: str | None = None,
    pace_ms: int = 1000,
    catalog: MessageCatalog | None = None,
    words: Translator | None = None,
) -> BoardView:
    """The view of ``state`` for a person playing the ``"human"`` seats.

    ``selection`` is the click selection held (a cell ``"r,c"``); ``events`` the last
    move's events (their ``auto`` tiles are animated in order, with why, in the
    catalog's words); ``refused`` the cell of a click just refused (``message`` says why);
    ``variants`` the tester's wording of each message a study's experiments vary;
    ``origins`` who put each tile there (see :func:`tile_origins`); ``computer_placed``
    the computer's tile just placed; ``pace_ms`` each step of its move on screen. The
    board's own lines (the computer's tile named, the turn line while a move plays out,
    the legend) are the catalog's messages in the tester's wording too. ``catalog``: the
    catalog in the tester's language, ``words`` the game's other words in it (the tiles'
    labels read aloud); English without.
    """
    wording = dict(variants or {})

    def worded(key: str, **values: Any) -> str:
        return message_text(key, wording.get(key, "default"), catalog=catalog, **values)

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
    blocked: tuple[str, ...] = ()
    if human_turn and state.tiles:
        open_cells = set(candidates)
        blocked = tuple(
            name for name in map(cell_name, candidate_cells(state.tiles))
            if name not in open_cells
        )
    selected = None
    previews: tuple[str, ...] = ()
    if human_turn and selection and selection[-1] in candidates:
        selected = selection[-1]
        previews = tuple(state.legal_states_at(parse_cell(selected)))
    forced = [(x, int(x.data.get("constrained", 1))) for x in events if x.kind == "auto"]
    autos = tuple(
        {
            "cell": cell_name(e.tiles[0]),
            "r": e.tiles[0][0],
            "c": e.tiles[0][1],
            "state": e.data.get("tile", ""),
            "why": auto_text(
                constrained, cell_name(e.tiles[0]),
                wording.get(auto_message_key(constrained), "default"), catalog,
            ),
            # said before its reason while several play out ("Forced tile 2 of 5.")
            "count_text": worded("forced_count", number=i + 1, total=len(forced))
            if len(forced) > 1 else "",
            "order": i,
        }
        for i, (e, constrained) in enumerate(forced)
    )
    placed = next((cell_name(e.tiles[0]) for e in events if e.kind == "place"), None)
    left, pool = state.tiles_remaining, state.rules.pool
    outcome = state.outcome
    if outcome is None:
        turn_text = worded(TURN_LINES["human" if human_turn else "computer"],
                           colour=SEAT_COLOURS[state.to_move])
        result_text = ""
        highlight: tuple[str, ...] = ()
    else:
        turn_text = worded(TURN_LINES["over"])
        # the seat that made the last move (to_move is the one that would be next)
        mover = 3 - state.to_move
        result_text = end_text(outcome.reason, outcome.lengths, winner=outcome.winner,
                               mover=mover, seats=tuple(seats), catalog=catalog)
        highlight = tuple(dict.fromkeys(cell_name(c) for c in outcome.highlight))
    return BoardView(
        tiles=tiles,
        candidates=candidates,
        selected=selected,
        previews=previews,
        autos=autos,
        placed=placed,
        counter=worded("tiles_left", left=left, pool=pool),
        tiles_left=left,
        pool=pool,
        to_move=state.to_move,
        turn_text=turn_text,
        interactive=human_turn,
        over=over,
        result_text=result_text,
        highlight=highlight,
        message=message,
        labels={cell_name(c): _cell_label(c, st, words) for c, st in state.tiles.items()},
        pick_text=pick_text(cell=selected or "", count=len(previews), catalog=catalog)
        if selected else "",
        blocked=blocked,
        refused=refused if human_turn else None,
        origins=dict(origins or {}),
        computer_placed=computer_placed,
        pace_ms=pace_ms,
        computer_text=worded("computer_placed") if computer_placed else "",
        playing_text=worded("computer_playing"),
        legend={item: worded(f"legend_{item}") for item in LEGEND},
        fit_text=worded("zoom_fit"),
    )


def tile_origins(moves: Sequence[tuple[bool, Sequence[Event]]]) -> dict[str, str]:
    """Who put each tile there, from the moves in order (``(by_computer, events)``):
    ``"computer"``, ``"tester"`` or ``"forced"`` (an ``auto`` tile).

    >>> from engine.core import Event
    >>> tile_origins([(False, [Event("place", 1, ((0, 0),))]),
    ...               (True, [Event("place", 2, ((0, 1),)),
    ...                       Event("auto", None, ((1, 1),))])])
    {'0,0': 'tester', '0,1': 'computer', '1,1': 'forced'}
    """
    out: dict[str, str] = {}
    for by_computer, events in moves:
        for e in events:
            if e.kind in ("place", "auto") and e.tiles:
                who = "forced" if e.kind == "auto" else "computer" if by_computer else "tester"
                out[cell_name(e.tiles[0])] = who
    return out


_COLOUR = {"o": "red", "x": "blue", "*": "purple"}


def _cell_label(cell: tuple[int, int], st: str, words: Translator | None = None) -> str:
    """A tile as a screen reader says it (in the language of ``words``; English without).

    >>> _cell_label((0, 1), "ox*")
    'Tile at 0,1: left red, right blue, flat purple'
    """
    _ = (words or translator(ENGLISH)).gettext
    left, right, flat = (_(_COLOUR[k]) for k in st)
    return _("Tile at {cell}: left {left}, right {right}, flat {flat}").format(
        cell=cell_name(cell), left=left, right=right, flat=flat)
