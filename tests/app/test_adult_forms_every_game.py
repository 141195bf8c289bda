"""An adult of every game answers the adults' pre-play form in the app: after "An adult
(18 or over)" at consent (or in an adults-only study), a study of Vasco, Dokusen or Bricks
& Walls asks adults' age bands and never "I am… a child player", "under 6" or a face;
what the adult picks is stored against ``<game>_pre_adult`` under the general form's item
ids. A child of the same study still gets the children's form. (Vapoosh!'s own:
tests/app/test_consent_and_survey_agree.py.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, services
from playtest.games.registry import game_plugin
from playtest.storage import repository as repo
from surveys import load_survey
from tests.app.tester_support import consent_on_page, offered_texts, stored_answers

GAMES = ("vasco", "dokusen", "morris")
CHILD_WORDS = ("A child player", "A teen player", "A parent or carer watching", "under 6",
               "6–7", "10–11", "15–17")
FACE = ":material/sentiment_"
ADULT_BANDS = ["18–24", "25–34", "35–44", "45–54", "55–64", "65+"]


def _answer_page(at: AppTest) -> AppTest:
    """Pick the second option of every question on the page (an adult band: 25–34)."""
    for radio in at.radio:
        radio.set_value(radio.options[1])
    return at.button[0].click().run()


def _walk_pre_survey(db: Engine, at: AppTest, code: str) -> list[str]:
    """Answer the pre-play pages one submit each; what they offered."""
    seen: list[str] = []
    for _ in range(8):
        if repo.get_participant(db, code).stage != "pre_survey":  # type: ignore[union-attr]
            break
        seen += offered_texts(at)
        at = _answer_page(at)
        assert not at.exception, at.exception
    assert repo.get_participant(db, code).stage == "play"  # type: ignore[union-attr]
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_an_adult_gets_the_adults_pre_form_of_the_game(
    game: str, db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(game=game, audience="mixed")
    at = consent_on_page(study.study_id, "An adult (18 or over)")
    assert not at.exception, at.exception
    code = repo.list_participants(db, study.study_id)[0].participant_id
    first = offered_texts(at)
    assert any(text.startswith("How old are you?") for text in first)
    assert [b for b in ADULT_BANDS if b in first] == ADULT_BANDS

    seen = _walk_pre_survey(db, at, code)
    assert not [w for w in CHILD_WORDS if any(w in text for text in seen)], seen
    # the adults' words (was tests/browser/test_adult_forms_seen.py, for Vasco)
    title = game_plugin(game).title
    shown = "\n".join(seen).replace("\\", "")
    assert f"How much fun do you expect {title} to be?" in shown and "65+" in shown
    agreeing = "Strongly disagree" in load_survey(f"{game}_pre_adult").model_dump_json()
    assert ("Strongly disagree" in shown) == agreeing
    assert not [text for text in seen if text.startswith("I am…")]
    assert not [text for text in seen if text.startswith(FACE)]
    stored = stored_answers(db, code)
    assert {survey for survey, _ in stored} == {f"{game}_pre_adult"}
    assert stored[(f"{game}_pre_adult", "demo.age_band")] == "25–34"
    assert (f"{game}_pre_adult", "expect.fun_0_10") in stored
    # The Overview's age filter reads the band the adult gave.
    participant = repo.get_participant(db, code)
    assert participant is not None and participant.attributes.get("age_band") == "25–34"


@pytest.mark.parametrize("game", GAMES)
def test_an_adults_only_study_gets_the_adults_pre_form(
    game: str, db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(game=game, audience="adults")
    at = consent_on_page(study.study_id, None)
    assert not at.exception, at.exception
    code = repo.list_participants(db, study.study_id)[0].participant_id
    seen = _walk_pre_survey(db, at, code)
    assert "18–24" in seen
    assert not [w for w in CHILD_WORDS if any(w in text for text in seen)]
    assert {survey for survey, _ in stored_answers(db, code)} == {f"{game}_pre_adult"}


@pytest.mark.parametrize("game", GAMES)
def test_a_child_of_the_same_study_still_gets_the_childrens_pre_form(
    game: str, db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(game=game, audience="mixed")
    at = consent_on_page(study.study_id, "A child, with a parent or guardian here", parent=True)
    assert not at.exception, at.exception
    code = repo.list_participants(db, study.study_id)[0].participant_id
    seen = _walk_pre_survey(db, at, code)
    assert "under 6" in seen and "65+" not in seen
    assert {survey for survey, _ in stored_answers(db, code)} == {f"{game}_pre_child"}


@pytest.mark.parametrize("game", GAMES)
def test_an_adult_who_began_the_general_form_keeps_it(
    game: str, db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    """Answers given to ``<game>_pre`` before its adults' form existed are not lost."""
    study = make_study(game=game, audience="mixed")
    code = services.consent(db, study, {"child": False}).participant_id
    repo.advance_stage(db, code, "consent", "pre_survey")
    tester = services.load_tester(db, code)
    assert tester is not None
    new = services.survey_for(tester, "pre", db)
    assert new is not None and new.id == f"{game}_pre_adult"
    old = load_survey(f"{game}_pre")
    repo.save_responses(db, code, old.id, old.version, old.content_hash, "pre",
                        old.pages[0].id, {"habits.boardgame_freq": "never"}, 4.0)
    kept = services.survey_for(tester, "pre", db)
    assert kept is not None and kept.id == f"{game}_pre"


@pytest.mark.parametrize("game", GAMES)
def test_the_games_demo_study_stores_adults_answers_on_the_adults_pre_form(game: str) -> None:
    """The demo study's simulated adults answer the form the app would give them."""
    config = demo.game_demo_config(game)
    first_arms = {e.key: next(iter(e.variants)) for e in config.experiments}
    forms: dict[bool, set[str]] = {True: set(), False: set()}
    for index in range(12):
        records = list(demo.simulate_tester(index, "demo", config,
                                            datetime(2026, 1, 1, tzinfo=UTC),
                                            random.Random(index), first_arms))
        child = bool(records[0]["consent"]["child"])
        forms[child] |= {r["survey"] for r in records if r["record"] == "response"}
    assert f"{game}_pre_adult" in forms[False], forms
    assert f"{game}_pre" not in forms[False] | forms[True]
    assert f"{game}_pre_adult" not in forms[True]
