"""What the board component shows: a frozen, JSON-ready view built from plain data.

`board_view` is a pure function. It knows nothing of the engine's classes: it takes the
12 row strings of `state.board_rows()` (row 1 first, one character per column: `.` empty,
`1`-`4` a seat's counter, `B` brown) plus dice, options and flags, so the app can build a
view from a live state, a replay or a test fixture alike.

Tiles are indexed `index = (r - 1) * 12 + (c - 1)` (row 1 first, column 1 first), the
same order as the row strings; `tile_index` / `tile_at` convert.

>>> rows = ["." * 12] * 12
>>> v = board_view(rows, dice=(3, 4, 2, 5), options=((7, 7),), phase="place")
>>> v.tile(7, 7).number, v.tile(7, 7).square, v.tile(7, 7).highlighted
(49, True, False)
>>> board_view(rows, options=((7, 7),), highlight=True, phase="place").tile(7, 7).highlighted
True
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

SIZE: Final = 12
TILE_COUNT: Final = SIZE * SIZE
BROWN: Final = 5

SeatKind = Literal["human", "computer"]

GLOW_KINDS: Final[tuple[str, ...]] = ("placed", "square", "captured", "computer", "win")
TONES: Final[tuple[str, ...]] = ("info", "good", "bad", "warn", "celebrate")
PHASES: Final[tuple[str, ...]] = ("setup", "roll", "place", "over")
# A later kind wins when two events mark one tile (a capture outranks the placement).
_GLOW_RANK: Final = {"placed": 0, "square": 1, "computer": 2, "captured": 3, "win": 4}


@dataclass(frozen=True)
class SeatStyle:
    """How one seat's counters look: an Okabe-Ito colour AND a shape (never colour alone)."""

    colour: str
    shape: str
    text_colour: str
    name: str


# Okabe & Ito (2008) colour-blind-safe palette; the text colour keeps the tile number
# readable on the counter (>= 4.5:1 contrast).
SEAT_STYLES: Final[Mapping[int, SeatStyle]] = {
    1: SeatStyle("#0072B2", "circle", "#ffffff", "blue circle"),
    2: SeatStyle("#E69F00", "square", "#000000", "orange square"),
    3: SeatStyle("#009E73", "triangle", "#000000", "green triangle"),
    4: SeatStyle("#CC79A7", "diamond", "#000000", "pink diamond"),
    BROWN: SeatStyle("#7B4A1E", "hexagon", "#ffffff", "brown hexagon"),
}

_OWNER_CHARS: Final = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "B": BROWN}


class BoardViewError(ValueError):
    """Input that cannot be drawn (bad row strings, tiles off the board, unknown kinds)."""


def tile_index(c: int, r: int) -> int:
    """Index of tile (c, r) in the view's tile order.

    >>> tile_index(1, 1), tile_index(12, 1), tile_index(5, 8)
    (0, 11, 88)
    """
    _check_tile((c, r))
    return (r - 1) * SIZE + (c - 1)


def tile_at(index: int) -> tuple[int, int]:
    """(c, r) of a tile index; the inverse of `tile_index`.

    >>> tile_at(88)
    (5, 8)
    """
    if not 0 <= index < TILE_COUNT:
        raise BoardViewError(f"tile index {index} is outside 0..{TILE_COUNT - 1}")
    return index % SIZE + 1, index // SIZE + 1


def is_square_number(n: int) -> bool:
    """True for perfect squares (1, 4, 9, ...): those tiles glow all game."""
    root = math.isqrt(n)
    return root * root == n


@dataclass(frozen=True)
class TileView:
    """One tile as drawn: its number, counter, glow and accessible name."""

    c: int
    r: int
    number: int
    owner: int  # 0 empty, 1..4 seat, 5 brown
    square: bool
    glow: str  # "" or one of GLOW_KINDS
    option: bool  # one of the rolled options (drawn only when highlighted)
    highlighted: bool
    label: str

    @property
    def index(self) -> int:
        return (self.r - 1) * SIZE + (self.c - 1)


@dataclass(frozen=True)
class BoardView:
    """Everything the component draws, as immutable plain data.

    `token` fingerprints the game-relevant part (board, dice, options, turn, phase,
    interactivity); every click carries the token the browser was showing, so the app can
    drop clicks made on an outdated board. `nonce` changes whenever the app announces a
    new event: the component plays `sound` and restarts the message timer only when it
    changes, so the same cue twice plays twice.
    """

    tiles: tuple[TileView, ...]
    dice: tuple[int, int, int, int] | None
    dice_seat: int | None
    options: tuple[tuple[int, int], ...]
    highlight: bool
    seats: tuple[str, ...]
    to_move: int | None
    phase: str
    turn: int
    turn_text: str
    message: str
    tone: str
    message_ms: int | None
    sound: str | None
    nonce: str
    muted: bool
    interactive: bool
    can_roll: bool
    show_sums: bool
    # seat names as the tester knows them ("you", "the computer", "Blue"), seat 1 first
    names: tuple[str, ...] = ()
    # touch: a tap on a small tile opens a magnified view of its neighbourhood first
    zoom: bool = False
    # tiles where the mover may put a brown counter instead (Vapooh): a choice drawn
    # on the board next to each of them
    brown_tiles: tuple[tuple[int, int], ...] = ()
    token: str = field(default="")

    def tile(self, c: int, r: int) -> TileView:
        return self.tiles[tile_index(c, r)]

    def to_data(self) -> dict[str, Any]:
        """The JSON sent to the browser on every rerun, kept small (it is most of a
        rerun's bytes): owners as one 144-character string in tile order (`.1234B`),
        glow and labels only where they differ from an empty, unmarked tile (the
        browser rebuilds "column c, row r, n, empty" itself), highlighted tile indexes.
        """
        # One pass over the tiles (the play screen sends this on every click). Tiles are
        # made by `_tile` only, whose label is the default one exactly when the tile is
        # empty, unmarked and not lit: only those others are compared.
        chars = ".1234B"
        owners: list[str] = []
        glow: dict[str, str] = {}
        hl: list[int] = []
        labels: dict[str, str] = {}
        for t in self.tiles:
            owners.append(chars[t.owner])
            if not (t.owner or t.glow or t.highlighted):
                continue
            index = str(t.index)
            if t.glow:
                glow[index] = t.glow
            if t.highlighted:
                hl.append(t.index)
            if t.label != default_label(t.c, t.r):
                labels[index] = t.label
        return {
            "owners": "".join(owners),
            "glow": glow,
            "hl": hl,
            "labels": labels,
            "dice": list(self.dice) if self.dice else None,
            "dice_seat": self.dice_seat,
            "dice_by": (
                _seat_name(self.dice_seat, self.seats, self.names)
                if self.dice_seat is not None else ""
            ),
            "seats": list(self.seats),
            "to_move": self.to_move,
            "phase": self.phase,
            "turn": self.turn,
            "turn_text": self.turn_text,
            "message": self.message,
            "tone": self.tone,
            "message_ms": self.message_ms,
            "sound": self.sound,
            "nonce": self.nonce,
            "muted": self.muted,
            "interactive": self.interactive,
            "can_roll": self.can_roll,
            "show_sums": self.show_sums,
            "zoom": self.zoom,
            "brown": [tile_index(c, r) for c, r in self.brown_tiles],
            "token": self.token,
        }


def default_label(c: int, r: int) -> str:
    """The accessible name of an empty, unmarked tile (the browser builds the same).

    >>> default_label(5, 8)
    'column 5, row 8, 40, empty'
    """
    return f"column {c}, row {r}, {c * r}, empty"


def _check_tile(tile: tuple[int, int]) -> tuple[int, int]:
    try:
        c, r = int(tile[0]), int(tile[1])
    except (TypeError, ValueError, IndexError) as err:
        raise BoardViewError(f"a tile is (column, row); got {tile!r}") from err
    if not (1 <= c <= SIZE and 1 <= r <= SIZE):
        raise BoardViewError(f"tile ({c},{r}) is off the board (columns and rows are 1..12)")
    return c, r


def _parse_rows(rows: Iterable[str]) -> list[int]:
    rows = list(rows)
    if (len(rows) == SIZE and all(isinstance(row, str) and len(row) == SIZE for row in rows)):
        owners = _owners_of("".join(rows))
        if owners is not None:
            return list(owners)
    if len(rows) != SIZE:
        raise BoardViewError(f"the board needs 12 row strings, got {len(rows)}")
    owners_list: list[int] = []
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, str) or len(row) != SIZE:
            raise BoardViewError(f"row {r} must be a string of 12 characters, got {row!r}")
        for c, ch in enumerate(row, start=1):
            if ch not in _OWNER_CHARS:
                raise BoardViewError(f"row {r}, column {c}: {ch!r} is not one of . 1 2 3 4 B")
            owners_list.append(_OWNER_CHARS[ch])
    return owners_list


@functools.lru_cache(maxsize=1024)
def _owners_of(board: str) -> tuple[int, ...] | None:
    """The owners of the 144 characters of a board's rows (None: a character that is
    not one of ``.1234B``, for :func:`_parse_rows` to name). Kept: a roll draws the
    board of the click before it again."""
    if not _OWNER_CHARS.keys() >= set(board):
        return None
    return tuple(_OWNER_CHARS[ch] for ch in board)


def _seat_name(seat: int, seats: tuple[str, ...], names: tuple[str, ...] = ()) -> str:
    if 1 <= seat <= len(names):
        return names[seat - 1]
    if 1 <= seat <= len(seats) and seats[seat - 1] == "computer":
        return f"computer (player {seat})"
    return f"player {seat}"


def _owner_words(owner: int, seats: tuple[str, ...], names: tuple[str, ...] = ()) -> str:
    if owner == 0:
        return "empty"
    if owner == BROWN:
        return "brown counter"
    name = _seat_name(owner, seats, names)
    return f"{'yours' if name == 'you' else name}, {SEAT_STYLES[owner].name}"


_GLOW_WORDS: Final = {
    "placed": "just placed",
    "square": "placed on a square roll",
    "captured": "just captured",
    "computer": "the computer's move",
    "win": "part of the winning line",
}


def board_view(
    rows: Iterable[str],
    *,
    dice: Iterable[int] | None = None,
    dice_seat: int | None = None,
    options: Iterable[tuple[int, int]] = (),
    highlight: bool = False,
    glow: Mapping[tuple[int, int], str] | None = None,
    seats: Iterable[str] = ("human", "human"),
    to_move: int | None = 1,
    phase: str = "roll",
    turn: int = 0,
    turn_text: str | None = None,
    message: str = "",
    tone: str = "info",
    message_ms: int | None = None,
    sound: str | None = None,
    nonce: str = "",
    muted: bool = False,
    interactive: bool = True,
    show_sums: bool = False,
    names: Iterable[str] | None = None,
    zoom: bool = False,
    brown_tiles: Iterable[tuple[int, int]] = (),
) -> BoardView:
    """Build the view of one moment of a game. Pure: same input, same view.

    rows: `state.board_rows()`. dice: (pink, pink, green, green) or None before the first
    roll; dice_seat: who rolled them (shown as "computer (player 2) rolled").
    options: the rolled tiles; they are marked ONLY when `highlight` is true (the tester
    must find the tile by its number unless a study says otherwise).
    glow: tile -> "placed" | "square" | "captured" | "computer" (see `glow_from_events`).
    seats: "human" / "computer" per seat, seat 1 first. interactive: pass False while
    the app is busy (e.g. showing the computer's move); the view is also non-interactive
    whenever the seat to move is a computer or the phase is "setup" / "over". The
    browser then ignores clicks and `render_board` drops any that arrive anyway.
    can_roll (derived): the roll button shows when the view is interactive and the
    phase is "roll". show_sums: print "pink 7, green 5" next to the dice (off by
    default: adding the dice is part of the mental-maths step).
    names: how the turn line, dice line and tile labels name each seat ("you", "the
    computer", "Blue"); by default "player N" / "computer (player N)".
    zoom: on a touch screen whose tiles are small, a tap opens a magnified view of the
    tapped tile's neighbourhood and the tap there is the click (see static/board.js).
    brown_tiles: tiles where a brown counter may go instead (an optional Vapooh): the
    board draws a "brown" button beside each; its click carries `brown: true`.
    """
    names_t = tuple(str(n) for n in (names or ()))
    owners = _parse_rows(rows)
    seats_t = tuple(str(s) for s in seats)
    if not 1 <= len(seats_t) <= 4 or any(s not in ("human", "computer") for s in seats_t):
        raise BoardViewError(f"seats must be 1-4 of 'human'/'computer', got {seats_t!r}")
    for o in sorted(set(owners)):
        if 1 <= o <= 4 and o > len(seats_t):
            raise BoardViewError(
                f"the board holds seat {o}'s counter but there are {len(seats_t)} seats"
            )
    if phase not in PHASES:
        raise BoardViewError(f"phase must be one of {PHASES}, got {phase!r}")
    if tone not in TONES:
        raise BoardViewError(f"tone must be one of {TONES}, got {tone!r}")
    if to_move is not None and not 1 <= to_move <= len(seats_t):
        raise BoardViewError(f"to_move must be a seat 1..{len(seats_t)}, got {to_move!r}")
    dice_t: tuple[int, int, int, int] | None = None
    if dice is not None:
        d = tuple(int(x) for x in dice)
        if len(d) != 4 or any(not 1 <= x <= 6 for x in d):
            raise BoardViewError(f"dice are four values 1..6 (pink, pink, green, green), got {d!r}")
        dice_t = (d[0], d[1], d[2], d[3])
    option_set = tuple(dict.fromkeys(_check_tile(o) for o in options))
    glow_map: dict[int, str] = {}
    for tile, kind in (glow or {}).items():
        if kind not in GLOW_KINDS:
            raise BoardViewError(f"glow kind must be one of {GLOW_KINDS}, got {kind!r}")
        glow_map[tile_index(*_check_tile(tile))] = kind

    # Most tiles are plain (no glow, not an option): taken from a table of the 6 looks
    # of each tile for these seats and names; the few others are made one by one.
    plain = _plain_tiles(seats_t, names_t)
    tiles = [plain[owner][i] for i, owner in enumerate(owners)]
    option_indexes = {(r - 1) * SIZE + (c - 1) for c, r in option_set}
    for i in option_indexes | glow_map.keys():
        is_option = i in option_indexes
        tiles[i] = _tile(i, owners[i], glow_map.get(i, ""), is_option, highlight and is_option,
                         seats_t, names_t)

    # Input is taken only from a human seat in a live game: while the computer moves
    # (or the app says it is busy) the board ignores clicks, and so does render_board.
    humans_turn = to_move is not None and seats_t[to_move - 1] == "human"
    interactive = interactive and humans_turn and phase in ("roll", "place")
    can_roll = interactive and phase == "roll"
    if turn_text is None:
        if phase == "over" or to_move is None:
            turn_text = "Game over"
        else:
            who = _seat_name(to_move, seats_t, names_t)
            turn_text = "Your turn" if who == "you" else f"{who[0].upper()}{who[1:]}'s turn"
    return BoardView(
        tiles=tuple(tiles),
        dice=dice_t,
        dice_seat=dice_seat,
        options=option_set,
        highlight=highlight,
        seats=seats_t,
        to_move=to_move,
        phase=phase,
        turn=turn,
        turn_text=turn_text,
        message=message,
        tone=tone,
        message_ms=message_ms,
        sound=sound,
        nonce=nonce,
        muted=muted,
        interactive=interactive,
        can_roll=can_roll,
        show_sums=show_sums,
        names=names_t,
        zoom=zoom,
        brown_tiles=tuple(dict.fromkeys(_check_tile(t) for t in brown_tiles)),
        token=_token(owners, dice_t, option_set, to_move, phase, turn, interactive, highlight),
    )


@functools.lru_cache(maxsize=16384)
def _tile(i: int, owner: int, g: str, is_option: bool, lit: bool, seats_t: tuple[str, ...],
          names_t: tuple[str, ...]) -> TileView:
    """Tile `i` as drawn. Pure, and its result is immutable: kept, because a board is
    144 of them on every rerun and most tiles look as they did on the last one."""
    c, r = i % SIZE + 1, i // SIZE + 1
    number = c * r
    words = [f"column {c}", f"row {r}", str(number), _owner_words(owner, seats_t, names_t)]
    if g:
        words.append(_GLOW_WORDS[g])
    if lit:
        words.append("a rolled option")
    return TileView(c, r, number, owner, is_square_number(number), g, is_option, lit,
                    ", ".join(words))


@functools.lru_cache(maxsize=64)
def _plain_tiles(seats_t: tuple[str, ...],
                 names_t: tuple[str, ...]) -> tuple[tuple[TileView, ...], ...]:
    """Every tile without glow or option, for each owner (0 empty .. 5 brown): the
    same objects :func:`_tile` makes."""
    return tuple(tuple(_tile(i, owner, "", False, False, seats_t, names_t)
                       for i in range(TILE_COUNT)) for owner in range(BROWN + 1))


def _token(owners: list[int], dice: tuple[int, int, int, int] | None,
           options: tuple[tuple[int, int], ...], to_move: int | None, phase: str, turn: int,
           interactive: bool, highlight: bool) -> str:
    # Only what decides whether a click still means the same thing: not the message,
    # sound or mute state, so a new message does not turn a fast second click stale.
    basis = json.dumps([owners, dice, options, to_move, phase, turn, interactive, highlight])
    return hashlib.blake2b(basis.encode(), digest_size=8).hexdigest()


def glow_from_events(
    events: Iterable[Any], *, computer: bool = False, square_roll: bool = False
) -> dict[tuple[int, int], str]:
    """Glow marks for the tiles an action touched, from engine events or their dicts.

    Each event needs `kind` and `tiles` (attributes or mapping keys), as in the engine's
    `Event` / `Event.to_dict()`. "place" and "brown" tiles glow as "computer" when the
    computer moved, "square" on a square roll, otherwise "placed"; "capture" and
    "surround_capture" tiles glow as "captured".

    >>> glow_from_events([{"kind": "place", "tiles": [[5, 8]]}], computer=True)
    {(5, 8): 'computer'}
    """
    marks: dict[tuple[int, int], str] = {}
    for ev in events:
        kind = ev.get("kind") if isinstance(ev, Mapping) else getattr(ev, "kind", None)
        tiles = ev.get("tiles", ()) if isinstance(ev, Mapping) else getattr(ev, "tiles", ())
        if kind in ("place", "brown"):
            new = "computer" if computer else ("square" if square_roll else "placed")
        elif kind in ("capture", "surround_capture"):
            new = "captured"
        else:
            continue
        for t in tiles:
            tile = _check_tile(tuple(t))
            old = marks.get(tile)
            if old is None or _GLOW_RANK[new] >= _GLOW_RANK[old]:
                marks[tile] = new
    return marks


def winning_tiles(
    rows: Iterable[str], seat: int, last: tuple[int, int] | None = None
) -> tuple[tuple[int, int], ...]:
    """The tiles of ``seat``'s winning pattern on the board: four in a row (across, down,
    either diagonal) or a 2×2 square; the one through ``last`` (the last placement) when
    there are several; () when there is none (a VAPOOSH! win, a draw).

    >>> rows = ["." * 12] * 12
    >>> rows = ["1111" + "." * 8] + rows[1:]
    >>> winning_tiles(rows, 1)
    ((1, 1), (2, 1), (3, 1), (4, 1))
    >>> winning_tiles(rows, 2)
    ()
    """
    return _winning_tiles(tuple(rows), seat, last)


@functools.lru_cache(maxsize=1024)
def _winning_tiles(rows: tuple[str, ...], seat: int,
                   last: tuple[int, int] | None) -> tuple[tuple[int, int], ...]:
    # Kept: a finished game's board is drawn again on every rerun until the next game.
    owners = _parse_rows(rows)
    mine = {(i % SIZE + 1, i // SIZE + 1) for i, o in enumerate(owners) if o == seat}
    found: list[tuple[tuple[int, int], ...]] = []
    shapes = (
        ((0, 0), (1, 0), (2, 0), (3, 0)),
        ((0, 0), (0, 1), (0, 2), (0, 3)),
        ((0, 0), (1, 1), (2, 2), (3, 3)),
        ((3, 0), (2, 1), (1, 2), (0, 3)),
        ((0, 0), (1, 0), (0, 1), (1, 1)),
    )
    for r in range(1, SIZE + 1):
        for c in range(1, SIZE + 1):
            for shape in shapes:
                tiles = tuple((c + dc, r + dr) for dc, dr in shape)
                if all(t in mine for t in tiles):
                    found.append(tiles)
    if not found:
        return ()
    through = [t for t in found if last in t]
    return (through or found)[0]
