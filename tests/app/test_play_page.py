"""The play page in AppTest: the game starts, the rules overlay pauses it, settings log.

(Clicks inside the board component are covered by the browser tests.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo
from tests.app.tester_support import open_as, playing_tester, stored_events


def _player_at_play(db: Engine, make_study: Callable[..., repo.Study], **settings: Any) -> str:
    return playing_tester(db, make_study(**settings))


def _dialogs(at: AppTest) -> list[str]:
    """Titles of the dialogs on screen (st.dialog blocks)."""
    titles: list[str] = []

    def walk(node: Any) -> None:
        if getattr(node, "type", None) == "dialog":
            titles.append(node.proto.dialog.title)
        children = getattr(node, "children", None)
        for child in (children.values() if isinstance(children, dict) else []):
            walk(child)

    walk(at._tree)
    return titles


def test_play_page_starts_a_logged_game(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _player_at_play(db, make_study)
    at = open_as(code)
    assert not at.exception
    kinds = [t for t, _ in stored_events(db, code)]
    assert kinds[:2] == ["page", "game_start"]
    game = repo.latest_unfinished_game(db, code)
    assert game is not None
    # A second visit (reload) resumes the same game instead of starting another.
    open_as(code)
    assert [t for t, _ in stored_events(db, code)].count("game_start") == 1


def test_rules_overlay_pauses_and_is_logged(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _player_at_play(db, make_study)
    at = open_as(code)
    at.button(key="rules_button").click().run()
    assert _dialogs(at) == ["How to play"]
    assert at.button(key="rules_button").disabled
    at.button(key="rules_close").click().run()
    assert _dialogs(at) == []
    events = stored_events(db, code)
    opened = [p for t, p in events if t == "rules_open"]
    closed = [p for t, p in events if t == "rules_close"]
    assert len(opened) == 1 and len(closed) == 1
    assert closed[0]["seconds"] >= 0


def test_speed_change_and_restart_are_logged(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    code = _player_at_play(db, make_study)
    at = open_as(code)
    first = repo.latest_unfinished_game(db, code)
    at.segmented_control(key="speed").set_value(3).run()
    settings = [p for t, p in stored_events(db, code) if t == "setting"]
    assert settings == [{"name": "speed", "value": 3}]
    at.button(key="restart").click().run()
    assert _dialogs(at) == ["Start a new game?"]  # restart asks first
    at.button(key="restart_yes").click().run()
    assert not at.exception
    ends = [p for t, p in stored_events(db, code) if t == "game_end"]
    assert len(ends) == 1 and ends[0]["reason"] == "restarted"
    second = repo.latest_unfinished_game(db, code)
    assert first is not None and second is not None and second.game_id != first.game_id
    tester = services.load_tester(db, code)
    assert tester is not None and services.games_finished(db, tester) == 0


def test_back_to_menu_pauses_and_offers_resume_new_game_and_stop(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    code = _player_at_play(db, make_study)
    at = open_as(code)
    first = repo.latest_unfinished_game(db, code)
    at.button(key="menu_button").click().run()
    assert _dialogs(at) == ["Menu"]
    assert at.button(key="rules_button").disabled  # paused: one dialog at a time
    at.button(key="menu_resume").click().run()
    assert _dialogs(at) == []
    assert repo.latest_unfinished_game(db, code).game_id == first.game_id  # type: ignore[union-attr]

    at.button(key="menu_button").click().run()
    at.button(key="menu_new_game").click().run()
    second = repo.latest_unfinished_game(db, code)
    assert first is not None and second is not None and second.game_id != first.game_id

    at.button(key="menu_button").click().run()
    at.button(key="menu_stop").click().run()
    assert not at.exception
    tester = services.load_tester(db, code)
    assert tester is not None and tester.participant.stage == "post_survey"
    assert services.games_finished(db, tester) == 0  # neither game was played out
    events = stored_events(db, code)
    assert [p["choice"] for t, p in events if t == "menu_close"] == ["resume", "new_game", "stop"]
    assert [p["reason"] for t, p in events if t == "game_end"] == ["restarted", "left"]
    assert repo.latest_unfinished_game(db, code) is None
