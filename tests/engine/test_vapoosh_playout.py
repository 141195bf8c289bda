"""The fast playout plays exactly the games the full state plays."""

from __future__ import annotations

import random

import pytest
from vapoosh_testkit import drive_random, rule_counts

from engine.vapoosh import Rules, VapooshGame
from engine.vapoosh.playout import RULE_EVENTS, random_playout

RULE_SETS = {
    "standard": "standard",
    "classic": "classic",
    "house": "house",
    "group": {"base": "standard", "surround": "group"},
    "any-suicide": {"base": "classic", "suicide": True, "own_suicide_rerolls": 2},
    "short": {"base": "standard", "max_turns": 15},
}


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_playout_matches_the_state_machine(rules: str, seats: int) -> None:
    game = VapooshGame(Rules.from_obj(RULE_SETS[rules]), seats)
    for seed in range(12):
        fast = random_playout(game, random.Random(seed))
        state, counts = drive_random(game, random.Random(seed))
        assert fast == (state.winner, state.turns, rule_counts(counts)), seed


def test_playout_counts_every_rule_over_many_games() -> None:
    game = VapooshGame("house", 2)
    rng = random.Random(2024)
    total = dict.fromkeys(RULE_EVENTS, 0)
    for _ in range(400):
        winner, turns, counts = random_playout(game, rng)
        assert winner in (1, 2, None) and 1 <= turns <= 400
        for k, v in counts.items():
            total[k] += v
    fired = {k for k, v in total.items() if v}
    assert fired >= {"capture", "surround_capture", "brown", "extra_turn", "blocked_own",
                     "quad", "skip", "vapoosh"}  # fmt: skip
