"""The Studies page's experiments as a form, for every game (issue 23 item 8): what an
experiment varies is chosen from what the game offers, each variant shows what testers
will see, "Add" writes it into the study's experiments (the YAML stays for those who want
it), "Create study" stores it and clears the form; mistakes read in people's words; a
game's form offers only the display settings its board uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from analytics.data import UNNAMED_GAME
from playtest.experiment_choices import shown_messages, ui_settings
from playtest.games.registry import GamePlugin, game_plugin, games
from playtest.storage import repository as repo
from playtest.study_config import message_catalog

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")
GAMES = [p.name for p in games()]


def _studies_page() -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    return at.run()


def _form(plugin: GamePlugin) -> str:
    return "new" if plugin.name == UNNAMED_GAME else f"new-{plugin.name}"


def _frames(at: AppTest) -> list[dict[str, list[object]]]:
    return [{c: list(df.value[c]) for c in df.value.columns} for df in at.dataframe]


@pytest.mark.parametrize("game", GAMES)
def test_the_form_offers_what_the_game_offers_with_the_texts_testers_see(
        db: Engine, game: str) -> None:
    plugin = game_plugin(game)
    at = _studies_page()
    at.selectbox(key="game-new").set_value(plugin).run()
    form = _form(plugin)
    targets = list(at.selectbox(key=f"xb-target-{form}").options)
    offered_ui = [s.label for s in ui_settings(plugin)]
    assert targets[0].startswith("The rules")
    assert sum(t.startswith("Message “") for t in targets) == len(shown_messages(plugin))
    assert [t.removeprefix("Display: ") for t in targets if t.startswith("Display")] \
        == offered_ui
    # the form's own display settings are the board's too (no computer dice in Vasco)
    labels = [c.label for c in at.checkbox] + [s.label for s in at.selectbox]
    for setting in ("Highlight where a click may go", "Show the computer's dice", "Speed"):
        assert (setting in labels) == (setting in offered_ui), (game, setting)
    key = shown_messages(plugin)[0]
    at.selectbox(key=f"xb-target-{form}").set_value(f"message:{key}").run()
    assert not at.exception
    entry = message_catalog(game).entry(key)
    preview = next(f for f in _frames(at) if "testers see" in f)
    assert preview["variant"] == list(entry.variants)
    for variant, text in zip(preview["variant"], preview["testers see"], strict=True):
        expected = message_catalog(game).render(
            key, str(variant), **dict.fromkeys(entry.values, "…")).text
        assert text == expected and "{" not in text


@pytest.mark.parametrize("game", GAMES)
def test_an_experiment_added_by_the_form_is_stored_and_the_form_clears(
        db: Engine, game: str) -> None:
    plugin = game_plugin(game)
    at = _studies_page()
    at.selectbox(key="game-new").set_value(plugin).run()
    form = _form(plugin)
    key = shown_messages(plugin)[0]
    at.selectbox(key=f"xb-target-{form}").set_value(f"message:{key}").run()
    at.button(key=f"xb-add-{form}").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert f"target: message:{key}" in at.text_area(key=f"exp-{form}").value
    listed = next(f for f in _frames(at) if "varies" in f)
    assert listed["key"] == [f"{key}_wording"]
    assert listed["varies"] == [f"the wording of message “{key}”"]
    at.text_input(key=f"title-{form}").input(f"Wording in {game}")
    at.button(key=f"FormSubmitter:study-{form}-Create study").click().run()
    assert not at.exception
    (study,) = [s for s in repo.list_studies(db) if s.title == f"Wording in {game}"]
    (stored,) = study.config["experiments"]
    variants = message_catalog(game).entry(key).variants
    assert stored["target"] == f"message:{key}" and stored["variants"] == {
        name: name for name in variants}
    assert f"Created study {study.study_id}" in at.success[0].value
    # the form starts empty again: no title, no experiments, the default target
    assert at.text_input(key=f"title-{form}").value == ""
    assert at.text_area(key=f"exp-{form}").value == ""
    assert at.selectbox(key=f"xb-target-{form}").value == "rules"


def test_the_learning_gain_can_decide_an_experiment_made_with_the_form(db: Engine) -> None:
    """Issue 27: the fluency probe's gain was a primary metric only in YAML."""
    plugin = game_plugin(GAMES[0])
    at = _studies_page()
    at.selectbox(key="game-new").set_value(plugin).run()
    form = _form(plugin)
    metric = at.selectbox(key=f"xb-metric-{form}")
    assert "Learning gain" in metric.options  # shown by name
    metric.set_value("learning_gain").run()
    assert any("needs the fluency probe" in c.value for c in at.caption)
    at.button(key=f"xb-add-{form}").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "primary_metric: learning_gain" in at.text_area(key=f"exp-{form}").value


def test_a_taken_key_and_one_variant_are_refused_in_peoples_words(db: Engine) -> None:
    at = _studies_page()
    at.button(key="xb-add-new").click().run()  # the rules, standard against classic
    at.button(key="xb-add-new").click().run()  # the same key again
    assert "Not added: Experiment “rules_variant”: this study has an experiment of that " \
           "key already; choose another key" in [e.value for e in at.error]
    at.text_input(key="title-new").input("One arm")
    at.text_area(key="exp-new").input(
        "- key: w\n  target: message:extra_turn\n  variants: {A: default}\n")
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    errors = "\n".join(e.value for e in at.error)
    assert "Not saved: Experiment 1 (“w”), its variants: an experiment compares at least 2 " \
           "variants (this one has 1): add another" in errors
    assert "Dictionary" not in errors and "validation" not in errors
    assert not [s for s in repo.list_studies(db) if s.title == "One arm"]
    # what was typed stays to be corrected
    assert at.text_input(key="title-new").value == "One arm"


def test_a_page_without_testers_says_so_in_a_sentence(db: Engine, make_study: object) -> None:
    from tests.app.conftest import WORDING

    make_study("s1", experiments=[WORDING])  # type: ignore[operator]
    at = AppTest.from_file(PAGE_APP, default_timeout=60)
    at.query_params["page"] = "experiments"
    at.session_state["designer_signed_in"] = True
    at.run()
    assert [i.value for i in at.info] == [
        "No data yet: no tester has taken part in this study, so the Experiments page has "
        "nothing to show yet. Share the study's link from the Studies page."]
