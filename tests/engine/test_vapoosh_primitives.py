"""One definition of each rule: the fast playout and the state agree from many random
positions, and the mask and one-tile forms of the suicide rule agree."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from vapoosh_testkit import rule_counts

from engine.vapoosh import Rules, VapooshGame, VapooshState
from engine.vapoosh.board import NB4, TILES, bits
from engine.vapoosh.playout import random_playout
from engine.vapoosh.primitives import is_suicide, suicide_tiles, surrounded

RULE_SETS = {
    "standard": "standard",
    "classic": "classic",
    "house": {"base": "house", "preplaced": 0},
    "group": {"base": "standard", "surround": "group"},
    "any-suicide": {"base": "classic", "suicide": True, "own_suicide_rerolls": 2},
    "vapooh-forced": {"base": "standard", "vapooh": "brown_and_miss_next", "max_turns": 60},
}


def random_position(game: VapooshGame, rng: random.Random) -> VapooshState:
    """A crowded random board (counters of every seat, browns), a random mover and owed turns."""
    n = game.num_players
    fill = rng.uniform(0.2, 0.8)
    symbols = [str(s) for s in range(1, n + 1)] + ["B"]
    weights = [1.0] * n + [0.08]
    rows = [
        "".join(rng.choices(symbols, weights)[0] if rng.random() < fill else "." for _ in range(12))
        for _ in range(12)
    ]
    skips = {s: rng.choice((0, 0, 0, 1, 2)) for s in range(1, n + 1)}
    return game.state_from_position(rows, to_move=rng.randint(1, n), skips=skips)


def drive_from(state: VapooshState, rng: random.Random) -> tuple[VapooshState, Counter[str]]:
    """The state machine driven with the playout's draws (see engine.vapoosh.playout)."""
    counts: Counter[str] = Counter()
    while not state.is_terminal():
        if state.phase == "roll":
            action = int(rng.random() * 1296)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        for event in state.apply_action(action):
            counts[event.kind] += 1
    return state, counts


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_playout_and_state_agree_from_random_positions(rules: str, seats: int) -> None:
    game = VapooshGame(Rules.from_obj(RULE_SETS[rules]), seats)
    rng = random.Random(f"{rules}-{seats}")
    games = 0
    for _ in range(40):
        start = random_position(game, rng)
        seed = rng.randrange(1 << 30)
        fast = random_playout(game, random.Random(seed), start=start)
        state, counts = drive_from(start.clone(), random.Random(seed))
        assert fast == (state.winner, state.turns, rule_counts(counts)), (rules, seats, seed)
        games += 1
    assert games == 40


def test_playout_refuses_a_start_that_is_not_a_roll_of_this_game() -> None:
    game = VapooshGame("standard", 2)
    other = VapooshGame("classic", 2).new_initial_state()
    with pytest.raises(ValueError, match="phase 'roll'"):
        random_playout(game, random.Random(1), start=other)


def test_mask_and_tile_forms_of_the_suicide_rule_agree() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 4)
        owner = [rng.randrange(n + 1) if rng.random() < 0.7 else 0 for _ in range(TILES)]
        masks = [sum(1 << i for i in range(TILES) if owner[i] == s + 1) for s in range(n)]
        for m in masks:
            assert surrounded(m) == sum(1 << i for i in range(TILES) if m & NB4[i] == NB4[i])
        for seat in range(n):
            trapped = suicide_tiles(masks, seat)
            assert trapped == sum(1 << i for i in range(TILES) if is_suicide(masks, seat, i))
            for i in bits(trapped):
                assert owner[i] == 0
