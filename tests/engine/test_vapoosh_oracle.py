"""The engine agrees, step by step, with a plain reference model of the rules.

``vapoosh_oracle.Oracle`` is written from vapoosh-rules.md with a dict board and
coordinates (no bitboards, no shared tables). Random games for every preset
and 1-4 seats must give the same legal moves, events, boards and turn order.
"""

from __future__ import annotations

import random

import pytest
from vapoosh_oracle import Oracle

from engine.vapoosh import Brown, Place, Rules, VapooshGame
from engine.vapoosh.actions import DICE

RULE_SETS = {
    "standard": "standard",
    "classic": "classic",
    "house": "house",
    "group": {"base": "standard", "surround": "group"},
    "any-suicide": {"base": "classic", "suicide": True, "own_suicide_rerolls": 1},
    "short": {"base": "house", "max_turns": 25, "quad_skips_next": False},
}


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_engine_matches_the_reference_model(rules: str, seats: int) -> None:
    game = VapooshGame(Rules.from_obj(RULE_SETS[rules]), seats)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        if state.phase == "setup":
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        start = {
            (c, r): state.owner(c, r)
            for c in range(1, 13)
            for r in range(1, 13)
            if state.owner(c, r)
        }
        oracle = Oracle(game.rules, seats, start)
        while not state.is_terminal():
            if state.phase == "roll":
                roll = rng.randrange(1296)
                got = [e.kind for e in state.apply_action(roll)]
                want = oracle.roll(DICE[roll])
            else:
                targets = state.targets()
                expected = sorted(
                    (
                        Place(c, r) if kind == "place" else Brown(c, r)
                        for kind, c, r in oracle.moves
                    ),
                    key=game.encode,
                )
                assert targets == expected, (seed, state.turns)
                move = targets[rng.randrange(len(targets))]
                got = [e.kind for e in state.apply(move)]
                kind = "place" if isinstance(move, Place) else "brown"
                want = oracle.place(kind, move.c, move.r)
            assert got == want, (seed, state.turns)
            assert state.board_rows() == oracle.board_rows(), (seed, state.turns)
            assert (state.phase, state.to_move) == (oracle.phase, oracle.to_move)
            assert state.skips == {s: k for s, k in oracle.skips.items() if k}
        assert state.winner == oracle.winner and state.turns == oracle.turns
