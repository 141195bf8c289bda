"""Dokusen's computer levels (rules-other-games.md §3.6): random, greedy, lookahead.

- ``random``: uniform over the legal squares, drawn with the *caller's* generator (the
  engine keeps none);
- ``greedy``: for every legal square in row-major order, put the mover's tile there and
  grow once (placements still to come this round are ignored); the score is the mover's
  squares minus the largest other colour's; the first best square wins (deterministic;
  it re-takes the user's fresh tile when that scores best, D13);
- ``lookahead``: greedy over 2 plies: after each candidate (tile + growth) the user
  replies greedily (tile + growth), and the candidate is scored on the board after that
  reply. On boards of more than :data:`LOOKAHEAD_LIMIT` squares it plays greedy.

Growth after one tile changes only that tile's square and its neighbours relative to
growing the board without it, so a candidate costs a handful of cell updates, not a
whole generation.

>>> from engine.dokusen.state import DokusenGame, Place
>>> s = DokusenGame("S5").new_initial_state()
>>> _ = s.apply(Place(0, 4))            # blue next to orange's corner
>>> d = choose(s, "greedy")             # orange to place
>>> d.action == greedy_action(s), s.game.decode(d.action)
(True, Place(r=0, c=4))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import CHANCE, TERMINAL, EngineError, sample_chance
from engine.dokusen.board import VOID, Grid, grow, grown_owner
from engine.dokusen.stage import AI_LEVELS
from engine.dokusen.state import DokusenState, colour_name

__all__ = [
    "AIError",
    "Decision",
    "LOOKAHEAD_LIMIT",
    "choose",
    "computer_action",
    "greedy_action",
    "lookahead_action",
    "random_action",
]

#: Lookahead plays greedy on boards with more squares than this.
LOOKAHEAD_LIMIT = 100


class AIError(EngineError):
    """A computer level asked for something it cannot do (unknown level, no placement due)."""


@dataclass(frozen=True)
class Decision:
    """A computer colour's placement and why, in one line for the designer's replay."""

    action: int
    reason: str


def _margin(tally: Sequence[int], me: int) -> int:
    return tally[me] - max((*tally[:me], *tally[me + 1:]), default=0)


def _tally(cells: Sequence[int], colours: int) -> list[int]:
    out = [0] * colours
    for o in cells:
        if o >= 0:
            out[o] += 1
    return out


def _placements(grid: Grid, cells: Sequence[int], me: int) -> list[int]:
    return [i for i, o in enumerate(cells) if o != VOID and o != me]


def _after_tile(
    grid: Grid, cells: list[int], grown: Sequence[int], i: int, me: int
) -> dict[int, int]:
    """The squares whose grown owner differs once ``me`` has a tile on ``i`` (``cells``
    is restored before returning): ``{square: owner}``."""
    was = cells[i]
    cells[i] = me
    changed = {}
    for j in (i, *grid.neighbours[i]):
        o = grown_owner(grid, cells, j)  # looked up in the growth table it learns
        if o != grown[j]:
            changed[j] = o
    cells[i] = was
    return changed


def _best(grid: Grid, cells: Sequence[int], me: int, colours: int) -> tuple[int, int]:
    """Greedy for ``me`` on ``cells``: (first best square, its margin)."""
    work = list(cells)
    grown = grow(grid, work)
    base = _tally(grown, colours)
    best_i, best = -1, -(10**9)
    for i in _placements(grid, work, me):
        tally = base[:]
        for j, o in _after_tile(grid, work, grown, i, me).items():
            if grown[j] >= 0:
                tally[grown[j]] -= 1
            if o >= 0:
                tally[o] += 1
        score = _margin(tally, me)
        if score > best:
            best_i, best = i, score
    return best_i, best


def greedy_action(state: DokusenState, mover: int | None = None) -> int:
    """The greedy square for ``mover`` (default: the colour to place), as an action id."""
    me = _mover(state, mover)
    i, _ = _best(state.game.grid, state.cells, me, state.game.num_players)
    return i


def lookahead_action(state: DokusenState, mover: int | None = None) -> int:
    """Greedy over two plies (the user replies greedily); greedy on large boards."""
    me = _mover(state, mover)
    grid = state.game.grid
    if grid.total > LOOKAHEAD_LIMIT:
        return greedy_action(state, me)
    colours = state.game.num_players
    work = list(state.cells)
    grown = grow(grid, work)
    reply_by = 0 if me != 0 else (state.stage.active_ids or (0,))[0]
    best_i, best = -1, -(10**9)
    for i in _placements(grid, work, me):
        after = list(grown)
        for j, o in _after_tile(grid, work, grown, i, me).items():
            after[j] = o
        if reply_by == me:
            score = _margin(_tally(after, colours), me)
        else:
            u, _ = _best(grid, after, reply_by, colours)
            if u < 0:
                score = _margin(_tally(after, colours), me)
            else:
                placed = after[:]
                placed[u] = reply_by
                score = _margin(_tally(grow(grid, placed), colours), me)
        if score > best:
            best_i, best = i, score
    return best_i


def random_action(state: DokusenState, rng: random.Random) -> int:
    """A uniform legal square, drawn with ``rng`` (one ``rng.randrange`` call)."""
    legal = state.legal_actions()
    _mover(state, None)
    return legal[rng.randrange(len(legal))]


def _mover(state: DokusenState, mover: int | None) -> int:
    cur = state.current_player()
    if mover is not None:
        return mover
    if cur in (CHANCE, TERMINAL):
        raise AIError(f"no placement is due (phase {state.phase!r})")
    return cur


def choose(state: DokusenState, level: str, rng: random.Random | None = None) -> Decision:
    """The placement of the colour to move at ``level``; ``rng`` is needed for random."""
    if level not in AI_LEVELS:
        raise AIError(f"unknown level {level!r} (known: {', '.join(AI_LEVELS)})")
    me = _mover(state, None)
    if level == "random":
        if rng is None:
            raise AIError("the random level needs the caller's random generator")
        action = random_action(state, rng)
    elif level == "greedy":
        action = greedy_action(state)
    else:
        action = lookahead_action(state)
    r, c = state.game.grid.coord(action)
    was = state.cells[action]
    took = "a black square" if was < 0 else f"{colour_name(was)}'s square"
    return Decision(action, f"{colour_name(me).capitalize()} ({level}) takes {took} at ({r},{c})")


def computer_action(state: DokusenState, rng: random.Random, user_level: str | None = None) -> int:
    """What a driver applies when the user does not act: a meteor's impact at a chance
    node (drawn with ``rng``), an active colour's placement at its stage level, or, with
    ``user_level``, the user's placement by that level (for simulated testers)."""
    cur = state.current_player()
    if cur == CHANCE:
        return sample_chance(state, rng)
    if cur == TERMINAL:
        raise AIError("the stage is over")
    if cur == 0:
        if user_level is None:
            raise AIError("it is the user's turn")
        return choose(state, user_level, rng).action
    entry = state.stage.player(cur)
    level = entry.ai if entry is not None and entry.ai is not None else "greedy"
    return choose(state, level, rng).action
