"""A tester's new session (another app process after a crash or a deploy, a reload)
shows what they had, read from the database: the last message on their board, their
sound and speed settings (issue 12: nothing that matters only in one process's memory).

Each ``AppTest`` run below is a fresh session with empty session state, as on a process
that never served this tester.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Engine

from playtest import services
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from tests.app.test_play_page import _player_at_play
from tests.app.test_play_ux import PLAIN_FIRST_ROLL, _board, _seeded_game
from tests.app.tester_support import open_as, stored_events


def test_a_new_session_shows_the_message_the_board_last_showed(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    # The computer moves first: the first session's board tells what it did.
    code = _player_at_play(db, make_study, seats=["ai:easy", "human"])
    # Seeded: an unseeded first roll can be an extra go or a brown counter, whose later
    # messages made this test fail now and then.
    _seeded_game(db, code, PLAIN_FIRST_ROLL)
    first = _board(open_as(code))
    assert first["message"].startswith("The computer rolled")
    messages_before = [p for t, p in stored_events(db, code) if t == "message"]

    again = _board(open_as(code))
    assert again["message"] == first["message"]
    assert again["tone"] == first["tone"]
    assert again["sound"] is None  # shown again, not played again
    assert again["owners"] == first["owners"]
    # Shown again, not logged again as a new message.
    assert [p for t, p in stored_events(db, code) if t == "message"] == messages_before


def test_a_new_game_does_not_show_the_last_games_message(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    code = _player_at_play(db, make_study, seats=["ai:easy", "human"])
    first = open_as(code)
    assert not first.exception, first.exception
    game = repo.latest_unfinished_game(db, code)
    assert game is not None, [e.value for e in (*first.error, *first.warning, *first.markdown)][:8]
    repo.finish_game(db, game.game_id, None, "restarted", 0)  # another tab restarted it
    board = _board(open_as(code))  # a new game: the computer's first move, its own message
    events = stored_events(db, code)
    starts = [i for i, (t, _) in enumerate(events) if t == "game_start"]
    assert events[starts[-1]][1]["game_id"] != game.game_id
    # The board shows a message the new game logged (its first roll is unseeded: a plain
    # roll, an extra go or a brown counter), never the finished game's last message.
    new_game_texts = [p["text"] for t, p in events[starts[-1]:] if t == "message"]
    assert new_game_texts and board["message"] == new_game_texts[-1]
    assert board["message"].startswith("The computer")


def test_sound_and_speed_come_back_in_a_new_session(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    code = _player_at_play(db, make_study)
    at = open_as(code)
    assert _board(at)["muted"] is False
    at.segmented_control(key="speed").set_value(3).run()
    # What the board's mute button stores (playtest.games.vapoosh.play._on_mute).
    tester = services.load_tester(db, code)
    assert tester is not None
    EventLogger(db).log(repo.start_session(db, code), code, "setting",
                        {"name": "mute", "value": True}, client_event_id=None)

    again = open_as(code)
    assert _board(again)["muted"] is True
    assert again.segmented_control(key="speed").value == 3
    # Restoring is not a change: no new setting events.
    settings = [p for t, p in stored_events(db, code) if t == "setting"]
    assert settings == [{"name": "speed", "value": 3}, {"name": "mute", "value": True}]
