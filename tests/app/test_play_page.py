"""The play page in AppTest: the game starts, the rules overlay pauses it, settings log.

(Clicks inside the board component are covered by the browser tests.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo
from playtest.storage.models import EventRow
from tests.app.conftest import APP


def _player_at_play(db: Engine, make_study: Callable[..., repo.Study], **settings: Any) -> str:
    study = make_study(**settings)
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


def _open(code: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["p"] = code
    return at.run()


def test_play_page_starts_a_logged_game(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _player_at_play(db, make_study)
    at = _open(code)
    assert not at.exception
    kinds = [t for t, _ in _events(db, code)]
    assert kinds[:2] == ["page", "game_start"]
    game = repo.latest_unfinished_game(db, code)
    assert game is not None
    # A second visit (reload) resumes the same game instead of starting another.
    _open(code)
    assert [t for t, _ in _events(db, code)].count("game_start") == 1


def test_rules_overlay_pauses_and_is_logged(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    code = _player_at_play(db, make_study)
    at = _open(code)
    at.button(key="rules_button").click().run()
    assert _dialogs(at) == ["How to play"]
    assert at.button(key="rules_button").disabled
    at.button(key="rules_close").click().run()
    assert _dialogs(at) == []
    events = _events(db, code)
    opened = [p for t, p in events if t == "rules_open"]
    closed = [p for t, p in events if t == "rules_close"]
    assert len(opened) == 1 and len(closed) == 1
    assert closed[0]["seconds"] >= 0


def test_speed_change_and_restart_are_logged(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    code = _player_at_play(db, make_study)
    at = _open(code)
    first = repo.latest_unfinished_game(db, code)
    at.segmented_control(key="speed").set_value(3).run()
    settings = [p for t, p in _events(db, code) if t == "setting"]
    assert settings == [{"name": "speed", "value": 3}]
    at.button(key="restart").click().run()
    assert _dialogs(at) == ["Start a new game?"]  # restart asks first
    at.button(key="restart_yes").click().run()
    assert not at.exception
    ends = [p for t, p in _events(db, code) if t == "game_end"]
    assert len(ends) == 1 and ends[0]["reason"] == "restarted"
    second = repo.latest_unfinished_game(db, code)
    assert first is not None and second is not None and second.game_id != first.game_id
    tester = services.load_tester(db, code)
    assert tester is not None and services.games_finished(db, tester) == 0


def test_back_to_menu_pauses_and_offers_resume_new_game_and_stop(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    code = _player_at_play(db, make_study)
    at = _open(code)
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
    events = _events(db, code)
    assert [p["choice"] for t, p in events if t == "menu_close"] == ["resume", "new_game", "stop"]
    assert [p["reason"] for t, p in events if t == "game_end"] == ["restarted", "left"]
    assert repo.latest_unfinished_game(db, code) is None
