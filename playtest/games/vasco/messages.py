"""Vasco's message catalog (``messages.yaml``) and which message each engine outcome needs.

>>> catalog = load_vasco_catalog()
>>> catalog.render("wrong_dead_cell", cell="0,1").tone
'warn'
>>> refusal_message_key("not_connected")
'wrong_not_connected'
>>> auto_message_key(2), end_message_key("loop", winner=2, mover=1)
('forced_gap', 'win_loop_by_opponent')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from engine.vasco import REASONS
from playtest.messages.catalog import GameCatalog, MessageCatalog
from playtest.messages.catalog import load_catalog as load_catalog_file
from playtest.session.words import Say

PATH: Final = Path(__file__).resolve().parent / "messages.yaml"

#: Every refusal the engine can give (its :data:`~engine.vasco.REASONS`, and
#: ``bad_target`` from :meth:`VascoState.click` for a target that is neither a cell nor a
#: tile) has a message of the catalog, said instead of the engine's sentence.
CLICK_ONLY_REASONS: Final = ("bad_target",)
REFUSAL_KEYS: Final[dict[str, str]] = {
    reason: f"wrong_{reason}" for reason in (*REASONS, *CLICK_ONLY_REASONS)
}

#: Who may have put a tile on the board (:func:`playtest.games.vasco.view.tile_origins`),
#: each named in the board's legend by its message ``legend_<origin>``.
TILE_ORIGINS: Final = ("tester", "computer", "forced")

#: The kinds of line a tile's edges are drawn with (red, blue, purple: both), each named
#: in the board's legend by its message ``legend_<line>``.
LINE_KINDS: Final = ("red", "blue", "both")

#: The board's top line's message, by whose turn it is (a person's, the computer's)
#: or ``"over"``.
TURN_LINES: Final = {"human": "turn_line", "computer": "turn_line_computer",
                     "over": "turn_line_over"}

#: Everything the board's legend names (``legend_<item>``): the lines, then the origins.
LEGEND: Final = (*LINE_KINDS, *TILE_ORIGINS)

REQUIRED_KEYS: Final[frozenset[str]] = frozenset(
    {
        "turn",
        "turn_computer",
        "computer_playing",
        "computer_placed",
        "pick_tile",
        "placed",
        "forced_hole",
        "forced_gap",
        "forced_channel",
        "forced_many",
        "win_loop",
        "win_loop_by_opponent",
        "both_loops",
        "tiles_out",
        "no_move",
        "draw",
        "forced_count",
        *TURN_LINES.values(),
        "tiles_left",
        "zoom_fit",
        *(f"legend_{item}" for item in LEGEND),
        *REFUSAL_KEYS.values(),
    }
)


#: The catalog, its required keys and the refusal reasons it words (``wrong_<reason>``).
CATALOG: Final = GameCatalog(PATH, REQUIRED_KEYS, (*REASONS, *CLICK_ONLY_REASONS),
                             prefix="wrong_", other="wrong_bad_target")


def load_vasco_catalog(path: str | None = None) -> MessageCatalog:
    """Load and check the catalog (every required key, variant and placeholder)."""
    return CATALOG.load() if path is None else load_catalog_file(Path(path), REQUIRED_KEYS)


def refusal_message_key(reason: str) -> str:
    """The message for an engine refusal code."""
    return REFUSAL_KEYS[reason]


def refusal_text(reason: str, *, cell: str = "", tiles_left: int = 0,
                 variant: str = "default") -> str:
    """What the tester reads for a refused click: the catalog's message for ``reason``
    (an unknown reason gets ``bad_target``'s, never the engine's wording).

    >>> refusal_text("dead_cell", cell="1,4")
    "No tile can go there: two lines of the same colour meet at that space, and a tile can't join them."
    >>> refusal_text("not_enough_tiles", tiles_left=2)
    'That move would make more tiles slide in than the 2 left in the bag.'
    """
    key = REFUSAL_KEYS.get(reason, "wrong_bad_target")
    return load_vasco_catalog().render(key, variant, cell=cell, count=tiles_left).text


def auto_text(constrained: int, cell: str, variant: str = "default",
              catalog: MessageCatalog | None = None) -> str:
    """Why a forced tile appeared, in the catalog's words (``variant``: a wording of the
    catalog, or a text of the study's own, as a ``message:`` experiment may set).

    >>> auto_text(2, "1,1")
    'A tile slid in by itself: the narrow gap there fits only one tile.'
    >>> auto_text(2, "1,1", "formal")
    'Auto move at 1,1: a 60° gap between ends of different colours.'
    >>> auto_text(2, "1,1", "Squeezed in at {cell}!")
    'Squeezed in at 1,1!'
    """
    return message_text(auto_message_key(constrained), variant, catalog=catalog, cell=cell)


def message_text(key: str, variant: str = "default", *, catalog: MessageCatalog | None = None,
                 **values: Any) -> str:
    """The catalog's message ``key`` in ``variant``; a variant that is not a wording of
    the catalog is a study's own text (checked when the study was saved), filled in.
    ``catalog``: the catalog in the tester's language (the English one without)."""
    return (catalog or load_vasco_catalog()).say(key, variant, **values).text


def forced_messages(events: Sequence[Any],
                    variants: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """The messages saying why the forced tiles of one action appeared, as the board shows
    them: one per message key, in the order the tiles fell (the first tile's cell), each
    in the tester's variant of it (``variants``: key → wording, a study's experiments).

    >>> from engine.core import Event
    >>> autos = [Event("auto", 1, ((0, 2),), {"tile": "ox*", "constrained": 2}),
    ...          Event("auto", 1, ((1, 0),), {"tile": "ox*", "constrained": 2})]
    >>> [(m["key"], m["variant"]) for m in forced_messages(autos, {"forced_gap": "formal"})]
    [('forced_gap', 'formal')]
    """
    chosen = dict(variants or {})
    out: dict[str, dict[str, str]] = {}
    for event in events:
        if event.kind != "auto" or not event.tiles:
            continue
        key = auto_message_key(int(event.data.get("constrained", 1)))
        if key in out:
            continue
        variant = chosen.get(key, "default")
        r, c = event.tiles[0]
        out[key] = {"key": key, "variant": variant,
                    "text": message_text(key, variant, cell=f"{r},{c}")}
    return list(out.values())


def pick_text(variant: str = "default", *, cell: str = "", count: int = 0,
              catalog: MessageCatalog | None = None) -> str:
    """The caption over the tile previews (the cell glows on the board).

    >>> pick_text()
    'Choose a tile for the glowing space:'
    """
    return (catalog or load_vasco_catalog()).render("pick_tile", variant, cell=cell,
                                                    count=count).text


def end_say(reason: str, lengths: tuple[int, int], *, winner: int | None, mover: int,
            seats: tuple[str, ...] = ("human", "computer")) -> Say:
    """The end's message (why the game ended), said to the tester ("you win") where the
    winner's seat is a person and ``seats`` has one person, else by colour."""
    red, blue = lengths
    voice = "seat"
    if winner is not None and seats.count("human") == 1:
        voice = "you" if seats[winner - 1] == "human" else "computer"
    name = {1: "Red", 2: "Blue"}.get(winner or 0, "")
    return Say(end_message_key(reason, winner=winner, mover=mover),
               {"name": name, "length": max(red, blue), "red": red, "blue": blue},
               voice=voice, slot="end")


def end_text(reason: str, lengths: tuple[int, int], *, winner: int | None, mover: int,
             seats: tuple[str, ...] = ("human", "computer"), variant: str = "default",
             catalog: MessageCatalog | None = None) -> str:
    """The sentence announcing the end, said to the tester ("you win") where the winner's
    seat is a person and ``seats`` has one person, else by colour.

    >>> end_text("loop", (6, 0), winner=1, mover=1)
    'You closed a loop of 6 tiles.'
    >>> end_text("pool_empty", (4, 7), winner=1, mover=2, seats=("computer", "human"))
    'No tiles left. Longest paths: red 4, blue 7. The longer path loses.'
    """
    say = end_say(reason, lengths, winner=winner, mover=mover, seats=seats)
    assert say.key is not None
    return (catalog or load_vasco_catalog()).render(say.key, variant, voice=say.voice,
                                                    **say.values).text


def auto_message_key(constrained: int) -> str:
    """The message saying why a forced tile appeared (its fixed edges before it)."""
    return {3: "forced_hole", 2: "forced_gap"}.get(constrained, "forced_channel")


def end_message_key(reason: str, *, winner: int | None, mover: int) -> str:
    """The message announcing the end (``reason`` as in engine.vasco.board.Outcome)."""
    if winner is None:
        return "draw"
    if reason == "loop":
        return "win_loop" if winner == mover else "win_loop_by_opponent"
    return {"both_loops": "both_loops", "pool_empty": "tiles_out"}.get(reason, "no_move")
