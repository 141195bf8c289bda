"""Properties of Vasco over random legal play (issue 13): matched tiles, no dead cell,
an exact pool, identical replays, games that end, and agreement with the oracle."""

from __future__ import annotations

import json
import random

import pytest
import vasco_oracle as oracle

from engine.core import GameRecord
from engine.vasco import STATES, VascoGame, VascoState, decode
from engine.vasco.board import dead_colour, legal_states
from engine.vasco.geometry import OPPOSITE, neighbours


def playout(seed: int, pool: int = 54) -> tuple[VascoState, list[VascoState]]:
    rng = random.Random(seed)
    s = VascoGame({"pool": pool}).new_initial_state()
    seen = [s.clone()]
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        seen.append(s.clone())
    return s, seen


@pytest.mark.parametrize("seed", range(6))
def test_random_play_keeps_every_invariant(seed: int) -> None:
    final, seen = playout(seed)
    pool = final.rules.pool
    for state in seen:
        tiles = state.tiles
        for cell, st in tiles.items():
            for e, n in enumerate(neighbours(cell)):
                if n in tiles:
                    assert tiles[n][OPPOSITE[e]] == st[e], (seed, cell, n)
        frontier = {n for cell in tiles for n in neighbours(cell) if n not in tiles}
        for cell in frontier:
            assert dead_colour(tiles, cell) is None, (seed, cell)
            assert len(legal_states(tiles, cell)) >= 2, (seed, cell)  # no forced cell left unfilled
        assert state.tiles_remaining == pool - len(tiles)
        assert oracle.connected(tiles)
    assert final.is_terminal() and final.outcome is not None
    assert len(seen) - 1 <= pool  # every move uses at least one tile


@pytest.mark.parametrize("seed", range(6))
def test_replaying_the_record_gives_the_same_game(seed: int) -> None:
    final, _ = playout(seed)
    record = GameRecord.from_json(json.loads(json.dumps(final.record().to_json())))
    again = record.replay()
    assert again == final and again.tiles == final.tiles
    assert VascoState.from_json(json.loads(json.dumps(final.to_json()))) == final
    assert playout(seed)[0] == final  # same seed, same game: the engine keeps no randomness


def test_events_account_for_every_tile() -> None:
    rng = random.Random(11)
    s = VascoGame().new_initial_state()
    while not s.is_terminal():
        before = len(s.tiles)
        events = s.apply_action(rng.choice(s.legal_actions()))
        placed = [e for e in events if e.kind in ("place", "auto")]
        assert len(s.tiles) - before == len(placed)
        for e in placed:
            assert s.tiles[e.tiles[0]] == e.data["tile"]
        assert [e.kind for e in events][0] == "place"


@pytest.mark.parametrize("seed", [21, 22])
def test_the_engine_agrees_with_the_oracle_on_every_candidate_move(seed: int) -> None:
    """Every candidate (cell, state) of every position of a short game: the same
    legality, forced tiles and verdict from the literal slow reading."""
    rng = random.Random(seed)
    s = VascoGame({"pool": 18}).new_initial_state()
    compared = 0
    while not s.is_terminal():
        board, left = s.tiles, s.tiles_remaining
        legal = {(decode(a).cell, decode(a).state): a for a in s.legal_actions()}
        window = {
            (r, c)
            for (r0, c0) in board
            for r in range(r0 - 2, r0 + 3)
            for c in range(c0 - 3, c0 + 4)
        } or {(0, 0)}
        for cell in window:
            for st in STATES:
                got = oracle.apply(board, left, cell, st)
                assert (got is not None) == ((cell, st) in legal), (seed, cell, st)
                if got is None:
                    continue
                child = s.clone()
                events = child.apply_action(legal[(cell, st)])
                assert [(e.tiles[0], e.data["tile"]) for e in events if e.kind == "auto"] == got[1]
                verdict = oracle.judge(got[0], left - 1 - len(got[1]))
                mine = child.outcome
                assert (verdict is None) == (mine is None)
                if verdict is not None and mine is not None:
                    assert verdict == ({1: "O", 2: "X", None: None}[mine.winner], mine.reason)
                compared += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert compared > 200
