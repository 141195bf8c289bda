"""Every game gives a child the children's forms: faces, children's age bands, short words,
the Fun Toolkit's Smileyometer and Again-Again, and the ids the analytics pair.

A child who said "A child" at consent once got Vasco's and Dokusen's general forms ("I
am… a parent or carer watching", ages up to 65+, "Strongly disagree", "Proficient").
"""

from __future__ import annotations

import random

import pandas as pd
import pytest

from analytics.data import RESPONSE_COLUMNS
from analytics.expectation import BUNDLED_PAIRS, expectation_vs_experience
from playtest import services
from playtest.games.registry import game_names, game_plugin
from surveys import load_survey, quiz_results, score_definition_answers
from surveys.logic import validate_answers
from surveys.model import Matrix, SurveyDefinition
from surveys.simulate import plausible_answers

#: Words of the adults' forms a 7–11-year-old should not meet.
ADULT_WORDS = ("Strongly disagree", "Proficient", "novice", "I am…", "parent or carer",
               "capabilities", "requirements", "recommend", "Carcassonne", "Othello")
CHILD_BANDS = {"under 6", "6–7", "8–9", "10–11", "12–14"}
#: Item types a child's form may not use: grids and abstract scales.
ADULT_TYPES = {"matrix", "likert", "rating_0_10", "slider", "long_text"}


def _texts(definition: SurveyDefinition) -> list[str]:
    out = [definition.title]
    for page, item in definition.items():
        out += [page.title, item.text, item.help or ""]
        out += [o.label for o in getattr(item, "options", [])]
        out += list(getattr(item, "labels", None) or [])
        if isinstance(item, Matrix):
            out += [r.text for r in item.rows]
    return out


def _child_form(game: str, phase: str) -> SurveyDefinition:
    plugin = game_plugin(game)
    general = plugin.pre_survey if phase == "pre" else plugin.post_survey
    assert general is not None
    return load_survey(services.survey_id_for(general, phase, child=True, game=game))


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("phase", ["pre", "post"])
def test_a_child_of_every_game_gets_a_childrens_form(game: str, phase: str) -> None:
    form = _child_form(game, phase)
    assert form.id == f"{game}_{phase}_child"
    assert (form.phase, form.audience) == (phase, "child")
    types = {item.type for _, item in form.items()}
    assert "face_scale" in types and not types & ADULT_TYPES, types
    words = " ".join(_texts(form))
    assert not [w for w in ADULT_WORDS if w.lower() in words.lower()]
    # Names no other game (a copy of another game's form would).
    others = [game_plugin(g).title for g in game_names() if g != game]
    assert not [t for t in others if t in words]


@pytest.mark.parametrize("game", game_names())
def test_the_childs_pre_form_asks_childrens_age_bands_and_the_expectation(game: str) -> None:
    form = _child_form(game, "pre")
    ages = form.item("demo.age_band")
    assert {o.value for o in ages.options} == CHILD_BANDS
    assert "demo.role" not in form.answer_ids()
    assert form.item("expect.smileyometer_pre").type == "face_scale"


@pytest.mark.parametrize("game", game_names())
def test_the_childs_post_form_carries_the_fun_toolkit_and_a_rules_check(game: str) -> None:
    form = _child_form(game, "post")
    smiley, again = form.item("child.smileyometer"), form.item("child.again")
    assert (smiley.type, smiley.instrument, smiley.index) == ("face_scale", "smileyometer", 1)
    assert (again.type, again.instrument, again.index) == ("yes_maybe_no", "again_again", 1)
    # Cited as the instrument catalogue cites them (the designer's pages show it).
    from surveys.instruments import INSTRUMENTS

    assert all("Read" in INSTRUMENTS[i].citation for i in ("smileyometer", "again_again"))
    scores = score_definition_answers(form, {"child.smileyometer": 4, "child.again": "yes"})
    assert scores["smileyometer"].score == 4 and scores["again_again"].score == 2.0
    # Each quiz question asks what the adults' form asks, with the same right answer,
    # so the quiz analytics pool children's and adults' answers per question.
    adult = load_survey(game_plugin(game).post_survey)  # type: ignore[arg-type]
    quiz = {item.id: item.correct for _, item in form.items()
            if getattr(item, "correct", None) is not None}
    assert quiz, "no rules check"
    assert {qid: adult.item(qid).correct for qid in quiz} == quiz
    right = quiz_results(form, dict(quiz))
    assert set(right.values()) == {True}


@pytest.mark.parametrize("game", game_names())
def test_simulated_children_answer_validly_and_pair_expectation_with_experience(
    game: str,
) -> None:
    """What the demo studies store for a child validates, and the analytics pair it."""
    rng = random.Random(7)
    rows = []
    for n in range(6):
        for phase in ("pre", "post"):
            form = _child_form(game, phase)
            answers = plausible_answers(form, rng, {"enjoyment": 0.8})
            assert validate_answers(form, answers) == {}
            rows += [[f"P{n}", form.id, "1", phase, item, value, None]
                     for item, value in answers.items()]
    table = expectation_vs_experience(pd.DataFrame(rows, columns=RESPONSE_COLUMNS))
    child_pair = next(p for p in BUNDLED_PAIRS if p.pre_item == "expect.smileyometer_pre")
    row = table.set_index("measure").loc[child_pair.measure].to_dict()
    assert int(row["n_pairs"]) == 6
    assert 1 <= row["pre_mean"] <= 5 and 1 <= row["post_mean"] <= 5
