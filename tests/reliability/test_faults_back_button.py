"""The Back button after consent, on the same connection (issue 11 item 3, issue 10 item 8).

Open ``/?study=X``, agree, press Back twice (the URL is the study link again), agree
again: a second participant was made who played the first tester's game, and its events
were stored on the first tester's game. Now the browser is welcomed back to its own
place, and a new tester ("Not you?") starts clean.
"""

from __future__ import annotations

from faults_support import APP, EVENTS, app_db, make_study
from sqlalchemy import Engine, select
from streamlit.testing.v1 import AppTest

from playtest.storage import repository as repo

__all__ = ["app_db"]


def _agree(at: AppTest) -> str:
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    assert not at.exception, at.exception
    code = at.query_params["p"]
    return code[0] if isinstance(code, list) else code


def _back_to_study_link(at: AppTest, study_id: str) -> AppTest:
    # Back twice in a browser: the same session, the URL is the study link again.
    at.query_params.clear()
    at.query_params["study"] = study_id
    return at.run()


def _texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in [*at.title, *at.markdown, *at.text])


def _game_participants(engine: Engine, game_id: str) -> set[str]:
    with engine.connect() as conn:
        rows = conn.execute(select(EVENTS.c.participant_id)
                            .where(EVENTS.c.game_id == game_id)).all()
    return {r[0] for r in rows}


def test_back_then_agree_again_never_plays_or_logs_on_the_first_testers_game(
    app_db: Engine,
) -> None:
    study = make_study(app_db, audience="adults", pre_survey=None)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study.study_id
    at.run()
    first = _agree(at)
    first_game = at.session_state["play"].game_id
    at.button(key="rules_button").click().run()  # an event on the first game
    at = _back_to_study_link(at, study.study_id)
    if any(b.key == "welcome_back_new" for b in at.button):
        at.button(key="welcome_back_new").click().run()
    second = _agree(at)
    assert second != first
    ctrl = at.session_state["play"]
    assert ctrl.participant_id == second and ctrl.game_id != first_game
    at.button(key="rules_button").click().run()
    assert not at.exception
    # Every event of the first game is the first tester's; the second has its own game.
    assert _game_participants(app_db, first_game) == {first}
    assert _game_participants(app_db, ctrl.game_id) == {second}
    assert len(repo.list_participants(app_db, study.study_id)) == 2


def test_opening_the_study_link_again_goes_back_to_my_own_place(app_db: Engine) -> None:
    study = make_study(app_db, audience="adults", pre_survey=None)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study.study_id
    at.run()
    first = _agree(at)
    game = at.session_state["play"].game_id
    at = _back_to_study_link(at, study.study_id)
    assert "Welcome back" in _texts(at)
    assert not at.checkbox  # no consent form: agreeing again is not offered
    at.button(key="welcome_back_resume").click().run()
    assert at.query_params["p"] in (first, [first])
    assert at.session_state["play"].game_id == game
    assert len(repo.list_participants(app_db, study.study_id)) == 1


def test_not_you_starts_a_new_tester(app_db: Engine) -> None:
    study = make_study(app_db, audience="adults", pre_survey=None)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study.study_id
    at.run()
    first = _agree(at)
    at = _back_to_study_link(at, study.study_id)
    at.button(key="welcome_back_new").click().run()
    assert at.checkbox(key="consent_agree") is not None
    second = _agree(at)
    assert second != first
    assert {p.participant_id for p in repo.list_participants(app_db, study.study_id)} == {
        first, second}
