"""Vasco on the designer's Replay page (``PLUGIN.replay_module``): each position of a
stored game drawn read-only as the play screen's board, from the same view data
(:func:`playtest.games.vasco.view.board_view`) and the same geometry as
``static/vasco_board.js``: triangular tiles with the red (O) and blue (X) arcs and the
purple shared end, the tile just placed outlined, the forced tiles dashed in purple, and
at the end the winning loop or longest paths in yellow; the tile counter and the turn
or result above.

>>> from engine.vasco import VascoGame, Place
>>> s = VascoGame().new_initial_state()
>>> _ = s.apply(Place(0, 0, "ox*")); events = tuple(s.apply(Place(0, 1, "xo*")))
>>> svg = replay_svg(s, events)
>>> svg.count('class="vt'), 'data-placed="1"' in svg
(2, True)
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from sqlalchemy.engine import Engine

from playtest.games.vasco.view import SEAT_WORDS, board_view
from playtest.storage.repository import GameRecord

_S = 60.0  # a tile's side in SVG units, as in vasco_board.js
_H = _S * math.sqrt(3) / 2
_RED, _BLUE, _PURPLE = "#d62728", "#1f5fbf", "#7b3fa0"

Point = tuple[float, float]


def _is_up(r: int, c: int) -> bool:
    return (r + c) % 2 == 0


def _corners(r: int, c: int) -> list[Point]:
    """Up: apex, bottom-left, bottom-right; down: top-left, top-right, apex."""
    def p(x: float, y: float) -> Point:
        return (x * _S / 2, y * _H)
    if _is_up(r, c):
        return [p(c + 1, r), p(c, r + 1), p(c + 2, r + 1)]
    return [p(c, r), p(c + 2, r), p(c + 1, r + 1)]


def _edge_ends(r: int, c: int, edge: int) -> tuple[Point, Point]:
    """The two corners of edge ``edge`` (0 = left, 1 = right, 2 = flat)."""
    a, b, d = _corners(r, c)
    return ((a, b), (a, d), (b, d))[edge] if _is_up(r, c) else ((a, d), (b, d), (a, b))[edge]


def _mid(p: Point, q: Point) -> Point:
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def _arc(r: int, c: int, state: str, colour: str) -> str:
    """The arc of ``colour`` from its edge's middle to the ``*`` edge's middle."""
    p1, p2 = _edge_ends(r, c, state.index(colour))
    q1, q2 = _edge_ends(r, c, state.index("*"))
    shared = next(p for p in (p1, p2) if p in (q1, q2))
    a, b = _mid(p1, p2), _mid(q1, q2)
    cross = (a[0] - shared[0]) * (b[1] - shared[1]) - (a[1] - shared[1]) * (b[0] - shared[0])
    return (f"M {a[0]:.2f} {a[1]:.2f} A {_S / 2} {_S / 2} 0 0 {1 if cross > 0 else 0} "
            f"{b[0]:.2f} {b[1]:.2f}")


def replay_svg(state: Any, events: tuple[Any, ...] = ()) -> str:
    """The tiles of ``state`` as a static SVG, what ``events`` placed marked."""
    view = board_view(state, seats=("computer", "computer"), events=events)
    forced = {a["cell"] for a in view.autos}
    win = set(view.highlight)
    parts: list[str] = []
    xs: list[float] = []
    ys: list[float] = []
    for tile in view.tiles:
        r, c, st, cell = tile["r"], tile["c"], tile["state"], tile["cell"]
        corners = _corners(r, c)
        xs += [x for x, _ in corners]
        ys += [y for _, y in corners]
        fill, stroke, width, dash = "#f4ead2" if tile["face"] == "front" else "#eadfc3", \
            "#8c887c", 1.0, ""
        if cell in win:
            fill, stroke, width = "#fff3a8", "#1d1d1f", 3.0
        elif cell == view.placed:
            stroke, width = "#1d1d1f", 2.5
        elif cell in forced:
            stroke, width, dash = _PURPLE, 2.5, ' stroke-dasharray="5 3"'
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in corners)
        star = _mid(*_edge_ends(r, c, st.index("*")))
        label = escape(view.labels.get(cell, cell))
        parts.append(
            f'<g class="vt" data-cell="{escape(cell)}" data-state="{escape(st)}" '
            f'data-placed="{int(cell == view.placed)}"><title>{label}</title>'
            f'<polygon points="{points}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width}"{dash}/>'
            f'<path d="{_arc(r, c, st, "x")}" fill="none" stroke="{_BLUE}" stroke-width="5" '
            'stroke-dasharray="7 5" stroke-linecap="round"/>'
            f'<path d="{_arc(r, c, st, "o")}" fill="none" stroke="{_RED}" stroke-width="9" '
            'stroke-linecap="round"/>'
            f'<circle cx="{star[0]:.2f}" cy="{star[1]:.2f}" r="4" fill="{_PURPLE}" '
            'stroke="#fff" stroke-width="1.5"/></g>')
    pad = _S * 0.6
    x0, y0 = (min(xs), min(ys)) if xs else (-_S, -_H)
    x1, y1 = (max(xs), max(ys)) if xs else (2 * _S, 2 * _H)
    box = f"{x0 - pad:.1f} {y0 - pad:.1f} {x1 - x0 + 2 * pad:.1f} {y1 - y0 + 2 * pad:.1f}"
    now = view.result_text or f"{SEAT_WORDS.get(view.to_move, view.to_move)} to play"
    head = escape(f"{view.counter} · {now}")
    return (
        '<div class="replay-board" data-game="vasco" style="max-width:min(100%,560px)">'
        f'<div style="font-size:14px;margin-bottom:4px">{head}</div>'
        f'<svg viewBox="{box}" role="img" aria-label="Vasco board: triangular tiles" '
        'style="display:block;width:100%;height:auto;max-height:70vh;background:#fbf8f1;'
        'border:1px solid #ddd;border-radius:10px">' + "".join(parts) + "</svg></div>")


def replay_page(engine: Engine, game: GameRecord) -> None:
    """The Replay page's slider, board, caption and timeline for a Vasco game."""
    from playtest.replay_board import board_replay_page

    board_replay_page(engine, game, replay_svg)
