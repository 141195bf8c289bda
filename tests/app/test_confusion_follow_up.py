"""The Confusion page's follow-up experiment, for each game's demo study filled with
simulated testers (AppTest on a real SQLite file): the top rule confusion shows its
prefilled experiment with its numbers and their definitions, "Add to this study" stores
it in the study's settings once however often it is pressed, and the Experiments page
then lists it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analytics.confusion import confusion_points
from analytics.follow_ups import proposed_follow_ups
from analytics.game_analytics import for_study
from analytics.remedies import remedies_for
from analytics.text_safety import markdown_literal
from playtest import demo, follow_ups
from playtest.games.registry import game_names
from playtest.storage import repository as repo
from playtest.storage.db import make_engine
from playtest.study_data import load_bundle
from playtest.study_form_checks import config_to_correct
from tests.app.designer_support import demo_databases, designer_page, use_copy

GAMES = sorted(game_names())


def _study_id(game: str) -> str:
    return demo.DEMO_STUDY_ID if game == demo.DEMO_GAME else f"{demo.DEMO_STUDY_ID}-{game}"


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per game a database with its demo study and 10 simulated testers (made once)."""
    return demo_databases(tmp_path_factory, GAMES, testers=10, seed=3)


def _stored_keys(database: Path, study_id: str) -> list[str]:
    engine = make_engine(f"sqlite:///{database}")
    study = repo.get_study(engine, study_id)
    engine.dispose()
    assert study is not None
    return [str(e.get("key")) for e in follow_ups.stored_experiments(study)]


def _top_rule_point(database: Path, study_id: str) -> str:
    engine = make_engine(f"sqlite:///{database}")
    data = load_bundle(engine, study_id).data
    engine.dispose()
    rules = [p.id for p in confusion_points(data) if p.id.startswith("rule:")]
    assert rules, "the demo study lists a rule confusion"
    assert remedies_for(rules[0], for_study(data).remedies), f"no remedy fits {rules[0]}"
    return rules[0]


def _texts(at: object) -> str:
    parts = [getattr(at, kind) for kind in ("markdown", "caption", "success", "warning",
                                            "error", "subheader", "expander")]
    return "\n".join(str(getattr(e, "label", None) or getattr(e, "value", ""))
                     for elements in parts for e in elements)


@pytest.mark.parametrize("game", GAMES)
def test_the_top_rule_confusion_s_follow_up_is_added_once_and_listed(
    filled: dict[str, Path], game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = use_copy(filled[game], tmp_path, monkeypatch)
    study_id = _study_id(game)
    point = _top_rule_point(database, study_id)
    key = follow_ups.follow_up_key(point)
    before = _stored_keys(database, study_id)
    assert key not in before

    at = designer_page("confusion", study_id)
    shown = _texts(at)
    assert "Follow-up experiments" in shown
    # the prefilled experiment: its numbers, each defined on the page
    labels = {m.label: m.value for m in at.metric}
    assert set(labels) >= {"Trouble rate today", "Smallest effect", "Testers per arm",
                           "Testers who met it"}
    assert int(labels["Testers per arm"]) > 0
    for definition in follow_ups.DEFINITIONS.values():
        assert definition in shown
    # today's rate with its interval
    assert re.search(r"Trouble rate today \d+ % \(95 % Wilson interval \d+ % to \d+ %, "
                     r"\d+ testers who met the point\)", shown), shown
    # decided by the point's own trouble rate (texts are shown as Markdown literals)
    assert markdown_literal(f"Decided by trouble:{point}") in shown
    assert "Experiments are crossed" in shown or "runs no experiment yet" in shown

    add = at.button(key=f"fu-add-{key}")
    add.click().run()
    assert not at.exception, at.exception
    assert _stored_keys(database, study_id) == [*before, key]
    assert markdown_literal(f"“{key}” is in this study's experiments") in _texts(at)
    assert not [b for b in at.button if b.key == f"fu-add-{key}"]
    add.click().run()  # a second press (a double click) adds nothing
    assert not at.exception, at.exception
    assert _stored_keys(database, study_id) == [*before, key]

    engine = make_engine(f"sqlite:///{database}")
    study = repo.get_study(engine, study_id)
    engine.dispose()
    assert study is not None
    (stored,) = [e for e in follow_ups.stored_experiments(study) if e["key"] == key]
    assert stored["primary_metric"] == f"trouble:{point}"
    assert list(stored["variants"]) == [follow_ups.CONTROL, follow_ups.CHALLENGER]

    experiments = designer_page("experiments", study_id)
    assert any(key in str(h.value) for h in experiments.subheader), [str(h.value) for h in experiments.subheader] + [str(i.value) for i in experiments.info]


def test_adding_the_same_follow_up_twice_stores_it_once(
    filled: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = GAMES[0]
    database = use_copy(filled[game], tmp_path, monkeypatch)
    study_id = _study_id(game)
    engine = make_engine(f"sqlite:///{database}")
    data = load_bundle(engine, study_id).data
    (proposal, *_) = proposed_follow_ups(data)
    study = repo.get_study(engine, study_id)
    assert study is not None
    config, _ = config_to_correct(study.game, study.config)
    experiment = follow_ups.experiment_of(follow_ups.plugin_of(data), proposal, config,
                                          follow_ups.challenger_text(proposal), proposal.plan.min_effect,
                                          follow_ups.stored_experiments(study))
    first = follow_ups.add_to_study(engine, study_id, experiment)
    second = follow_ups.add_to_study(engine, study_id, experiment)
    keys = _stored_keys(database, study_id)
    engine.dispose()
    assert (first.added, second.added) == (True, False)
    assert keys.count(experiment["key"]) == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_plan_page_says_the_top_points_follow_up(
    filled: dict[str, Path], game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Design plan page lists the follow-up under its point, as the Confusion page
    prefills it, with the definitions of its numbers."""
    database = use_copy(filled[game], tmp_path, monkeypatch)
    study_id = _study_id(game)
    engine = make_engine(f"sqlite:///{database}")
    (proposal, *_) = proposed_follow_ups(load_bundle(engine, study_id).data)
    engine.dispose()
    at = designer_page("report", study_id)
    shown = "\n".join(str(e.value) for e in [*at.code, *at.markdown, *at.caption,
                                             *at.text])
    line = next((text for text in shown.splitlines()
                 if "Follow-up experiment: " in text and proposal.remedy.title in text), "")
    assert line, shown[:3000]
    assert f"{proposal.plan.per_arm} testers per arm" in line
    assert proposal.plan.metric in line
    for definition in follow_ups.DEFINITIONS.values():
        assert definition in shown
