"""Designer access and every designer page, in AppTest on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import auth, demo, services
from playtest.storage import repository as repo
from tests.app.conftest import APP

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")
PAGES = ["studies", "overview", "confusion", "questionnaires", "experiments", "family", "learning",
         "replay", "balance", "report"]
HOSTILE = "<script>alert(1)</script> [click me](http://evil.example) ‮ 🙂"


@pytest.fixture
def demo_study(db: Engine) -> repo.Study:
    study = demo.ensure_demo_study(db)
    demo.generate(db, 6, seed=2)
    # A tester who writes hostile free text.
    participant = services.consent(db, study, {"child": False})
    repo.save_responses(db, participant.participant_id, "vapoosh_post_short", "1.0.0", None,
                        "post", "open", {"open.confused": HOSTILE}, 2.0)
    return study


def _all_text(at: AppTest) -> str:
    parts = [e.value for e in at.markdown] + [e.value for e in at.text]
    parts += [e.value for e in at.title] + [e.value for e in at.error] + [e.value for e in at.info]
    return "\n".join(str(p) for p in parts)


def test_without_a_password_the_designer_is_told_how_to_set_one(db: Engine) -> None:
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert "playtest designer set-password" in _all_text(at)
    assert not at.text_input


def test_wrong_password_keeps_designer_pages_closed(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(auth.ENV_VAR, auth.hash_password("right-password"))
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.text_input(key="designer_password").input("wrong-password")
    at.button[0].click().run()
    assert "That password is not right." in _all_text(at)
    signed_in = "designer_signed_in" in at.session_state and at.session_state["designer_signed_in"]
    assert not signed_in
    at.text_input(key="designer_password").input("right-password")
    at.button[0].click().run()
    assert at.session_state["designer_signed_in"] is True
    assert "Signed in as the designer." in [s.value for s in at.success]


@pytest.mark.parametrize("page", PAGES)
def test_designer_pages_need_the_password(db: Engine, page: str) -> None:
    at = AppTest.from_file(PAGE_APP, default_timeout=30)
    at.query_params["page"] = page
    at.run()
    assert "Designer pages need the designer's password." in _all_text(at)
    assert not at.dataframe


@pytest.mark.parametrize("page", PAGES)
def test_every_designer_page_renders_the_demo_study(
    db: Engine, demo_study: repo.Study, page: str
) -> None:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = page
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception, at.exception
    # Hostile free text never reaches Markdown or HTML: only data frames and plain text.
    assert "<script>" not in "\n".join(str(m.value) for m in at.markdown)
    if page == "questionnaires":
        frames = [df.value for df in at.dataframe]
        # as written, but for the right-to-left override (it would turn the rest round)
        shown = HOSTILE.replace("\u202e", "")
        assert any(shown in frame.to_string() for frame in frames if "text" in frame)


def test_a_study_is_created_from_the_studies_page(db: Engine) -> None:
    at = AppTest.from_file(PAGE_APP, default_timeout=30)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    at.run()
    at.text_input(key="title-new").input("Wording test")
    at.text_area(key="exp-new").input(
        "- key: wording\n  target: message:extra_turn\n  variants: {A: default, B: formal}\n")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    assert not at.exception
    studies = [s for s in repo.list_studies(db) if s.title == "Wording test"]
    assert len(studies) == 1
    assert studies[0].experiment_records[0]["key"] == "wording"
    # A broken setting is refused with the field named, and nothing is stored.
    at.text_input(key="title-new").input("Broken")
    at.text_input(key="seats-new").input("human, ai:genius")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    assert "Not saved" in _all_text(at) and "seats" in _all_text(at)
    assert not [s for s in repo.list_studies(db) if s.title == "Broken"]


def test_balance_page_runs_the_engine_simulation(db: Engine, demo_study: repo.Study) -> None:
    at = AppTest.from_file(PAGE_APP, default_timeout=120)
    at.query_params["page"] = "balance"
    at.session_state["designer_signed_in"] = True
    at.run()
    at.text_input(key="bal_seats").input("easy,medium")
    at.number_input(key="bal_games").set_value(40)
    at.button(key="FormSubmitter:balance-Simulate").click().run()
    assert not at.exception
    table = "\n".join(t.value for t in at.text)
    assert "40" in table and "first" in table.lower()
