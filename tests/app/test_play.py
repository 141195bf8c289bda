"""A game as the play page drives it, through the one game session: real engine, real
SQLite file, real event logger."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from engine.vapoosh import Rules, VapooshGame, action_from_json
from playtest import services
from playtest.games.vapoosh.session import _rows, legal_tiles
from playtest.replay import replay_steps
from playtest.session import GameSession, Next
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from playtest.storage.models import EventRow
from tests.app.session_support import one_move, open_play


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


def _wrong_tile(session: GameSession) -> tuple[int, int]:
    legal = set(legal_tiles(session.play.state))
    return next((c, r) for c in range(12, 0, -1) for r in range(12, 0, -1)
                if (c, r) not in legal and all(abs(c - a) > 1 or abs(r - b) > 1 for a, b in legal))


def test_roll_and_clicks_are_logged_with_their_class(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, _logger, session_id = _tester(db, make_study, seats=["human", "ai:easy"])
    session = open_play(db, tester, seed=3, session_id=session_id)
    rolls = 0
    while session.play.state.phase != "place":
        session.draw(nonce=f"roll-{rolls}")
        rolls += 1
    wrong = _wrong_tile(session)
    outcome = session.click(f"{wrong[0]},{wrong[1]}", ms=1234, nonce="click-1")
    assert outcome is not None and not outcome.ok and outcome.fields["wrong_kind"] is not None
    # The same click sent twice (a retried websocket message) is stored once.
    session.click(f"{wrong[0]},{wrong[1]}", ms=1234, nonce="click-1")
    good = legal_tiles(session.play.state)[0]
    assert session.click(f"{good[0]},{good[1]}", ms=2000, nonce="click-2").ok  # type: ignore[union-attr]
    events = _events(db, session.play.game_id)
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
    tester, _logger, session_id = _tester(db, make_study)
    session = open_play(db, tester, session_id=session_id)
    before = len(_events(db))
    assert session.next() is Next.TESTER_DRAW  # roll first
    assert session.click("5,5") is None
    assert len(_events(db)) == before


def test_a_game_resumes_from_its_stored_record(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, _logger, session_id = _tester(db, make_study, rules="house")
    # Seeded dice: unseeded, a game sometimes ended within these moves (e.g. VAPOOSH!),
    # and a finished game is rightly not resumed.
    session = open_play(db, tester, seed=5, session_id=session_id)
    for _ in range(6):
        one_move(session)
    assert not session.play.over and session.play.actions
    # A reload / server restart: a new session from the database alone.
    again = open_play(db, tester, new=False)
    assert again.play.game_id == session.play.game_id
    assert again.play.state.to_json() == session.play.state.to_json()
    assert again.play.memo.get("last_roll") == session.play.memo.get("last_roll")


def test_a_second_tab_cannot_apply_the_same_move_twice(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, _logger, session_id = _tester(db, make_study, seats=["human", "human"])
    tab_a = open_play(db, tester, seed=5, session_id=session_id)
    tab_b = open_play(db, tester, new=False)
    assert tab_a.draw()
    assert not tab_b.draw() and tab_b.stale  # another tab rolled first: reload
    record = repo.load_game(db, tab_a.play.game_id)
    assert record is not None and len(record.actions) == len(tab_a.play.actions)
    # A different move at the same point (the other tab is behind) is refused too.
    tab_c = open_play(db, tester, new=False)
    assert tab_a.play.state.phase == tab_c.play.state.phase == "place"
    first = legal_tiles(tab_a.play.state)[0]
    tab_a.click(f"{first[0]},{first[1]}")
    last = legal_tiles(tab_c.play.state)[-1]
    tab_c.click(f"{last[0]},{last[1]}", nonce="late")
    assert tab_c.stale
    record = repo.load_game(db, tab_a.play.game_id)
    assert record is not None and list(record.actions) == tab_a.play.actions
    late = [e for e in _events(db) if e["client_event_id"] == "late"]
    assert len(late) == 1 and late[0]["props"]["stale"] is True  # never a right answer


def test_a_whole_game_against_easy_ends_logged_and_replays(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    tester, _logger, session_id = _tester(db, make_study, seats=["human", "ai:easy"])
    session = open_play(db, tester, seed=11, session_id=session_id)
    for _ in range(2000):
        if session.play.over:
            break
        one_move(session)
    play = session.play
    assert play.over
    assert session.next() is Next.OVER and not session.draw()  # nothing after the end
    end = [e for e in _events(db, play.game_id) if e["type"] == "game_end"]
    assert len(end) == 1 and end[0]["props"]["winner"] == play.state.winner
    record = repo.load_game(db, play.game_id)
    assert record is not None and record.finished
    assert services.games_finished(db, tester) == 1
    # The stored record and the record in game_end both replay to the final position.
    for actions in (record.actions, end[0]["props"]["record"]):
        state = VapooshGame(Rules.from_obj(record.rules), players=2).new_initial_state()
        for action in actions:
            state.apply(action_from_json(action))
        assert state.board_rows() == play.state.board_rows()
    steps = replay_steps(db, record)
    assert len(steps) == len(record.actions)
    assert steps[-1].rows == play.state.board_rows()
    reasons = [e["props"]["reason"] for e in _events(db, play.game_id) if e["type"] == "ai_move"]
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
    tester, _logger, session_id = _tester(db, make_study, seats=["human", "ai:easy"])
    session = open_play(db, tester, seed=11, session_id=session_id)
    seen_positions = 0
    for _ in range(2000):
        rows = _rows(session.play)
        assert rows == session.play.state.board_rows()  # the engine's answer for this position
        rows[0] = "X" * len(rows[0])  # a caller's edit does not reach the cache
        assert _rows(session.play) == session.play.state.board_rows()
        seen_positions += 1
        if session.play.over:
            break
        one_move(session)
    assert session.play.over and seen_positions > 5
