"""What consent recorded picks the pre-play survey's form: after "An adult (18 or over)"
the survey no longer asks "I am… a child player" or offers "under 6"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo
from playtest.storage.models import ParticipantRow, ResponseRow
from tests.app.conftest import APP
from tests.app.tester_support import consent_on_page

CHILD_ANSWERS = ("A child player", "under 6", "6–7", "A parent or carer watching")


def _choices(at: AppTest) -> list[str]:
    """Every question and option the page offers (radios and select boxes)."""
    out: list[str] = []
    for widget in [*at.radio, *at.selectbox]:
        out.append(str(widget.label))
        out.extend(str(option).replace("\\", "") for option in widget.options)
    return out


def _stored_surveys(engine: Engine, code: str) -> set[str]:
    table = ResponseRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return set(conn.execute(select(table.c.survey).where(
            table.c.participant_id == code)).scalars())


def _answer_first_page(at: AppTest) -> AppTest:
    for radio in at.radio:
        radio.set_value(radio.options[0])
    return at.button[0].click().run()


def test_an_adult_gets_no_child_questions_and_answers_the_adults_form(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(audience="mixed")
    at = consent_on_page(study.study_id, "An adult (18 or over)")
    assert not at.exception, at.exception
    offered = _choices(at)
    assert not [text for text in offered if text.startswith("I am")]
    assert not set(CHILD_ANSWERS) & set(offered)
    assert "18–24" in offered and "65+" in offered
    code = repo.list_participants(db, study.study_id)[0].participant_id
    # Consent stored who plays; the survey's form follows from it, nothing else stored.
    assert _stored_surveys(db, code) == set()
    _answer_first_page(at)
    assert not at.exception, at.exception
    assert _stored_surveys(db, code) == {"vapoosh_pre_adult"}
    # The remaining pages ask adults' questions (Likert, not faces; fun 0–10).
    definition = services.survey_for(services.load_tester(db, code), "pre", db)  # type: ignore[arg-type]
    assert definition is not None and definition.id == "vapoosh_pre_adult"
    assert {"math.confidence_1", "expect.fun_0_10"} <= set(definition.answer_ids())
    assert not {"demo.role", "expect.smileyometer_pre"} & set(definition.answer_ids())


def test_a_child_still_gets_the_childrens_form(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(audience="mixed")
    at = consent_on_page(study.study_id, "A child, with a parent or guardian here", parent=True)
    assert not at.exception, at.exception
    offered = _choices(at)
    assert "under 6" in offered and "18–24" not in offered
    code = repo.list_participants(db, study.study_id)[0].participant_id
    _answer_first_page(at)
    assert _stored_surveys(db, code) == {"vapoosh_pre_child"}


def test_an_adults_only_study_gets_the_adults_form(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(audience="adults")
    at = consent_on_page(study.study_id, None)
    assert not at.exception, at.exception
    assert not set(CHILD_ANSWERS) & set(_choices(at))
    assert "18–24" in _choices(at)


def test_a_tester_who_began_the_general_form_keeps_it(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    """Answers given to the general form before the adults' form existed are not lost."""
    study = make_study(audience="mixed")
    code = services.consent(db, study, {"child": False}).participant_id
    repo.advance_stage(db, code, "consent", "pre_survey")
    tester = services.load_tester(db, code)
    assert tester is not None
    general = services.survey_for(tester, "pre")
    assert general is not None and general.id == "vapoosh_pre_adult"
    from surveys import load_survey

    old = load_survey("vapoosh_pre")
    repo.save_responses(db, code, old.id, old.version, old.content_hash, "pre", "about",
                        {"demo.role": "adult", "demo.age_band": "25–34"}, 4.0)
    kept = services.survey_for(tester, "pre", db)
    assert kept is not None and kept.id == "vapoosh_pre"


def test_no_participant_before_i_agree(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(audience="mixed")
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study.study_id
    at.run()
    at.radio(key="consent_who").set_value("An adult (18 or over)")
    at.run()
    with db.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ParticipantRow)).scalar_one() == 0


def test_the_age_band_answered_in_the_survey_is_the_overview_filter_s(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    """The Overview's "Age band" filter reads the participant's attribute, which the
    pre-play survey's ``demo.age_band`` answer sets (it looked for ``age_band`` only)."""
    study = make_study(audience="mixed")
    at = consent_on_page(study.study_id, "An adult (18 or over)")
    at.radio[0].set_value("25–34")
    at.button[0].click().run()
    assert not at.exception, at.exception
    code = repo.list_participants(db, study.study_id)[0].participant_id
    participant = repo.get_participant(db, code)
    assert participant is not None and participant.attributes.get("age_band") == "25–34"
    page = AppTest.from_file(str(Path(__file__).parent / "apps" / "designer_page.py"),
                             default_timeout=60)
    page.query_params["page"] = "overview"
    page.session_state["designer_signed_in"] = True
    page.session_state["study_id"] = study.study_id
    page.run()
    assert not page.exception, page.exception
    assert page.multiselect(key="f_bands").options == ["25–34"]
