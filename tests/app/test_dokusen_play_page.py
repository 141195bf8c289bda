"""Dokusen's play step in AppTest (playtest/games/dokusen/play.py, chosen through the
registry's ``play_module``), and the platform taking a game's default seats from its
plug-in (Dokusen has one seat). A tester's placement stored by another tab is replayed
on reload, and the stage's computer colour answers it, stored before it is shown, with
the engine's events logged for the analytics. (Clicks inside the board component are
the browser's to test.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from engine.core import GameRecord
from engine.dokusen.ai import computer_action
from playtest import demo, services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo
from playtest.storage.models import EventRow
from playtest.study_config import StudyConfig
from tests.app.conftest import APP


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


def test_a_one_seat_game_takes_its_default_seats_from_its_plug_in(db: Engine) -> None:
    plugin = game_plugin("dokusen")
    assert plugin.default_seats == ("human",)
    assert StudyConfig(game="dokusen").seats == ["human"]
    assert StudyConfig().seats == list(game_plugin(None).default_seats)
    studies = {s.game: s for s in demo.ensure_game_demo_studies(db)}
    assert services.study_config(studies["dokusen"]).seats == ["human"]


def test_a_dokusen_stage_is_stored_replayed_and_answered_by_the_computer(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(game="dokusen", rules="S5", pre_survey=None, post_survey=None)
    code = services.consent(db, study, {"child": False}).participant_id
    repo.advance_stage(db, code, "consent", "pre_survey")
    repo.advance_stage(db, code, "pre_survey", "play")
    at = _open(code)
    assert not at.exception, at.exception
    starts = [p for t, p in _events(db, code) if t == "game_start"]
    assert [(p["game"], p["seats"], p["rules"]) for p in starts] == [
        ("dokusen", ["human"], "S5")]
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and record.game == "dokusen" and not record.actions
    # The tester places a square (stored as another tab would); a reload replays it and
    # the stage's active colour answers at once.
    plugin = game_plugin("dokusen")
    engine_game = plugin.make_game("S5", 1)
    state: Any = engine_game.new_initial_state()
    mine = state.legal_actions()[0]
    repo.append_game_action(db, record.game_id, 0, engine_game.action_to_json(mine))
    state.apply_action(mine)
    at = _open(code)
    assert not at.exception, at.exception
    again = repo.latest_unfinished_game(db, code) or repo.list_games(db, code)[0]
    expected = computer_action(state, random.Random(f"dokusen:{record.seed}:1"))
    assert list(again.actions[1]) == engine_game.action_to_json(expected)
    replayed = GameRecord(again.game, again.rules, 1, again.actions).replay()
    assert replayed.is_terminal() or replayed.current_player() == 0
    events = _events(db, code)
    assert [p["seat"] for t, p in events if t == "ai_move"][:1] == [2]
    grows = [p for t, p in events if t == "grow"]
    assert grows and {"before", "after", "round"} <= set(grows[0])
    assert [t for t, _ in events].count("game_start") == 1
