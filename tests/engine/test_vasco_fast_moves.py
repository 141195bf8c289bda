"""Vasco's fast legal-move generation gives exactly what the exhaustive one gave.

The state finds its legal moves with the cell keys of :class:`engine.vasco.board.Frontier`
(kept move by move: each empty cell's key says its legal states; a candidate's forced
cascade writes a copy of the keys) and whether a side can move with
:func:`engine.vasco.board.has_legal_move` (the group's edge cells first). The reference
is ``legal_moves_exhaustive`` of the test-only plain copy
(``tests/engine/plain/vasco_board.py``): its ``play`` with the plain ``legal_states`` on
every candidate cell and state, which is how the state found them before. They are compared, move for move (the board after it and every
forced tile in order), on a few hundred seeded positions: positions of games played at
random and by the greedy level, with small pools (moves refused for want of tiles), and
positions cut out of them (tiles taken off, so holes and narrow gaps are left that the
next move's cascade must fill: forced cascades, unfillable gaps, corner contacts).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from engine.core import IllegalActionError
from engine.players import make_player
from engine.vasco import STATES, Place, VascoGame, VascoState, decode, encode
from engine.vasco.board import (
    Frontier,
    blocked_cells,
    candidate_cells,
    cell_id,
    has_legal_move,
    is_connected,
    legal_moves,
    legal_states,
    play,
)
from engine.vasco.geometry import Cell, cell_name
from tests.engine.plain.vasco_board import legal_moves_exhaustive


def _played(seed: int) -> list[VascoState]:
    """Every position of one seeded game: random or greedy movers, pool 12 to 54."""
    rng = random.Random(seed)
    pool = rng.choice((12, 18, 30, 54))
    kinds = [rng.choice(("easy", "medium")) for _ in range(2)]
    movers = [make_player(kind, seed * 2 + i, game="vasco") for i, kind in enumerate(kinds)]
    s = VascoGame({"pool": pool}).new_initial_state()
    seen = [s.clone()]
    while not s.is_terminal():
        s.apply_action(movers[s.current_player()].decide(s).action)
        seen.append(s.clone())
    return seen


def _cut(state: VascoState, rng: random.Random) -> VascoState | None:
    """The position with one to three tiles taken off (kept only if still one group):
    the holes left are forced or unfillable cells the next move's cascade must see."""
    tiles = state.tiles
    if len(tiles) < 4:
        return None
    for _ in range(rng.randint(1, 3)):
        tiles.pop(rng.choice(sorted(tiles)))
    if not is_connected(tiles):
        return None
    left = max(0, state.tiles_remaining + rng.randint(-2, 3))
    return state.game.state_from_position(tiles, rng.choice((1, 2)), left)


def positions(games: int = 48, seed: int = 2026) -> list[VascoState]:
    rng = random.Random(seed)
    out: list[VascoState] = []
    for g in range(games):
        played = [s for s in _played(seed + g) if not s.is_terminal()]
        out.extend(played)
        for s in rng.sample(played, min(4, len(played))):
            cut = _cut(s, rng)
            if cut is not None:
                out.append(cut)
    return out


POSITIONS = positions()


def _context(s: VascoState) -> tuple[dict[Cell, str], int, tuple[Cell, ...], bool]:
    tiles = s.tiles
    return tiles, s.tiles_remaining, blocked_cells(tiles), is_connected(tiles)


def test_the_positions_cover_what_the_fast_path_shortcuts() -> None:
    """Hundreds of positions, with long forced cascades, pending forced cells and every
    refusal the cascade can give (not only the cheap ones the fast path skips)."""
    reasons: Counter[str] = Counter()
    longest = 0
    pending = 0
    for s in POSITIONS:
        tiles, left, blocked, connected = _context(s)
        pending += bool(blocked)
        for cell in candidate_cells(tiles):
            for st in STATES:
                try:
                    move = play(tiles, left, cell, st, blocked=blocked, connected=connected)
                except IllegalActionError as err:
                    reasons[err.reason] += 1
                    continue
                longest = max(longest, len(move.autos))
    assert len(POSITIONS) >= 300
    assert pending >= 20
    assert longest >= 6
    for reason in ("mismatch", "dead_cell", "not_enough_tiles", "unplayable", "not_connected"):
        assert reasons[reason] > 0, reason


def _moves(moves: Mapping[tuple[Cell, str], Any]) -> list[Any]:
    """Moves as plain values (the plain copy has its own Move and Auto classes)."""
    return [(key, move.board, [(a.cell, a.state, a.constrained) for a in move.autos])
            for key, move in moves.items()]


def test_fast_legal_moves_equal_the_exhaustive_ones() -> None:
    compared = 0
    for s in POSITIONS:
        tiles, left, blocked, connected = _context(s)
        reference = legal_moves_exhaustive(tiles, left, blocked=blocked, connected=connected)
        fast = legal_moves(tiles, left, blocked=blocked, connected=connected)
        # the same moves in the same order, each with the same board and forced tiles
        assert _moves(fast) == _moves(reference), s.to_text()
        assert has_legal_move(tiles, left, blocked=blocked, connected=connected) == bool(
            reference), s.to_text()
        compared += len(reference)
    assert compared > 10_000


def _fresh(s: VascoState) -> VascoState:
    """The position as a new state: nothing found yet (the positions are shared)."""
    return s.game.state_from_position(s.tiles, s.to_move, s.tiles_remaining)


def test_the_state_gives_the_exhaustive_moves_and_targets() -> None:
    """What the app and the players read, asked in the order a tester's clicks ask it
    (the cells first, each cell's states found only when it is clicked, then all moves)
    and in the players' order (all moves first): the click targets with nothing, a cell
    or a tile selected, the legal actions, and the result of applying each move."""
    for s in POSITIONS[::2]:
        tiles, left, blocked, connected = _context(s)
        reference = legal_moves_exhaustive(tiles, left, blocked=blocked, connected=connected)
        cells = sorted({cell for cell, _ in reference})
        by_state = {st: [cell_name(c) for c, held in sorted(reference) if held == st]
                    for st in STATES}
        clicks, players = _fresh(s), _fresh(s)
        assert players.legal_actions() == sorted(
            encode(Place(c[0], c[1], st)) for c, st in reference)
        for state in (clicks, players):
            assert state.legal_targets() == [cell_name(c) for c in cells]
            for cell in [*cells[:4], *candidate_cells(tiles)[-3:], (99, 99)]:
                assert state.legal_targets((cell_name(cell),)) == [
                    st for st in STATES if (cell, st) in reference]
            for st in STATES:
                assert state.legal_targets((st,)) == by_state[st]
        assert clicks.legal_actions() == players.legal_actions()
        for action in clicks.legal_actions()[:6]:
            child = _fresh(s)
            child.legal_targets()  # the cells' first states found, not every move
            child.apply_action(action)
            move = reference[(decode(action).cell, decode(action).state)]
            assert child.tiles == move.board
            assert [e.tiles[0] for e in child.last_events if e.kind == "auto"] == [
                a.cell for a in move.autos]


@pytest.mark.parametrize("chunk", range(3))
def test_the_kept_cell_keys_give_the_plain_legal_states(chunk: int) -> None:
    """The frontier a state keeps move by move (and one built afresh from the tiles) gives
    every empty cell near the tiles the legal states the plain rule reads off the board,
    and the candidate cells of the plain definition."""
    for s in POSITIONS[chunk::3]:
        tiles = s.tiles
        window = {(r + dr, c + dc) for r, c in tiles for dr in (-2, -1, 0, 1, 2)
                  for dc in (-3, -2, -1, 0, 1, 2, 3)}
        for front in (s._frontier(), Frontier(tiles)):
            assert sorted(front.cands) == [cell_id(c) for c in candidate_cells(tiles)]
            for cell in window - set(tiles):
                assert [STATES[i] for i in front.cell_states(cell_id(cell))] == list(
                    legal_states(tiles, cell)), (cell, s.to_text())
