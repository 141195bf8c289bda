"""The tester's way through the app, in AppTest against a real SQLite file."""

from __future__ import annotations

import random
from collections.abc import Callable

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import services
from playtest.storage import repository as repo
from playtest.storage.models import EventRow, ParticipantRow
from tests.app.conftest import APP, WORDING

TIMEOUT = 30


def _count(engine: Engine, table: type) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def _open(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _texts(at: AppTest) -> str:
    parts = [e.value for e in at.title] + [e.value for e in at.markdown]
    parts += [e.value for e in at.text] + [e.value for e in at.error]
    return "\n".join(str(p) for p in parts)


def test_unknown_study_code_gets_a_clear_message(db: Engine) -> None:
    at = _open(study="nope")
    assert not at.exception
    assert "We can't find that study" in _texts(at)
    assert _count(db, ParticipantRow) == 0


def test_closed_study_takes_nobody(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study()
    repo.update_study(db, study.study_id, open=False)
    at = _open(study=study.study_id)
    assert "This study is closed" in _texts(at)
    assert not at.checkbox


def test_tampered_participant_code_is_refused(db: Engine) -> None:
    at = _open(p="../../etc/passwd")
    assert "This link no longer works" in _texts(at)
    at = _open(p="AAAAAAAAAAAAAAAAAAAAAA")
    assert "This link no longer works" in _texts(at)


def test_nothing_is_stored_before_i_agree(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(audience="mixed")
    at = _open(study=study.study_id)
    assert at.button and at.button[0].label == "I agree"
    # Pressing "I agree" without ticking the boxes stores nothing and says why.
    at.button[0].click().run()
    assert "Please say who is playing." in _texts(at)
    at.radio(key="consent_who").set_value("A child, with a parent or guardian here")
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    assert "A parent or guardian must agree" in _texts(at)
    assert _count(db, ParticipantRow) == 0
    assert _count(db, EventRow) == 0
    at.checkbox(key="consent_parent").check()
    at.button[0].click().run()
    assert not at.exception
    people = repo.list_participants(db, study.study_id)
    assert len(people) == 1
    person = people[0]
    assert person.consent["child"] is True and person.consent["parent_consent"] is True
    assert person.stage == "pre_survey"
    assert at.query_params["p"] == person.participant_id


def _consent_adult(study_id: str) -> AppTest:
    at = _open(study=study_id)
    at.radio(key="consent_who").set_value("An adult (18 or over)")
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    return at


def test_resume_link_brings_the_tester_back_to_their_page(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study()
    _consent_adult(study.study_id)
    code = repo.list_participants(db, study.study_id)[0].participant_id
    # A new browser session (reload, closed tab, server restart) with the resume link.
    at = _open(p=code)
    assert not at.exception
    assert "Before you play" in _texts(at)
    first_page = at.caption[0].value if at.caption else ""
    # Answer page 1 of the survey with valid answers, then come back in a new session.
    services_tester = services.load_tester(db, code)
    assert services_tester is not None
    definition = services.survey_for(services_tester, "pre")
    assert definition is not None
    page = definition.pages[0]
    repo.save_responses(db, code, definition.id, definition.version, definition.content_hash,
                        "pre", page.id, {"role": "adult"}, 3.0)
    at = _open(p=code)
    assert at.caption and at.caption[0].value != first_page


def test_forward_only_a_tester_sees_only_their_current_stage(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study()
    _consent_adult(study.study_id)
    code = repo.list_participants(db, study.study_id)[0].participant_id
    # Whatever page the URL names, the navigation holds only the current stage's page.
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["p"] = code
    at.run()
    assert "Before you play" in _texts(at)
    assert "Thank you!" not in _texts(at)
    # The stage only moves forward one step at a time.
    assert repo.advance_stage(db, code, "pre_survey", "play") == "play"
    at = _open(p=code)
    assert "Before you play" not in _texts(at)


def test_done_page_shows_a_completion_code(db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study()
    _consent_adult(study.study_id)
    code = repo.list_participants(db, study.study_id)[0].participant_id
    for current, new in (("pre_survey", "play"), ("play", "post_survey"), ("post_survey", "done")):
        repo.advance_stage(db, code, current, new)
    at = _open(p=code)
    assert "Thank you!" in _texts(at)
    shown = [c.value for c in at.code]
    stored = repo.get_participant(db, code)
    assert stored is not None and stored.completion_code in shown


def test_experiment_assignment_is_balanced_and_sticky(
    db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(experiments=[WORDING])
    rng = random.Random(4)
    codes = [services.consent(db, study, {"child": False}, rng).participant_id for _ in range(6)]
    variants = [repo.get_assignment(db, c, "wording") for c in codes]
    assert sorted(variants) == ["A", "A", "A", "B", "B", "B"]
    tester = services.load_tester(db, codes[0])
    assert tester is not None
    assert tester.effective.variants == {"wording": variants[0]}
    expected = "formal" if variants[0] == "B" else "default"
    assert tester.effective.message_variants == {"extra_turn": expected}
    # Consenting again in another tab makes a new participant; the old one keeps its arm.
    again = services.load_tester(db, codes[0])
    assert again is not None and again.effective.variants == tester.effective.variants
