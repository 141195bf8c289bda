"""The dashboard's cached study data follows the data (and the database) it came from."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, services
from playtest.storage import repository as repo
from tests.app.test_designer_pages import PAGE_APP

NEW_TEXT = "a brand-new answer 7Q3"


def _questionnaire_text(at: AppTest) -> str:
    return "\n".join(df.value.to_string() for df in at.dataframe)


def test_new_answers_show_without_waiting_for_the_cache_to_expire(db: Engine) -> None:
    study = demo.ensure_demo_study(db)
    demo.generate(db, 4, seed=3)
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "questionnaires"
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception and NEW_TEXT not in _questionnaire_text(at)
    participant = services.consent(db, study, {"child": False})
    repo.save_responses(db, participant.participant_id, "vapoosh_post_short", "1.0.0", None,
                        "post", "open", {"open.confused": NEW_TEXT}, 2.0)
    at.run()
    assert not at.exception
    assert NEW_TEXT in _questionnaire_text(at)
