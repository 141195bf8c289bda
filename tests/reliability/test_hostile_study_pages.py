"""Hostile study settings in the app (issue 11 item 1), in AppTest on a real SQLite file.

A study stored before its settings were checked as a whole (here: written straight
through the repository, as an old version of the app did) must not crash a tester: the
tester link and the resume link show "This study is being fixed", nobody is created, and
the Studies page tells the designer why. Text typed on the Studies page that would blow
up (an alias bomb, deep nesting) is refused with a message and stores nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playtest import services  # noqa: E402
from playtest.storage import repository as repo  # noqa: E402
from playtest.storage.models import ParticipantRow  # noqa: E402
from playtest.study_config import StudyConfig, raw_config  # noqa: E402
from tests.databases import app_sqlite  # noqa: E402

APP = str(ROOT / "playtest" / "app.py")
PAGE_APP = str(ROOT / "tests" / "app" / "apps" / "designer_page.py")
PAGE_TEXTS = yaml.safe_load((Path(__file__).parent / "hostile" / "page_texts.yaml").read_text())
TIMEOUT = 30
# Settings the old app stored without complaint; each fails at play (issue 11 item 1).
BROKEN_EXPERIMENTS = {
    "speed_98": {"key": "pace", "target": "ui:speed", "variants": ["A", "B"],
                 "payloads": {"A": 98, "B": 99}},
    "speed_fast": {"key": "pace", "target": "ui:speed", "variants": ["A", "B"],
                   "payloads": {"A": "fast", "B": "slow"}},
    "rules_base": {"key": "r", "target": "rules", "variants": ["A", "B"],
                   "payloads": {"A": {"base": "nonexistent"}, "B": "standard"}},
}


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    with app_sqlite(tmp_path, monkeypatch) as engine:
        yield engine


def _participants(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ParticipantRow)).scalar_one())


def _texts(at: AppTest) -> str:
    parts = [e.value for e in at.title] + [e.value for e in at.markdown]
    parts += [e.value for e in at.error] + [e.value for e in at.text]
    return "\n".join(str(p) for p in parts)


def _stored_form(experiment: dict[str, object]) -> object:
    """An exchange-format experiment record as the study's settings document holds it."""
    return raw_config(rules="standard", games_per_tester=1, allow_more_games=True,
                      experiments=[experiment], surveys={}, settings={})["experiments"][0]


def _store_broken(engine: Engine, experiment: dict[str, object]) -> repo.Study:
    """A study as the old app stored it: valid columns, then a broken experiment."""
    columns = services.study_columns(StudyConfig(ai_think_ms=0, rules="house", speed=3,
                                                 seats=["human", "ai:hard"]))
    columns["config"]["experiments"] = [_stored_form(experiment)]
    return repo.create_study(engine, title="Broken study", study_id="broken", **columns)


@pytest.mark.parametrize("name", sorted(BROKEN_EXPERIMENTS))
def test_a_stored_broken_study_shows_testers_a_calm_page(db: Engine, name: str) -> None:
    study = _store_broken(db, BROKEN_EXPERIMENTS[name])
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["study"] = study.study_id
    at.run()
    assert not at.exception
    assert "This study is being fixed" in _texts(at)
    assert not at.checkbox  # no consent form: nobody can be created into it
    assert _participants(db) == 0


def test_a_tester_of_a_study_broken_later_sees_the_calm_page_on_resume(db: Engine) -> None:
    study = services.create_study(db, title="Fine study", config=StudyConfig(ai_think_ms=0),
                                  study_id="later")
    participant = services.consent(db, study, {"child": False})
    repo.update_study(db, study.study_id, config={
        **study.config, "experiments": [_stored_form(BROKEN_EXPERIMENTS["speed_98"])]})
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["p"] = participant.participant_id
    at.run()
    assert not at.exception
    assert "This study is being fixed" in _texts(at)


def test_the_designer_sees_why_and_can_save_it_fixed(db: Engine) -> None:
    study = _store_broken(db, BROKEN_EXPERIMENTS["speed_fast"])
    at = AppTest.from_file(PAGE_APP, default_timeout=TIMEOUT)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    at.run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any("experiments.0.variants.A: ui:speed must be 1, 2 or 3, not 'fast'" in e
               for e in errors), errors
    # The stored payloads are in the box to correct; a fixed text saves.
    box = at.text_area(key=f"exp-{study.study_id}")
    assert "fast" in box.value
    box.input("- key: pace\n  target: ui:speed\n  variants: {A: 1, B: 3}\n")
    at.button(key=f"FormSubmitter:study-{study.study_id}-Save study").click().run()
    assert not at.exception
    fixed = repo.get_study(db, study.study_id)
    assert fixed is not None
    config = services.study_config(fixed)
    assert config.experiments[0].variants == {"A": 1, "B": 3}
    # the settings that were fine are kept, not replaced by the form's defaults
    assert (config.rules, config.speed, config.seats) == ("house", 3, ["human", "ai:hard"])


@pytest.mark.parametrize("name", sorted(PAGE_TEXTS))
def test_hostile_text_on_the_studies_page_is_refused_with_a_message(db: Engine, name: str) -> None:
    at = AppTest.from_file(PAGE_APP, default_timeout=TIMEOUT)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    at.run()
    at.text_input(key="title-new").input("Hostile")
    at.text_area(key="exp-new").input(PAGE_TEXTS[name]["text"])
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    assert not at.exception
    errors = "\n".join(e.value for e in at.error)
    assert "Not saved: " + PAGE_TEXTS[name]["message"] in errors, errors
    assert repo.list_studies(db) == []


def test_a_hostile_rules_text_is_refused_with_a_message(db: Engine) -> None:
    at = AppTest.from_file(PAGE_APP, default_timeout=TIMEOUT)
    at.query_params["page"] = "studies"
    at.session_state["designer_signed_in"] = True
    at.run()
    at.text_input(key="title-new").input("Hostile rules")
    at.text_input(key="rules-new").input('{"a":' * 3000 + "1" + "}" * 3000)
    at.button(key="FormSubmitter:study-new-Create study").click().run()
    assert not at.exception
    assert any("Not saved: rules: nested deeper than" in e.value for e in at.error)
    assert repo.list_studies(db) == []


def test_playtest_demo_into_a_broken_study_says_so_in_one_line(
    db: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    from playtest.cli import main
    from playtest.storage.db import dispose_engines

    _store_broken(db, BROKEN_EXPERIMENTS["speed_fast"])
    try:
        status = main(["demo", "--testers", "1", "--study", "broken"])
    finally:
        dispose_engines()
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert err.strip() == ("playtest: error: study broken: fix its settings on the Studies page "
                           "first (experiments.0.variants.A: ui:speed must be 1, 2 or 3, "
                           "not 'fast')")
    assert _participants(db) == 0
