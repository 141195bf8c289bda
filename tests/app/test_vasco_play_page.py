"""Vasco's play step in AppTest (the one board shell and game session, with the plug-in's
view and words): a stored ``vasco`` game, the computer's placements at the seat's level
stored before they are shown, and a reload that replays the record instead of starting
another game. (Clicks inside the board component are covered by the browser test.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Engine

from engine.core import GameRecord
from engine.players import make_player
from playtest.games.registry import game_plugin
from playtest.session.session import decision_seed
from playtest.storage import repository as repo
from tests.app.tester_support import open_as, playing_tester, stored_events


def _at_play(db: Engine, make_study: Callable[..., repo.Study], seats: list[str]) -> str:
    study = make_study(game="vasco", seats=seats, rules="standard",
                       pre_survey=None, post_survey=None)
    return playing_tester(db, study)


def test_the_registry_gives_vascos_board_view_and_words() -> None:
    plugin = game_plugin("vasco")
    assert plugin.view is not None and plugin.words is not None
    first: Any = plugin.make_game(plugin.default_rules, 2).new_initial_state()
    assert first.legal_targets() == ["0,0"]


def test_a_vasco_game_is_stored_and_a_reload_resumes_it(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _at_play(db, make_study, ["human", "ai:easy"])
    at = open_as(code, timeout=60)
    assert not at.exception, at.exception
    starts = [p for t, p in stored_events(db, code) if t == "game_start"]
    assert [p["game"] for p in starts] == ["vasco"]
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and record.game == "vasco" and not record.actions
    open_as(code, timeout=60)  # a reload: the same game, not a second one
    assert [t for t, _ in stored_events(db, code)].count("game_start") == 1


def test_the_computer_moves_first_as_red_and_its_move_replays(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _at_play(db, make_study, ["ai:easy", "human"])
    at = open_as(code, timeout=60)
    assert not at.exception, at.exception
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and len(record.actions) == 1
    # The stored move is the seat's level (easy) of Vasco's registered players, seeded by
    # the game's seed and move number.
    plugin = game_plugin("vasco")
    engine_game = plugin.make_game(record.rules, 2)
    first: Any = engine_game.new_initial_state()
    expected = make_player("easy", seed=decision_seed(int(record.seed or 0), 0),
                           game="vasco").decide(first)
    assert record.actions[0] == engine_game.action_to_json(expected.action)
    (ai_move,) = [p for t, p in stored_events(db, code) if t == "ai_move"]
    assert ai_move["seat"] == 1 and ai_move["action"] == record.actions[0]
    assert ai_move["reason"] == expected.reason
    # The engine's events are logged for the analytics: the computer's place.
    (place,) = [p for t, p in stored_events(db, code) if t == "place"]
    assert place["seat"] == 1 and place["tiles"] == [[0, 0]]
    # A reload replays the record: the human (Blue) is to move, the computer waits.
    open_as(code, timeout=60)
    again = repo.latest_unfinished_game(db, code)
    assert again is not None and list(again.actions) == list(record.actions)
    state = GameRecord(again.game, again.rules, 2, again.actions).replay()
    assert state.current_player() == 1
