"""Vasco's computer levels (engine.vasco.players on the generic players): legal moves,
the greedy level's loop sense, the search level's look at the reply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.players import GreedyPlayer, RandomPlayer, SearchPlayer, levels, make_player
from engine.vasco import Place, VascoGame, VascoState
from engine.vasco import players as vasco_players
from engine.vasco.evaluation import evaluate, features

CASES = {
    c["id"]: c
    for c in json.loads(
        (Path(__file__).parent / "scenarios" / "vasco" / "section4.json").read_text("utf-8")
    )
}


def start_of(case: dict[str, Any]) -> VascoState:
    i = case["initial"]  # rules-other-games.md section 4.2: pool, [[r, c], state], toMove
    tiles = {(r, c): st for (r, c), st in i["tiles"]}
    return VascoGame({"pool": i["pool"]}).state_from_position(tiles, 1 if i["toMove"] == "O" else 2)


def test_greedy_closes_its_own_loop() -> None:
    s = start_of(CASES["V14"])  # O can close an O loop
    child = s.clone()
    child.apply_action(make_player("medium", seed=3, game="vasco").decide(s).action)
    assert child.winner == 1 and child.outcome is not None and child.outcome.reason == "loop"


def test_greedy_never_closes_the_opponents_loop_when_it_can_avoid_it() -> None:
    s = start_of(CASES["V13"])  # one of O's moves closes X's loop
    losing = []
    for a in s.legal_actions():
        c = s.clone()
        c.apply_action(a)
        if c.winner == 2:
            losing.append(a)
    assert losing and len(losing) < len(s.legal_actions())
    for seed in range(3):
        assert make_player("medium", seed, game="vasco").decide(s).action not in losing


def test_levels_are_registered_for_a_generic_lookup() -> None:
    assert levels("vasco") == ("easy", "medium", "hard")
    assert type(make_player("easy", 1, game="vasco")) is RandomPlayer
    assert type(make_player("medium", 1, game="vasco")) is GreedyPlayer
    hard = make_player("hard", 1, game="vasco")
    assert isinstance(hard, SearchPlayer) and hard.budget == vasco_players.HARD_BUDGET


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_whole_legal_games(level: str) -> None:
    s = VascoGame({"pool": 14}).new_initial_state()
    players = (make_player(level, 1, game="vasco"), make_player(level, 2, game="vasco"))
    while not s.is_terminal():
        decision = players[s.current_player()].choose(s)
        assert isinstance(decision.action, Place) and decision.reason
        assert decision.action.cell in s.legal_cells()
        s.apply(decision.action)
    assert s.outcome is not None


def test_the_same_seed_gives_the_same_game() -> None:
    def game(seed: int) -> list[int]:
        s = VascoGame({"pool": 20}).new_initial_state()
        ps = (make_player("medium", seed, game="vasco"), make_player("easy", seed, game="vasco"))
        while not s.is_terminal():
            s.apply_action(ps[s.current_player()].decide(s).action)
        return s.history

    assert game(4) == game(4)


#: An opening of a seeded random game (seed 104), X to move, 50 tiles left: Medium's pick
#: lets O close a loop with the reply; 58 of the 60 moves do not.
OPENING = {(-1, 1): "*xo", (0, 0): "ox*", (0, 1): "x*o", (1, 0): "xo*"}


def _loses_within_a_reply(s: VascoState, action: int) -> bool:
    """The move loses at once, or the opponent has a reply that wins."""
    c = s.clone()
    c.apply_action(action)
    if c.is_terminal():
        return c.returns()[s.current_player()] < 0
    them = c.current_player()
    for reply in c.legal_actions():
        d = c.clone()
        d.apply_action(reply)
        if d.is_terminal() and d.returns()[them] > 0:
            return True
    return False


def test_search_sees_the_reply_that_wins_for_the_opponent() -> None:
    """Hard looks one reply ahead: Medium's move here hands O a winning reply, Hard's
    does not."""
    s = VascoGame().state_from_position(OPENING, 2, 50)
    medium = make_player("medium", 1, game="vasco").decide(s).action
    assert _loses_within_a_reply(s, medium)
    for seed in (1, 2):
        hard = make_player("hard", seed, game="vasco").decide(s)
        assert not _loses_within_a_reply(s, hard.action)
        assert "looked 2 steps ahead" in hard.reason


def test_evaluation_is_zero_sum_and_exact_at_the_end() -> None:
    s = start_of(CASES["V14"])
    assert evaluate(s, 0) == pytest.approx(-evaluate(s, 1))
    assert -1.0 < evaluate(s, 0) < 1.0
    c = s.clone()
    c.apply_action(make_player("medium", 1, game="vasco").decide(s).action)
    assert evaluate(c, 0) == 1.0 and evaluate(c, 1) == -1.0


def test_longer_paths_count_against_their_owner_late_in_the_game() -> None:
    s = VascoGame({"pool": 3}).new_initial_state()
    s.apply(Place(0, 0, "ox*"))
    s.apply(Place(0, 1, "xo*"))  # X's path is 2 tiles, O's 1, one tile left
    f = features(s)
    assert f.longest == (1, 2) and f.pool_used == pytest.approx(0.667, abs=1e-3)
    assert evaluate(s, 0) > 0 > evaluate(s, 1)
