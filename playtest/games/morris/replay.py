"""Bricks & Walls on the designer's Replay page (``PLUGIN.replay_module``): each position
of a stored game drawn read-only as the play screen's board, from the same view data
(:func:`playtest.games.morris.view.board_data`): the three squares and their connectors,
the 24 points, White's and Black's bricks, the last move's points ringed in orange and
a new wall's bricks in green, with each side's bricks to place and on the board.

>>> from engine.morris import MorrisGame, Place
>>> s = MorrisGame().new_initial_state()
>>> _ = s.apply(Place("a7")); _ = s.apply(Place("d6"))
>>> svg = replay_svg(s)
>>> svg.count('class="pt '), svg.count('data-owner="W"'), svg.count('data-owner="B"')
(24, 1, 1)
"""

from __future__ import annotations

from html import escape
from typing import Any

from sqlalchemy.engine import Engine

from playtest.games.morris.view import Sides, board_data
from playtest.storage.repository import GameRecord

_FILL = {"W": "#fafafa", "B": "#151515"}
_STROKE = {"W": "#222", "B": "#8a8a8a"}
_INNER = {"W": "#e4e4e4", "B": "#3a3a3a"}


def replay_svg(state: Any, events: tuple[Any, ...] = ()) -> str:
    """The board of ``state`` as a static SVG (with a line of counts above it)."""
    data = board_data(state, sides=Sides(("computer", "computer")), sound=False)
    pos = {p["id"]: (p["x"], p["y"]) for p in data["points"]}
    last, walls = set(data["lastPoints"]), set(data["walls"])
    parts = [
        f'<line x1="{pos[a][0]}" y1="{pos[a][1]}" x2="{pos[b][0]}" y2="{pos[b][1]}" '
        'stroke="#444" stroke-width="0.06" stroke-linecap="round"/>'
        for a, b in data["edges"]]
    for point, (x, y) in pos.items():
        owner = data["cells"].get(point)
        body = [f'<g class="pt {escape(point)}" data-point="{escape(point)}" '
                f'data-owner="{owner or ""}" transform="translate({x} {y})">']
        if owner in _FILL:
            ring = ("#009e73" if point in walls else "#e69f00" if point in last
                    else _STROKE[owner])
            width = 0.1 if point in walls or point in last else 0.06
            body.append(f'<circle r="0.36" fill="{_FILL[owner]}" stroke="{ring}" '
                        f'stroke-width="{width}"/>'
                        f'<circle r="0.16" fill="{_INNER[owner]}"/>')
        else:
            body.append('<circle r="0.13" fill="#444"/>')
            if point in last:  # a brick taken from here
                body.append('<circle r="0.3" fill="none" stroke="#e69f00" '
                            'stroke-width="0.06" stroke-dasharray="0.1 0.08"/>')
        body.append(f"<title>{escape(point)}</title></g>")
        parts.append("".join(body))
    counts = " · ".join(
        f"{escape(c['name'])}: {c['reserve']} to place, {c['board']} on the board"
        for c in data["counts"].values())
    label = escape(data["labels"]["board"])
    return (
        '<div class="replay-board" data-game="morris" style="max-width:min(100%,460px)">'
        f'<div style="font-size:14px;margin-bottom:4px">{counts}</div>'
        f'<svg viewBox="-0.6 -0.6 7.2 7.2" role="img" aria-label="{label}" '
        'style="display:block;width:100%;height:auto;background:#fff;'
        'border:2px solid #888;border-radius:12px">'
        + "".join(parts) + "</svg></div>")


def replay_page(engine: Engine, game: GameRecord) -> None:
    """The Replay page's slider, board, caption and timeline for a Bricks & Walls game."""
    from playtest.replay_board import board_replay_page

    board_replay_page(engine, game, replay_svg)
