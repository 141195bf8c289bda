"""The computer plays each seat at the study's level, in every game (issue 21: Bricks &
Walls used to play its greedy heuristic whatever the study said). In a real app session
(AppTest, a real SQLite file): the computer moves first, and its stored move is the one
the seat's level decides (:func:`engine.players.make_player`, seeded from the game's seed
and the move's number, so a resumed game is decided the same)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from engine.players import make_player
from playtest.games.registry import game_plugin, games
from playtest.session.session import decision_seed
from playtest.storage import repository as repo
from tests.app.tester_support import open_as, playing_tester, stored_events

#: Two-seat games and each of their levels (a game's computer-first study).
CASES = [(p.name, level) for p in games() if p.seats == (2, 2) for level in p.ai_levels()]


@pytest.mark.parametrize(("game", "level"), CASES)
def test_the_computer_moves_at_the_seats_level(
    db: Engine, make_study: Callable[..., repo.Study], game: str, level: str,
) -> None:
    study = make_study(game=game, seats=[f"ai:{level}", "human"], pre_survey=None,
                       post_survey=None)
    code = playing_tester(db, study)
    at = open_as(code, timeout=120)
    assert not at.exception, at.exception
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and record.actions
    plugin = game_plugin(game)
    engine_game = plugin.make_game(record.rules, 2)
    state: Any = engine_game.new_initial_state()
    decided = make_player(level, seed=decision_seed(int(record.seed or 0), 0),
                          game=game).decide(state)
    assert record.actions[0] == engine_game.action_to_json(decided.action)
    first = next(p for t, p in stored_events(db, code) if t == "ai_move")
    assert first["seat"] == 1 and first["reason"] == decided.reason


def test_the_levels_decide_differently_so_the_test_above_can_tell_them_apart() -> None:
    """On Bricks & Walls' first move the easy level and the greedy heuristic the page once
    played disagree for most seeds: the level test would fail on the old page."""
    import random

    from engine.morris.heuristics import greedy_action

    plugin = game_plugin("morris")
    differ = 0
    for seed in range(20):
        state: Any = plugin.make_game("standard", 2).new_initial_state()
        easy = make_player("easy", seed=decision_seed(seed, 0), game="morris").decide(state)
        greedy = greedy_action(state, random.Random(f"morris:{seed}:0"))
        differ += easy.action != greedy
    assert differ >= 10
