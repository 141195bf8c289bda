"""Vasco's random and greedy players: legal moves, the greedy player's loop sense."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.vasco import Place, VascoGame, VascoState
from engine.vasco.computer import GreedyPlayer, RandomPlayer
from engine.vasco.evaluation import evaluate, features

CASES = {
    c["id"]: c
    for c in json.loads(
        (Path(__file__).parent / "scenarios" / "vasco" / "section4.json").read_text("utf-8")
    )
}


def start_of(case: dict[str, Any]) -> VascoState:
    i = case["initial"]
    tiles = {(r, c): st for r, c, st in i["tiles"]}
    return VascoGame().state_from_position(
        tiles, 1 if i["toMove"] == "O" else 2, i["tilesRemaining"]
    )


def test_greedy_closes_its_own_loop() -> None:
    s = start_of(CASES["V14"])  # O can close an O loop
    child = s.clone()
    child.apply_action(GreedyPlayer(seed=3).choose(s).action)
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
        assert GreedyPlayer(seed).choose(s).action not in losing


@pytest.mark.parametrize("maker", [RandomPlayer, GreedyPlayer])
def test_players_play_whole_legal_games(maker: type[RandomPlayer] | type[GreedyPlayer]) -> None:
    s = VascoGame({"pool": 14}).new_initial_state()
    players = (maker(1), maker(2))
    while not s.is_terminal():
        choice = players[s.current_player()].choose(s)
        assert choice.action in s.legal_actions() and choice.reason
        s.apply_action(choice.action)
    assert s.outcome is not None


def test_evaluation_is_zero_sum_and_exact_at_the_end() -> None:
    s = start_of(CASES["V14"])
    assert evaluate(s, 0) == pytest.approx(-evaluate(s, 1))
    assert -1.0 < evaluate(s, 0) < 1.0
    c = s.clone()
    c.apply_action(GreedyPlayer(1).choose(s).action)
    assert evaluate(c, 0) == 1.0 and evaluate(c, 1) == -1.0


def test_longer_paths_count_against_their_owner_late_in_the_game() -> None:
    s = VascoGame({"pool": 3}).new_initial_state()
    s.apply(Place(0, 0, "ox*"))
    s.apply(Place(0, 1, "xo*"))  # X's path is 2 tiles, O's 1, one tile left
    f = features(s)
    assert f.longest == (1, 2) and f.pool_used == pytest.approx(0.667, abs=1e-3)
    assert evaluate(s, 0) > 0 > evaluate(s, 1)
