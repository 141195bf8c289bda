"""Dokusen on the designer's Replay page (``PLUGIN.replay_module``): each position of a
stored game drawn read-only as the play screen's grid, from the same view data
(:func:`playtest.games.dokusen.view.board_data`): every square in its owner's colour with
the owner's symbol (colour is never the only cue), black squares dark, the squares the
step placed or turned outlined in yellow, and each colour's count with the squares that
win the stage.

>>> from engine.dokusen import DokusenGame, Place
>>> s = DokusenGame("S4").new_initial_state()
>>> events = tuple(s.apply(Place(0, 2)))
>>> svg = replay_svg(s, events)
>>> svg.count('class="sq'), svg.count('data-changed="1"') > 0
(35, True)
"""

from __future__ import annotations

from html import escape
from typing import Any

from sqlalchemy.engine import Engine

from playtest.games.dokusen.view import board_data
from playtest.storage.repository import GameRecord

_BLACK = "#1f1f24"
_CELL = 10  # one square's side, in SVG units (a 1-unit gap between squares)


def replay_svg(state: Any, events: tuple[Any, ...] = ()) -> str:
    """The grid of ``state`` as a static SVG, the squares ``events`` changed outlined."""
    data = board_data(state, events=events)
    rows, cols = data["rows"], data["cols"]
    colours = {c["id"]: c for c in data["colours"]}
    changed = {tuple(step["at"]) for step in data["steps"]}
    changed |= {tuple(t) for step in data["steps"] for t in step.get("area", ())}
    parts = []
    for i, owner in enumerate(data["cells"]):
        if owner == -2:  # not a square of this stage's board
            continue
        r, c = divmod(i, cols)
        x, y = c * (_CELL + 1), r * (_CELL + 1)
        colour = colours.get(owner)
        fill = colour["hex"] if colour else _BLACK
        hit = (r, c) in changed
        stroke, width = ("#ffbf00", 1.2) if hit else ("#55555f", 0.5)
        name = colour["name"] if colour else data["labels"]["black"]
        parts.append(
            f'<g class="sq o{owner if colour else "black"}" data-cell="{r},{c}" '
            f'data-changed="{int(hit)}"><title>{escape(name)} ({r + 1}, {c + 1})</title>'
            f'<rect x="{x + 0.3}" y="{y + 0.3}" width="{_CELL - 0.6}" height="{_CELL - 0.6}" '
            f'rx="1.2" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>')
        if colour:
            parts.append(f'<text x="{x + _CELL / 2}" y="{y + _CELL / 2}" font-size="5" '
                         'text-anchor="middle" dominant-baseline="central" fill="#fff">'
                         f'{escape(colour["symbol"])}</text>')
        parts.append("</g>")
    legend = " · ".join(f'{escape(c["symbol"])} {escape(c["name"])} {c["count"]}'
                        for c in data["colours"])
    head = (f'{escape(data["stageName"])} · {data["labels"]["round"]} {data["round"]} '
            f'{data["labels"]["of"]} {data["maxRounds"]} · {legend} · '
            f'{data["labels"]["black"]} {data["black"]} · '
            f'{data["labels"]["win_with"]} {data["need"]} of {data["total"]}')
    width, height = cols * (_CELL + 1) - 1, rows * (_CELL + 1) - 1
    return (
        '<div class="replay-board" data-game="dokusen" '
        f'style="max-width:min(100%,{cols * 64}px)">'
        f'<div style="font-size:14px;margin-bottom:4px">{head}</div>'
        f'<svg viewBox="-0.5 -0.5 {width + 1} {height + 1}" role="img" '
        f'aria-label="{escape(data["labels"]["board"])}" '
        'style="display:block;width:100%;height:auto">' + "".join(parts) + "</svg></div>")


def replay_page(engine: Engine, game: GameRecord) -> None:
    """The Replay page's slider, board, caption and timeline for a Dokusen game."""
    from playtest.replay_board import board_replay_page

    board_replay_page(engine, game, replay_svg)
