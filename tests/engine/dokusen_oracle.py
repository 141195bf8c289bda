"""A second, literal reading of Dokusen's rules (rules-other-games.md §3.2–3.5), for tests.

Written independently of ``engine.dokusen`` (coordinates in a dict, no precomputed
neighbour tables, no incremental tricks) so that the engine can be checked against it on
random games.
"""

from __future__ import annotations

from collections import Counter


def parse(rows: list[str]) -> dict[tuple[int, int], str]:
    """Squares only: ``{(r, c): "." or a digit}``; void cells are simply absent."""
    return {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}


def render(board: dict[tuple[int, int], str], like: list[str]) -> list[str]:
    return ["".join(board.get((r, c), "#") for c in range(len(like[0]))) for r in range(len(like))]


def grow(board: dict[tuple[int, int], str]) -> dict[tuple[int, int], str]:
    """One generation from the board as it was before growth."""
    new = {}
    for (r, c), owner in board.items():
        colours = Counter(
            board[n]
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if n in board and board[n] != "."
        )
        ranked = colours.most_common()
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            new[(r, c)] = ranked[0][0]
        else:
            new[(r, c)] = owner
    return new


def meteor(board: dict[tuple[int, int], str], at: tuple[int, int], radius: int) -> None:
    for r, c in board:
        if abs(r - at[0]) + abs(c - at[1]) <= radius:
            board[(r, c)] = "."


def user_wins(board: dict[tuple[int, int], str]) -> bool:
    return 2 * sum(v == "0" for v in board.values()) > len(board)
