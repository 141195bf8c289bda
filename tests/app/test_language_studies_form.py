"""The Studies page offers every available language for a study's testers; a study
created in German stores it (and an English one stores what it stored before)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def studies_page() -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    return at.run()


def test_a_study_created_in_german_stores_its_language(db: Engine) -> None:
    at = studies_page()
    assert not at.exception, at.exception
    choice = at.selectbox(key="lang-new")
    assert choice.options == ["English", "Deutsch"] and choice.value == "en"
    at.text_input(key="title-new").input("Auf Deutsch")
    choice.set_value("de")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    assert not at.exception, at.exception
    (study,) = [s for s in repo.list_studies(db) if s.title == "Auf Deutsch"]
    assert study.config["language"] == "de"
    assert services.study_config(study).language == "de"

    at = studies_page()
    at.text_input(key="title-new").input("In English")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    (english,) = [s for s in repo.list_studies(db) if s.title == "In English"]
    assert "language" not in english.config
