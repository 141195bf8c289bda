"""Vasco's play step in AppTest (playtest/games/vasco/play.py, chosen through the
registry's ``play_module``): a stored ``vasco`` game, the computer's greedy placements
stored before they are shown, and a reload that replays the record instead of starting
another game. (Clicks inside the board component are covered by the browser test.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from engine.core import GameRecord
from engine.players import make_player
from playtest import services
from playtest.games.registry import game_plugin
from playtest.games.vasco.play import computer_seed
from playtest.storage import repository as repo
from playtest.storage.models import EventRow
from tests.app.conftest import APP


def _at_play(db: Engine, make_study: Callable[..., repo.Study], seats: list[str]) -> str:
    study = make_study(game="vasco", seats=seats, rules="standard",
                       pre_survey=None, post_survey=None)
    code = services.consent(db, study, {"child": False}).participant_id
    repo.advance_stage(db, code, "consent", "pre_survey")
    repo.advance_stage(db, code, "pre_survey", "play")
    return code


def _events(db: Engine, code: str) -> list[tuple[str, dict[str, Any]]]:
    table = EventRow.__table__  # type: ignore[attr-defined]
    with db.connect() as conn:
        rows = conn.execute(select(table.c.type, table.c.props)
                            .where(table.c.participant_id == code)
                            .order_by(table.c.event_id)).all()
    return [(r.type, r.props) for r in rows]


def _open(code: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["p"] = code
    return at.run()


def test_the_registry_chooses_vascos_own_play_step() -> None:
    plugin = game_plugin("vasco")
    assert plugin.play_module == "playtest.games.vasco.play"
    first: Any = plugin.make_game(plugin.default_rules, 2).new_initial_state()
    assert first.legal_targets() == ["0,0"]


def test_a_vasco_game_is_stored_and_a_reload_resumes_it(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _at_play(db, make_study, ["human", "ai:easy"])
    at = _open(code)
    assert not at.exception, at.exception
    starts = [p for t, p in _events(db, code) if t == "game_start"]
    assert [p["game"] for p in starts] == ["vasco"]
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and record.game == "vasco" and not record.actions
    _open(code)  # a reload: the same game, not a second one
    assert [t for t, _ in _events(db, code)].count("game_start") == 1


def test_the_computer_moves_first_as_red_and_its_move_replays(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _at_play(db, make_study, ["ai:easy", "human"])
    at = _open(code)
    assert not at.exception, at.exception
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and len(record.actions) == 1
    # The stored move is the seat's level (easy) of Vasco's registered players, seeded by
    # the game's seed and move number.
    plugin = game_plugin("vasco")
    engine_game = plugin.make_game(record.rules, 2)
    first: Any = engine_game.new_initial_state()
    expected = make_player("easy", seed=computer_seed(int(record.seed or 0), 0),
                           game="vasco").decide(first)
    assert record.actions[0] == engine_game.action_to_json(expected.action)
    (ai_move,) = [p for t, p in _events(db, code) if t == "ai_move"]
    assert ai_move["seat"] == 1 and ai_move["action"] == record.actions[0]
    assert ai_move["why"] == expected.reason
    # The engine's events are logged for the analytics: the computer's place.
    (place,) = [p for t, p in _events(db, code) if t == "place"]
    assert place["seat"] == 1 and place["tiles"] == [[0, 0]]
    # A reload replays the record: the human (Blue) is to move, the computer waits.
    _open(code)
    again = repo.latest_unfinished_game(db, code)
    assert again is not None and list(again.actions) == list(record.actions)
    state = GameRecord(again.game, again.rules, 2, again.actions).replay()
    assert state.current_player() == 1
