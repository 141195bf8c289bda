"""The stamp every run of a tester's page reads (``repo.participant_with_study_stamp``):
equal while neither row changed, different after any change of either, on SQLite and
PostgreSQL; and ``services.load_tester`` rebuilds the tester exactly then."""

from __future__ import annotations

from sqlalchemy import Engine

from playtest import services
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig


def test_the_stamp_changes_with_every_change_of_either_row(engine: Engine) -> None:
    study = services.create_study(engine, title="t", study_id="s", config=StudyConfig())
    code = services.consent(engine, study, {"child": False}).participant_id
    other = services.consent(engine, study, {"child": False}).participant_id
    game = repo.create_game(engine, code, None, "standard", ["human", "ai:easy"], 1)
    stamps = [repo.participant_with_study_stamp(engine, code)]
    assert stamps[0] is not None
    assert repo.participant_with_study_stamp(engine, code) == stamps[0]
    assert repo.participant_with_study_stamp(engine, other) != stamps[0]
    for change in (
        lambda: repo.advance_stage(engine, code, "consent", "pre_survey"),
        lambda: repo.finish_game(engine, game, 1, "win", 9),  # games_completed + 1
        lambda: repo.set_attributes(engine, code, age_band="8-10"),
        lambda: repo.update_study(engine, "s", title="renamed"),
        lambda: repo.update_study(engine, "s", config={**study.config, "games_per_tester": 3}),
        lambda: repo.update_study(engine, "s", open=False),
    ):
        change()
        stamp = repo.participant_with_study_stamp(engine, code)
        assert stamp not in stamps
        stamps.append(stamp)
    for bad in ("AAAAAAAAAAAAAAAAAAAAAA", "'; DROP TABLE participants; --", ""):
        assert repo.participant_with_study_stamp(engine, bad) is None


def test_load_tester_rebuilds_only_when_the_stamp_changes(engine: Engine) -> None:
    study = services.create_study(engine, title="t", study_id="s", config=StudyConfig())
    code = services.consent(engine, study, {"child": False}).participant_id
    first = services.load_tester(engine, code)
    assert first is not None and first.stamp is not None
    assert services.load_tester(engine, code, first) is first
    repo.update_study(engine, "s", title="renamed")
    renamed = services.load_tester(engine, code, first)
    assert renamed is not None and renamed is not first and renamed.study.title == "renamed"
    assert services.load_tester(engine, code, renamed) is renamed
