"""Where the 24 points of the Bricks & Walls board are drawn (rules-other-games.md §1.2).

Only what the charts need: the point names in the engine's index order (8·layer + spot,
layer 0 the outer square, spot 0..7 clockwise from the top-left corner) and their
drawing position (x = column a..g, y = 7 − row). A test checks these against the
engine's board.

>>> len(POINTS), xy("a7"), xy("d1"), xy("c4")
(24, (0, 0), (3, 6), (2, 3))
"""

from __future__ import annotations

POINTS: tuple[str, ...] = (
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",  # layer 0, outer
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",  # layer 1, middle
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",  # layer 2, inner
)  # fmt: skip


def xy(point: str) -> tuple[int, int]:
    """Drawing position: x = column (a=0 … g=6), y = 7 − row (row 7 on top)."""
    return ord(point[0]) - ord("a"), 7 - int(point[1])


def drawn_lines() -> list[tuple[str, str]]:
    """The segments drawn between neighbouring points: each square's sides, and the four
    spokes joining the squares' mid-side points.

    >>> len(drawn_lines())
    32
    """
    segments: list[tuple[str, str]] = []
    for layer in range(3):
        ring = POINTS[8 * layer: 8 * layer + 8]
        segments += [(ring[spot], ring[(spot + 1) % 8]) for spot in range(8)]
    for spot in (1, 3, 5, 7):
        segments += [(POINTS[spot], POINTS[8 + spot]), (POINTS[8 + spot], POINTS[16 + spot])]
    return segments
