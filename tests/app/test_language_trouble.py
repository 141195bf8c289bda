"""The pages a tester of a German study can meet when something is wrong (the study
being fixed, their link gone, the database not answering) are German; where no study is
known (an unknown study, no database) the browser's preferred language decides, English
when the app does not speak it."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.app_pages import trouble
from playtest.i18n import Language, preferred_language, translator
from playtest.storage import repository as repo
from playtest.storage.privacy import delete_participant
from tests.app.conftest import APP
from tests.app.tester_support import open_as, playing_tester

GERMAN = translator(Language("de"))


def texts(at: AppTest) -> str:
    parts = [e.value for e in at.title] + [e.value for e in at.markdown]
    parts += [e.value for e in at.text] + [e.value for e in at.info] + [e.value for e in at.warning]
    return "\n".join(str(p) for p in parts)


def break_settings(db: Engine, study: repo.Study) -> None:
    """The study's stored settings no longer validate (as an old app could store them)."""
    repo.update_study(db, study.study_id, config={**study.config, "speed": 98})


def test_a_german_study_being_fixed_says_so_in_german(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(language="de")
    code = services.consent(db, study, {"child": False}).participant_id
    break_settings(db, study)
    for link in ({"study": study.study_id}, {"p": code}):
        at = AppTest.from_file(APP, default_timeout=30)
        for key, value in link.items():
            at.query_params[key] = value
        shown = texts(at.run())
        assert not at.exception, at.exception
        assert GERMAN("This study is being fixed") in shown, (link, shown)
        assert "This study is being fixed" not in shown


def test_a_german_testers_gone_link_and_notices_are_german(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(language="de")
    code = playing_tester(db, study)
    at = open_as(code)
    assert not at.exception, at.exception
    delete_participant(db, code)  # the designer deletes them meanwhile
    at.run()
    shown = texts(at)
    assert GERMAN(trouble.GONE_TITLE) in shown and trouble.GONE_TITLE not in shown, shown


def test_the_notices_are_translated() -> None:
    """Every text of these pages has its German (the catalogs' check covers the rest)."""
    for text in (trouble.CALM, trouble.TOO_FAST, trouble.GONE_TITLE, trouble.GONE_TEXT,
                 trouble.WAIT_TITLE, trouble.UNREACHABLE):
        assert GERMAN(text) != text


def test_no_study_known_the_browsers_language_else_english(db: Engine) -> None:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = "nope"
    shown = texts(at.run())
    assert "We can't find that study" in shown  # a browser without a language of ours
    assert preferred_language("de-DE").code == "de"
    assert preferred_language("fr-FR", "fr;q=0.9, de;q=0.5").code == "de"
    assert preferred_language("fr-FR", "it").code == "en"
