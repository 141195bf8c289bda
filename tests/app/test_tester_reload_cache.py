"""What a tester's page keeps between runs must never hide a change in the database.

Every run of a tester's page reuses the tester it loaded last time when their row and
their study's row are unchanged (``services.load_tester(..., previous)``), and the play
page counts finished games again only when that count can have changed. These tests
change the database behind a running session (as the designer, or another tab, does)
and check that the very next run shows the change.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo
from tests.app.conftest import WORDING
from tests.app.tester_support import open_as, playing_tester


def _captions(at: AppTest) -> str:
    return "\n".join(str(c.value) for c in at.caption)


def test_unchanged_rows_give_back_the_same_tester(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(experiments=[WORDING])
    code = playing_tester(db, study)
    first = services.load_tester(db, code)
    assert first is not None and first.effective.variants["wording"] in ("A", "B")
    assert services.load_tester(db, code, first) is first


def test_a_changed_study_or_stage_loads_the_tester_afresh(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(experiments=[WORDING])
    code = playing_tester(db, study)
    first = services.load_tester(db, code)
    assert first is not None
    repo.update_study(db, study.study_id, open=False)
    closed = services.load_tester(db, code, first)
    assert closed is not None and closed is not first and closed.study.open is False
    repo.update_study(db, study.study_id, config={**study.config, "games_per_tester": 3})
    edited = services.load_tester(db, code, closed)
    assert edited is not None and edited.config.games_per_tester == 3
    assert edited.effective.variants == first.effective.variants  # assignments kept
    repo.advance_stage(db, code, "play", "post_survey")
    moved = services.load_tester(db, code, edited)
    assert moved is not None and moved.participant.stage == "post_survey"
    # Another tester's code never gets this one back.
    other = playing_tester(db, study)
    assert services.load_tester(db, other, moved) is not moved
    assert services.load_tester(db, "AAAAAAAAAAAAAAAAAAAAAA", moved) is None


def test_the_next_run_shows_a_study_the_designer_renamed(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study()
    code = playing_tester(db, study)
    at = open_as(code)
    assert not at.exception
    assert "Game 1 of 1 · Test study" in _captions(at)
    repo.update_study(db, study.study_id, title="Renamed study")
    at.run()
    assert "Game 1 of 1 · Renamed study" in _captions(at)


def test_a_game_finished_in_another_tab_is_counted_at_the_next_run(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(games_per_tester=3)
    code = playing_tester(db, study)
    at = open_as(code)
    assert "Game 1 of 3 ·" in _captions(at)
    at.run()
    assert "Game 1 of 3 ·" in _captions(at)  # nothing changed: the same count
    game = repo.latest_unfinished_game(db, code)
    assert game is not None
    repo.finish_game(db, game.game_id, 1, "row", 5)  # the other tab won this game
    at.run()
    assert not at.exception
    assert "Game 2 of 3 ·" in _captions(at)
