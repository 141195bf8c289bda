"""The Studies page sets a study's recruitment panel and quota: stored as typed, kept
when the study is saved again, refused in the page's words, the link for the panel
shown, completers counted against the quota."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.panels import PanelConfig, QuotaConfig
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")


def _studies_page() -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    return at.run()


def _create(at: AppTest) -> AppTest:
    return at.button(key="FormSubmitter:study-new-Create study").click().run()


def test_a_new_study_on_prolific_with_a_quota(db: Engine) -> None:
    at = _studies_page()
    at.text_input(key="title-new").input("Online wording test")
    at.selectbox(key="panel-new").set_value("prolific")
    at.text_input(key="pcode-new").input(" C0MPL3TE ")
    at.text_input(key="pscreen-new").input("N0C0NSENT")
    at.text_input(key="purl-new").input("https://ignored.example/for-another-panel")
    at.number_input(key="quota-new").set_value(40)
    at.number_input(key="hold-new").set_value(90)
    at = _create(at)
    assert not at.exception and not at.error, [e.value for e in at.error]
    (study,) = repo.list_studies(db)
    config = services.study_config(study)
    assert config.panel == PanelConfig(kind="prolific", completion_code="C0MPL3TE",
                                       screenout_code="N0C0NSENT", id_required=True)
    assert config.quota == QuotaConfig(completes=40, hold_minutes=90)
    # Its expander shows the link to paste into Prolific and the completers of 40.
    again = _studies_page()
    codes = [str(c.value) for c in again.code]
    assert (f"/?study={study.study_id}&PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
            "&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}") in "\n".join(codes)
    completed = [m for m in again.metric if m.label == "Completed"]
    assert completed[0].value == "0 of 40" and "40" in (completed[0].help or "")


def test_saving_a_study_again_keeps_its_panel_and_quota(db: Engine) -> None:
    config = services.study_config(services.create_study(
        db, title="Remote", study_id="remote", config=StudyConfig(
            panel=PanelConfig(kind="generic", completion_url="https://p.example/ok?id={pid}",
                              id_required=False),
            quota=QuotaConfig(completes=12))))
    at = _studies_page()
    assert at.selectbox(key="panel-remote").value == "generic"
    assert not at.checkbox(key="ponly-remote").value
    at.text_input(key="title-remote").input("Remote, renamed")
    at.button(key="FormSubmitter:study-remote-Save study").click().run()
    assert not at.exception and at.success[0].value == "Saved."
    saved = repo.get_study(db, "remote")
    assert saved is not None and saved.title == "Remote, renamed"
    assert services.study_config(saved).panel == config.panel
    assert services.study_config(saved).quota == config.quota
    # No panel any more: chosen on the form, the study has none.
    at.selectbox(key="panel-remote").set_value("none")
    at.number_input(key="quota-remote").set_value(0)
    at.button(key="FormSubmitter:study-remote-Save study").click().run()
    cleared = repo.get_study(db, "remote")
    assert cleared is not None and "panel" not in cleared.config
    assert "quota" not in cleared.config


def test_panel_settings_that_do_not_check_are_refused_in_the_page_s_words(db: Engine) -> None:
    at = _studies_page()
    at.text_input(key="title-new").input("Broken")
    at.selectbox(key="panel-new").set_value("prolific")
    at = _create(at)
    assert "Recruitment panel: Prolific needs the study's completion code" in at.error[0].value
    at.text_input(key="pcode-new").input("not a code!")
    at = _create(at)
    assert at.error[0].value == ("Not saved: Prolific completion code: use 1-64 letters, "
                                 "digits, '_' or '-' (as the panel shows it)")
    at.selectbox(key="panel-new").set_value("generic")
    at.text_input(key="purl-new").input("javascript:alert(1)")
    at = _create(at)
    assert "Completion address: must start with https://" in at.error[0].value
    assert repo.list_studies(db) == []
