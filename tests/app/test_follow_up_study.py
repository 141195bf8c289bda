"""The Confusion page's "Start a follow-up study", for each game's demo study filled with
simulated testers (AppTest on a real SQLite file): from the top rule confusion it makes
version 2 of the study's family with the prefilled experiment (its ``targets`` the
point), shows the new study's tester link and its place in the family, makes one study
however often it is pressed, and the Studies page lists each study's family and version."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics.text_safety import markdown_literal
from playtest import follow_ups, services
from playtest.games.registry import game_names
from playtest.storage import repository as repo
from playtest.storage.db import make_engine
from tests.app.designer_support import demo_databases, designer_page, use_copy
from tests.app.test_confusion_follow_up import _study_id, _texts, _top_rule_point

GAMES = sorted(game_names())


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per game a database with its demo study and 10 simulated testers (made once)."""
    return demo_databases(tmp_path_factory, GAMES, testers=10, seed=3)


def _studies(database: Path) -> list[repo.Study]:
    engine = make_engine(f"sqlite:///{database}")
    try:
        return repo.list_studies(engine)
    finally:
        engine.dispose()


@pytest.mark.parametrize("game", GAMES)
def test_start_a_follow_up_study_from_the_top_rule_confusion(
    filled: dict[str, Path], game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = use_copy(filled[game], tmp_path, monkeypatch)
    study_id = _study_id(game)
    point = _top_rule_point(database, study_id)
    key = follow_ups.follow_up_key(point)
    before = {s.study_id: s for s in _studies(database)}

    at = designer_page("confusion", study_id)
    assert follow_ups.CHOICES in _texts(at)  # what each of the two buttons does
    start = at.button(key=f"fu-start-{key}")
    assert start.label == "Start a follow-up study"
    start.click().run()
    assert not at.exception, at.exception

    after = {s.study_id: s for s in _studies(database)}
    (new_id,) = set(after) - set(before)
    made = after[new_id]
    assert made.open and made.game == game
    assert (services.family_id(made), services.family_version(made)) == (study_id, 2)
    config = services.study_config(made)
    (experiment,) = [e for e in config.experiments if e.key == key]
    assert experiment.targets == point
    assert experiment.primary_metric == f"trouble:{point}"
    assert list(experiment.variants) == [follow_ups.CONTROL, follow_ups.CHALLENGER]
    # the study it follows is kept as it is
    assert after[study_id] == before[study_id]
    # the new study's tester link and its place in the family are shown
    assert any(str(c.value).endswith(f"/?study={new_id}") for c in at.code), \
        [str(c.value) for c in at.code]
    shown = _texts(at)
    assert markdown_literal(f"Version 2 of family {study_id}") in shown, shown[-2000:]
    assert markdown_literal(f"Started the follow-up study {new_id}") in shown

    start.click().run()  # a second press (a double click, a second tab) makes nothing
    assert not at.exception, at.exception
    assert {s.study_id for s in _studies(database)} == set(after)
    assert markdown_literal("was started already") in _texts(at)

    # a fresh visit of the page says the follow-up runs already, with its link
    again = designer_page("confusion", study_id)
    assert any(str(c.value).endswith(f"/?study={new_id}") for c in again.code)

    studies = designer_page("studies", study_id)
    labels = [str(e.label) for e in studies.expander]
    assert any(new_id in label and "version 2" in label for label in labels), labels
    captions = [str(c.value) for c in studies.caption]
    assert markdown_literal(f"Version 2 of family {study_id}") in captions
    assert markdown_literal(f"Version 1 of family {study_id}") in captions

    # saving the follow-up on the Studies page keeps its family and version
    studies.button(key=f"FormSubmitter:study-{new_id}-Save study").click().run()
    assert not studies.exception, studies.exception
    assert "Saved." in [str(s.value) for s in studies.success]
    saved = {s.study_id: s for s in _studies(database)}[new_id]
    assert (services.family_id(saved), services.family_version(saved)) == (study_id, 2)
