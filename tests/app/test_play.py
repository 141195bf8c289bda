"""A game as the play page drives it: real engine, real SQLite file, real event logger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from engine.vapoosh import Rules, VapooshGame, action_from_json
from playtest import services
from playtest.games.vapoosh.controller import PlayController, StaleGameError, TurnError
from playtest.games.vapoosh.session import open_game
from playtest.replay import replay_steps
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from playtest.storage.models import EventRow


def _tester(db: Engine, make_study: Callable[..., repo.Study], **settings: Any
            ) -> tuple[services.Tester, EventLogger, str]:
    study = make_study(**settings)
    participant = services.consent(db, study, {"child": False})
    tester = services.load_tester(db, participant.participant_id)
    assert tester is not None
    return tester, EventLogger(db), repo.start_session(db, tester.code)


def _events(db: Engine, game_id: str | None = None) -> list[dict[str, Any]]:
    table = EventRow.__table__  # type: ignore[attr-defined]
    query = select(table.c.type, table.c.props, table.c.seq, table.c.client_event_id)
    if game_id:
        query = query.where(table.c.game_id == game_id)
    with db.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(query.order_by(table.c.event_id))]


def _wrong_tile(ctrl: PlayController) -> tuple[int, int]:
    legal = set(ctrl.legal_tiles())
    return next((c, r) for c in range(12, 0, -1) for r in range(12, 0, -1)
                if (c, r) not in legal and all(abs(c - a) > 1 or abs(r - b) > 1 for a, b in legal))


def test_roll_and_clicks_are_logged_with_their_class(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study, seats=["human", "ai:easy"])
    ctrl = open_game(db, logger, tester, session, seed=3)
    while ctrl.state.phase != "place":
        ctrl.roll(client_event_id=f"roll-{ctrl.roll_count}")
        if ctrl.computer_to_act:
            ctrl.play_computers()
    wrong = _wrong_tile(ctrl)
    outcome = ctrl.click(*wrong, client_ms=1234, client_event_id="click-1")
    assert not outcome.accepted and outcome.wrong_kind is not None
    # The same click sent twice (a retried websocket message) is stored once.
    ctrl.click(*wrong, client_ms=1234, client_event_id="click-1")
    good = ctrl.legal_tiles()[0]
    assert ctrl.click(*good, client_ms=2000, client_event_id="click-2").accepted
    events = _events(db, ctrl.game_id)
    kinds = [e["type"] for e in events]
    assert kinds[0] == "game_start"
    assert "roll" in kinds and "place" in kinds
    clicks = [e for e in events if e["type"] == "click"]
    assert len(clicks) == 2
    first, second = clicks
    assert first["props"]["ok"] is False and first["props"]["ms"] == 1234
    assert first["props"]["wrong_kind"] in ("near_miss", "arithmetic", "same_product", "rule")
    assert first["props"]["clicked"] == wrong[0] * wrong[1]
    assert second["props"]["ok"] is True and "wrong_kind" not in second["props"]
    roll = next(e for e in events if e["type"] == "roll")
    assert len(roll["props"]["dice"]) == 4 and roll["props"]["options"]


def test_input_out_of_turn_is_refused_and_stores_nothing(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study)
    ctrl = open_game(db, logger, tester, session)
    before = len(_events(db))
    with pytest.raises(TurnError) as err:
        ctrl.click(5, 5)
    assert err.value.key == "roll_first"
    assert len(_events(db)) == before


def test_a_game_resumes_from_its_stored_record(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study, rules="house")
    # Seeded dice: unseeded, a game sometimes ended within these moves (e.g. VAPOOSH!),
    # and a finished game is rightly not resumed.
    ctrl = open_game(db, logger, tester, session, seed=5)
    for _ in range(6):
        if ctrl.state.phase == "roll":
            ctrl.roll()
        elif ctrl.human_to_act:
            tiles = ctrl.legal_tiles()
            ctrl.click(*tiles[0], brown=ctrl.brown_choice() == "forced")
        if ctrl.computer_to_act:
            ctrl.play_computers()
    assert not ctrl.is_over and ctrl.actions
    # A reload / server restart: a new controller from the database alone.
    again = open_game(db, logger, tester, repo.start_session(db, tester.code))
    assert again.game_id == ctrl.game_id
    assert again.state.to_json() == ctrl.state.to_json()


def test_a_second_tab_cannot_apply_the_same_move_twice(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study, seats=["human", "human"])
    tab_a = open_game(db, logger, tester, session, seed=5)
    tab_b = open_game(db, logger, tester, repo.start_session(db, tester.code))
    tab_a.roll()
    with pytest.raises(StaleGameError):
        tab_b.roll()
    record = repo.load_game(db, tab_a.game_id)
    assert record is not None and len(record.actions) == len(tab_a.actions)
    # A different move at the same point (the other tab is behind) is refused too.
    tab_c = open_game(db, logger, tester, repo.start_session(db, tester.code))
    assert tab_a.state.phase == tab_c.state.phase == "place"
    tab_a.click(*tab_a.legal_tiles()[0])
    with pytest.raises(StaleGameError):
        tab_c.click(*tab_c.legal_tiles()[-1])
    record = repo.load_game(db, tab_a.game_id)
    assert record is not None and list(record.actions) == tab_a.actions


def test_a_whole_game_against_easy_ends_logged_and_replays(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study, seats=["human", "ai:easy"])
    ctrl = open_game(db, logger, tester, session, seed=11)
    for _ in range(2000):
        if ctrl.is_over:
            break
        if ctrl.state.phase == "roll":
            ctrl.roll()
        else:
            ctrl.click(*ctrl.legal_tiles()[0], brown=ctrl.brown_choice() == "forced")
        ctrl.play_computers()
    assert ctrl.is_over
    with pytest.raises(TurnError) as err:
        ctrl.roll()
    assert err.value.key == "game_over"
    end = [e for e in _events(db, ctrl.game_id) if e["type"] == "game_end"]
    assert len(end) == 1 and end[0]["props"]["winner"] == ctrl.state.winner
    record = repo.load_game(db, ctrl.game_id)
    assert record is not None and record.finished
    assert services.games_finished(db, tester) == 1
    # The stored record and the record in game_end both replay to the final position.
    for actions in (record.actions, end[0]["props"]["record"]):
        state = VapooshGame(Rules.from_obj(record.rules), players=2).new_initial_state()
        for action in actions:
            state.apply(action_from_json(action))
        assert state.board_rows() == ctrl.state.board_rows()
    steps = replay_steps(db, record)
    assert len(steps) == len(record.actions)
    assert steps[-1].rows == ctrl.state.board_rows()
    reasons = [e["props"]["reason"] for e in _events(db, ctrl.game_id) if e["type"] == "ai_move"]
    assert reasons and all(reasons)
    shown = {row["what"] for step in steps for row in step.timeline}
    assert any(f"computer seat 2: {reasons[0]}" in what for what in shown)


def test_study_fingerprint_changes_with_new_data(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study)
    study_id = tester.study.study_id
    before = repo.study_fingerprint(db, study_id)
    assert before == repo.study_fingerprint(db, study_id)
    logger.log(session, tester.code, "page", {"page": "play"}, client_event_id=None)
    after_event = repo.study_fingerprint(db, study_id)
    assert after_event != before
    services.consent(db, tester.study, {"child": False})
    assert repo.study_fingerprint(db, study_id) != after_event


def test_the_boards_rows_are_computed_once_per_position_and_follow_every_action(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, logger, session = _tester(db, make_study, seats=["human", "ai:easy"])
    ctrl = open_game(db, logger, tester, session, seed=11)
    seen_positions = 0
    for _ in range(2000):
        rows = ctrl.board_rows()
        assert rows == ctrl.state.board_rows()  # the engine's answer for this position
        rows[0] = "X" * len(rows[0])  # a caller's edit does not reach the cache
        assert ctrl.board_rows() == ctrl.state.board_rows()
        seen_positions += 1
        if ctrl.is_over:
            break
        if ctrl.state.phase == "roll":
            ctrl.roll()
        else:
            ctrl.click(*ctrl.legal_tiles()[0], brown=ctrl.brown_choice() == "forced")
        ctrl.play_computers()
    assert ctrl.is_over and seen_positions > 5
