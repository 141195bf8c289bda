"""A child of every game answers the children's forms in the app: after "A child, with
a parent or guardian here" at consent, a study of Vasco, Dokusen or Bricks & Walls asks
children's age bands and faces (drawn as Material icons), never "I am… a parent or carer
watching", "65+" or "Strongly disagree"; and what the child picks is stored against the
children's form, the expectation face included.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo
from playtest.storage import repository as repo
from tests.app.conftest import APP
from tests.app.tester_support import offered_texts, open_as, stored_answers

GAMES = ("vasco", "dokusen", "morris")
ADULT_WORDS = ("Strongly disagree", "Strongly agree", "Proficient", "A parent or carer watching",
               "65+", "18–24", "Less than once a month")
FACE = ":material/sentiment_"


def _answer_page(at: AppTest) -> AppTest:
    """Pick the last option of every question on the page (the top face), submit."""
    for radio in at.radio:
        radio.set_value(radio.options[-1])
    return at.button[0].click().run()


@pytest.mark.parametrize("game", GAMES)
def test_a_child_gets_the_childrens_forms_of_the_game(
    game: str, db: Engine, make_study: Callable[..., repo.Study]
) -> None:
    study = make_study(game=game, audience="mixed")
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["study"] = study.study_id
    at.run()
    at.radio(key="consent_who").set_value("A child, with a parent or guardian here")
    at.checkbox(key="consent_parent").check()
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    at.run()
    assert not at.exception, at.exception
    code = repo.list_participants(db, study.study_id)[0].participant_id

    seen: list[str] = []
    for _ in range(6):  # the pre-play pages, one submit each
        if repo.get_participant(db, code).stage != "pre_survey":  # type: ignore[union-attr]
            break
        seen += offered_texts(at)
        at = _answer_page(at)
        assert not at.exception, at.exception
    assert repo.get_participant(db, code).stage == "play"  # type: ignore[union-attr]
    assert "under 6" in seen and "10–11" in seen
    # the children's words (was tests/browser/test_child_forms_seen.py)
    for words in ("How good do you think this game will be?", "Brilliant"):
        assert any(words in text for text in seen), (words, seen)
    assert any(text.startswith(FACE) for text in seen)
    assert not [w for w in ADULT_WORDS if any(w in text for text in seen)]
    assert not [text for text in seen if text.startswith("I am")]
    stored = stored_answers(db, code)
    assert {survey for survey, _ in stored} == {f"{game}_pre_child"}
    assert stored[(f"{game}_pre_child", "expect.smileyometer_pre")] == 5

    # After play: the children's post-play form, its first page the Fun Toolkit's.
    repo.advance_stage(db, code, "play", "post_survey")
    at = open_as(code)
    assert not at.exception, at.exception
    post = offered_texts(at)
    assert any(text.startswith(FACE) for text in post)
    assert any("play it again" in text for text in post), post
    assert any("Too hard" in text for text in post), post
    assert not [w for w in ADULT_WORDS if any(w in text for text in post)]
    at = _answer_page(at)
    assert not at.exception, at.exception
    stored = stored_answers(db, code)
    assert stored[(f"{game}_post_child", "child.smileyometer")] == 5
    assert (f"{game}_post_child", "child.again") in stored


@pytest.mark.parametrize("game", GAMES)
def test_the_games_demo_study_stores_childrens_answers_on_the_childrens_forms(game: str) -> None:
    """The demo study's simulated children answer the forms the app would give them."""
    config = demo.game_demo_config(game)
    first_arms = {e.key: next(iter(e.variants)) for e in config.experiments}
    forms: dict[bool, set[str]] = {True: set(), False: set()}
    for index in range(12):
        records = list(demo.simulate_tester(index, "demo", config, datetime(2026, 1, 1, tzinfo=UTC),
                                            random.Random(index), first_arms))
        child = bool(records[0]["consent"]["child"])
        forms[child] |= {r["survey"] for r in records if r["record"] == "response"}
    assert forms[True] == {f"{game}_pre_child", f"{game}_post_child"}
    assert not {f"{game}_pre_child", f"{game}_post_child"} & forms[False]
