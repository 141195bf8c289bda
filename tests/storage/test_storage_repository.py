"""Studies, participants, games (resume), responses and balanced, sticky assignments."""

from __future__ import annotations

import random
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine, select

from playtest.storage import repository as repo
from playtest.storage.db import make_engine
from playtest.storage.errors import ConflictError
from playtest.storage.models import exposures


def _study(engine: Engine, **kwargs: object) -> repo.Study:
    return repo.create_study(engine, title="Pilot", study_id="s1", **kwargs)  # type: ignore[arg-type]


def test_study_round_trip_update_and_counts(engine: Engine) -> None:
    study = _study(
        engine,
        config={"rules": {"preset": "standard"}, "games_per_tester": 3,
                "experiments": [{"key": "m", "variants": {"B": "formal", "A": "default"},
                                 "target": "message:extra_turn"}]},
    )
    assert repo.get_study(engine, "s1") == study
    # The settings document keeps its order (JSON text, also on PostgreSQL).
    assert study.experiment_records == [
        {"key": "m", "target": "message:extra_turn", "variants": ["B", "A"]}]
    changed = repo.update_study(engine, "s1", open=False, title="Pilot 2")
    assert (changed.open, changed.title, changed.config["games_per_tester"]) == (
        False, "Pilot 2", 3)
    assert [s.study_id for s in repo.list_studies(engine)] == ["s1"]
    with pytest.raises(ConflictError):
        _study(engine)
    tester = repo.create_consented_participant(engine, "s1", {"adult": True})
    repo.advance_stage(engine, tester.participant_id, "consent", "pre_survey")
    counts = repo.study_counts(engine, "s1")
    assert (counts.participants, counts.by_stage["pre_survey"], counts.completed) == (1, 1, 0)


def test_participant_codes_stages_and_completion(engine: Engine) -> None:
    _study(engine)
    tester = repo.create_consented_participant(engine, "s1", {"child": True, "parent": True})
    pid = tester.participant_id
    assert tester.consented_at is not None and len(pid) >= 20
    assert repo.get_participant(engine, pid[:-1] + ("A" if pid[-1] != "A" else "B")) is None
    assert repo.get_participant(engine, "'; drop table participants; --") is None
    assert repo.advance_stage(engine, pid, "consent", "pre_survey") == "pre_survey"
    assert repo.advance_stage(engine, pid, "consent", "pre_survey") == "pre_survey"  # repeat
    assert repo.advance_stage(engine, pid, "pre_survey", "play") == "play"
    assert repo.advance_stage(engine, pid, "consent", "pre_survey") == "play"  # never back
    with pytest.raises(ConflictError):
        repo.advance_stage(engine, pid, "post_survey", "done")  # would skip post_survey
    with pytest.raises(ValueError):
        repo.advance_stage(engine, pid, "play", "consent")
    code = repo.set_completion_code(engine, pid)
    assert repo.set_completion_code(engine, pid) == code
    assert repo.get_participant(engine, pid).completion_code == code  # type: ignore[union-attr]


def test_game_resumes_from_its_record_after_a_restart(empty_database_url: str) -> None:
    from playtest.storage.db import upgrade

    engine = make_engine(empty_database_url)
    upgrade(engine)
    _study(engine)
    pid = repo.create_consented_participant(engine, "s1", {}).participant_id
    session = repo.start_session(engine, pid)
    rules = {"preset": "standard", "options": {"brown": True}}
    game = repo.create_game(engine, pid, session, rules, ["human", "ai:easy"], 1234)
    actions = [{"dice": [3, 4, 2, 6]}, {"tile": [2, 5]}, {"dice": [1, 1, 5, 5]}]
    for index, action in enumerate(actions):
        assert repo.append_game_action(engine, game, index, action) is True
    assert repo.append_game_action(engine, game, 1, {"tile": [2, 5]}) is False  # double send
    with pytest.raises(ConflictError):
        repo.append_game_action(engine, game, 1, {"tile": [9, 9]})
    with pytest.raises(ConflictError):
        repo.append_game_action(engine, game, 7, {"tile": [0, 0]})  # gap
    engine.dispose()  # "server restart": a new engine, nothing in memory

    engine = make_engine(empty_database_url)
    record = repo.latest_unfinished_game(engine, pid)
    assert record is not None
    assert (record.game_id, record.rules, record.seats, record.seed) == (
        game,
        rules,
        ["human", "ai:easy"],
        1234,
    )
    assert list(record.actions) == actions
    assert repo.finish_game(engine, game, 0, "vapoosh", 17) is True
    assert repo.finish_game(engine, game, 0, "vapoosh", 17) is False
    assert repo.latest_unfinished_game(engine, pid) is None
    assert repo.get_participant(engine, pid).games_completed == 1  # type: ignore[union-attr]
    finished = repo.load_game(engine, game)
    assert finished is not None and finished.finished and finished.turns == 17
    with pytest.raises(ConflictError):
        repo.append_game_action(engine, game, 3, {"late": True})
    engine.dispose()


def test_responses_resubmit_updates_and_keeps_page_time(engine: Engine) -> None:
    _study(engine)
    pid = repo.create_consented_participant(engine, "s1", {}).participant_id
    repo.save_responses(engine, pid, "sus", "1", "abc", "post", "p1", {"q1": 4, "q2": "ok"}, 9.5)
    repo.save_responses(engine, pid, "sus", "1", "abc", "post", "p1", {"q1": 5}, 11.0)
    repo.save_responses(
        engine, pid, "sus", "1", "abc", "post", "p2", {"q3": [1, 2], "q4": None}, 3.0
    )
    assert repo.load_responses(engine, pid, "sus") == {
        "q1": 5,
        "q2": "ok",
        "q3": [1, 2],
        "q4": None,
    }
    assert repo.page_timings(engine, pid, "sus") == {"p1": 11.0, "p2": 3.0}
    with pytest.raises(ValueError):
        repo.save_responses(engine, pid, "sus", "1", None, "during", None, {"q": 1}, None)


def test_assignments_are_sticky_and_balanced_under_concurrency(engine: Engine) -> None:
    _study(engine)
    testers = [
        repo.create_consented_participant(engine, "s1", {}).participant_id for _ in range(24)
    ]
    start = threading.Barrier(8)
    local = threading.local()

    def assign(pid: str) -> str:
        if not getattr(local, "ready", False):
            local.ready = True
            start.wait()
        rng = random.Random(pid)
        return repo.assign_balanced(engine, "s1", pid, "msg", ["A", "B", "C"], rng)

    with ThreadPoolExecutor(max_workers=8) as pool:
        variants = list(pool.map(assign, testers))
    assert Counter(variants) == {"A": 8, "B": 8, "C": 8}
    # Sticky: asking again (any rng) returns the stored variant.
    again = [
        repo.assign_balanced(engine, "s1", pid, "msg", ["A", "B", "C"], random.Random(99))
        for pid in testers
    ]
    assert again == variants
    repo.log_exposure(engine, testers[0], "msg", variants[0], {"screen": "play"})
    with engine.connect() as conn:
        stored = conn.execute(
            select(exposures.c.participant_id, exposures.c.experiment, exposures.c.variant)
        ).all()
    assert [tuple(row) for row in stored] == [(testers[0], "msg", variants[0])]
