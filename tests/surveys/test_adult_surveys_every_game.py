"""Every game gives an adult an adults' pre-play form: ``<game>_pre_adult``, chosen by
:func:`playtest.services.survey_id_for` after consent said "An adult (18 or over)".

Vasco's and Dokusen's adults once got the general form, whose first question is "I am…
a child player / a teen player / …" and whose age bands start at "under 6"; Bricks &
Walls' adults gave no age band at all (its general form asks none), so a mixed study's
Overview could filter its children by age but not its adults. The adults' forms ask
what the general form asks under the same item ids (the analytics and the
Questionnaires page pool them), minus the children's questions and answers.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from playtest import services
from playtest.games.registry import game_names, game_plugin
from surveys import load_survey
from surveys.logic import validate_answers
from surveys.model import SurveyDefinition
from surveys.simulate import plausible_answers

CHILD_ANSWERS = ("A child player", "A teen player", "A parent or carer watching")
CHILD_BANDS = {"under 6", "6–7", "8–9", "10–11", "12–14", "15–17"}
ADULT_BANDS = ["18–24", "25–34", "35–44", "45–54", "55–64", "65+"]
#: Item types of the children's forms.
CHILD_TYPES = {"face_scale", "yes_maybe_no"}


def _adult_form(game: str) -> SurveyDefinition:
    general = game_plugin(game).pre_survey
    assert general is not None
    return load_survey(services.survey_id_for(general, "pre", child=False, game=game))


def _labels(definition: SurveyDefinition) -> list[str]:
    out = []
    for _, item in definition.items():
        out += [item.text, *(o.label for o in getattr(item, "options", []))]
    return out


@pytest.mark.parametrize("game", game_names())
def test_an_adult_of_every_game_gets_an_adults_pre_form(game: str) -> None:
    form = _adult_form(game)
    assert form.id == f"{game}_pre_adult"
    assert (form.phase, form.audience) == ("pre", "adult")
    assert "demo.role" not in form.answer_ids()
    assert not {item.type for _, item in form.items()} & CHILD_TYPES
    assert not [text for text in _labels(form) if text in CHILD_ANSWERS or text == "I am…"]
    ages = form.item("demo.age_band")
    assert [o.value for o in ages.options] == ADULT_BANDS
    assert not CHILD_BANDS & {o.label for o in ages.options}
    # Nothing hides behind the role question the form no longer asks.
    assert not [item.id for _, item in form.items() if item.show_if is not None]
    assert not [page.id for page in form.pages if page.show_if is not None]


@pytest.mark.parametrize("game", game_names())
def test_the_adults_form_asks_the_general_forms_questions_under_its_ids(game: str) -> None:
    """Same question, same id, same answers: the analytics group the two forms' answers,
    and the Questionnaires page finds every adult item's words in the general form."""
    form = _adult_form(game)
    general = load_survey(game_plugin(game).pre_survey)  # type: ignore[arg-type]
    child = load_survey(game_plugin(game).child_surveys["pre"])
    general_ids = {item.id for _, item in general.items()}
    for _, item in form.items():
        if item.id not in general_ids:
            # Only the age band may be new (Bricks & Walls' general form asks none); it
            # is then worded as the children's form words it.
            assert item.id == "demo.age_band", item.id
            assert item.text == child.item("demo.age_band").text
            continue
        same = general.item(item.id)
        assert (item.type, item.text) == (same.type, same.text), item.id
        values = {o.value for o in getattr(item, "options", [])}
        assert values <= {o.value for o in getattr(same, "options", [])}, item.id
    # The adults' expectation question is the general form's, so expectation pairs.
    assert "expect.fun_0_10" in form.answer_ids()


@pytest.mark.parametrize("game", game_names())
def test_the_general_form_stays_for_the_studies_that_name_it(game: str) -> None:
    """The general form is still bundled; a study that names it by its file's path
    gives it to adults too, and a study that names the children's form keeps it."""
    general = game_plugin(game).pre_survey
    assert general is not None and load_survey(general).id == general
    path = str(Path(sys.modules["surveys.loader"].__file__).parent  # type: ignore[arg-type]
               / "games" / game / f"{general}.yaml")
    assert services.survey_id_for(path, "pre", child=False, game=game) == path
    assert load_survey(path).id == general
    assert services.survey_id_for(f"{game}_pre_child", "pre", child=True,
                                  game=game) == f"{game}_pre_child"


@pytest.mark.parametrize("game", game_names())
def test_simulated_adults_answer_the_adults_form_validly(game: str) -> None:
    form = _adult_form(game)
    for seed in range(10):
        answers = plausible_answers(form, random.Random(seed), {"enjoyment": seed / 9})
        assert validate_answers(form, answers) == {}
        assert answers.get("demo.age_band", "18–24") in ADULT_BANDS


@pytest.mark.parametrize("game", game_names())
def test_an_adults_post_form_is_already_an_adults_form(game: str) -> None:
    """The post-play forms never had the pre form's problem: each game's general post
    form is written for adults (the children's is separate), so an adult keeps it."""
    general = game_plugin(game).post_survey
    assert general is not None
    form = load_survey(services.survey_id_for(general, "post", child=False, game=game))
    assert form.id == general and (form.phase, form.audience) == ("post", "adult")
    assert "demo.role" not in form.answer_ids()
    assert not {item.type for _, item in form.items()} & CHILD_TYPES
    assert not [text for text in _labels(form)
                if text in CHILD_ANSWERS or text in CHILD_BANDS or text == "I am…"]
