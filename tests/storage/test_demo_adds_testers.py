"""``playtest demo --testers N --study ID`` adds testers to a study that has some.

It used to draw every tester's seed from ``--seed`` alone, so a second run (or a run on
another study) made the same session ids again and the import refused them. Runs on a
SQLite file and on PostgreSQL (``engine`` fixture).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select

from analytics.data import UNNAMED_GAME
from engine.core import GameRecord
from playtest import demo, services
from playtest.games.registry import game_names, game_plugin
from playtest.storage import repository as repo
from playtest.storage.models import assignments, events, participants, responses
from playtest.storage.privacy import delete_participant
from playtest.study_config import StudyConfig
from tests.cli_command import run_cli


def _participants(engine: Engine, study_id: str) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(select(participants.c.participant_id)
                                 .where(participants.c.study_id == study_id)).scalars())


def _arms(engine: Engine, study_id: str) -> dict[str, Counter[str]]:
    with engine.connect() as conn:
        rows = conn.execute(select(assignments.c.experiment, assignments.c.variant)
                            .where(assignments.c.study_id == study_id)).all()
    arms: dict[str, Counter[str]] = {}
    for experiment, variant in rows:
        arms.setdefault(experiment, Counter())[variant] += 1
    return arms


def test_a_second_demo_run_adds_testers_to_the_same_study(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: object,
) -> None:
    monkeypatch.chdir(str(tmp_path))
    status, out, err = run_cli(engine, monkeypatch, capsys, "demo", "--testers", "5")
    assert status == 0, err
    # The same seed again, on the same study: new testers, not a refused import.
    status, out, err = run_cli(engine, monkeypatch, capsys,
                            "demo", "--testers", "3", "--study", "demo")
    assert status == 0, err
    assert "added 0 studies, 3 participants" in out
    status, out, err = run_cli(engine, monkeypatch, capsys,
                            "demo", "--testers", "3", "--study", "demo", "--seed", "1")
    assert status == 0, err
    codes = _participants(engine, "demo")
    assert len(codes) == len(set(codes)) == 11
    with engine.connect() as conn:
        sessions = conn.execute(select(events.c.session_id, events.c.participant_id)
                                .distinct()).all()
    owners = Counter(session for session, _ in sessions)
    assert all(n == 1 for n in owners.values()), "a session is shared by two testers"
    # The experiments stay balanced over all 11 testers (6/5), not per run (3/2 + 2/1 …).
    for counts in _arms(engine, "demo").values():
        assert sum(counts.values()) == 11 and max(counts.values()) - min(counts.values()) <= 1


def test_two_studies_filled_with_the_same_seed_do_not_collide(engine: Engine) -> None:
    demo.generate(engine, 4, seed=3, workers=1)
    pilot = services.create_study(engine, title="Pilot", study_id="pilot",
                                  config=StudyConfig(audience="adults"))
    report = demo.generate(engine, 4, seed=3, study=pilot, workers=1)
    assert report.added["participant"] == 4
    assert not set(_participants(engine, "demo")) & set(_participants(engine, "pilot"))


def test_testers_added_after_a_deletion_take_new_places_and_arrive_in_the_past(
    engine: Engine,
) -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    demo.generate(engine, 4, seed=5, workers=1, now=now)
    first = sorted(_participants(engine, "demo"))
    delete_participant(engine, first[1])  # the count drops to 3: place 3 is still taken
    demo.generate(engine, 2, seed=5, workers=1, now=now)
    codes = sorted(_participants(engine, "demo"))
    assert len(codes) == 5 and first[1] not in codes
    assert [code.split("-")[1] for code in codes[-2:]] == ["000004", "000005"]
    for code in codes:
        participant = repo.get_participant(engine, code)
        assert participant is not None and participant.created_at.replace(tzinfo=UTC) < now


@pytest.mark.parametrize("game", [name for name in game_names() if name != UNNAMED_GAME])
def test_a_demo_run_fills_another_game_s_study_with_whole_clicked_games(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: object, game: str,
) -> None:
    """Every game's demo study gets testers who play whole games of that game by clicks:
    refused clicks carry the engine's refusal reason, each game's record replays to its
    end, and the surveys and the experiment's arms are there."""
    monkeypatch.chdir(str(tmp_path))
    study = {s.game: s for s in demo.ensure_game_demo_studies(engine)}[game]
    status, out, err = run_cli(engine, monkeypatch, capsys,
                            "demo", "--testers", "8", "--study", study.study_id)
    assert status == 0, err
    assert "8 participants" in out
    assert len(_participants(engine, study.study_id)) == 8
    with engine.connect() as conn:
        rows = conn.execute(select(events.c.type, events.c.props, events.c.game_id)
                            .join(participants,
                                  participants.c.participant_id == events.c.participant_id)
                            .where(participants.c.study_id == study.study_id)
                            .order_by(events.c.session_id, events.c.seq)).all()
        answered = conn.execute(select(responses.c.participant_id).distinct()
                                .join(participants, participants.c.participant_id
                                      == responses.c.participant_id)
                                .where(participants.c.study_id == study.study_id)).all()
    assert len(answered) == 8
    starts = [props for kind, props, _ in rows if kind == "game_start"]
    assert starts and all(p["game"] == game for p in starts)
    clicks = [props for kind, props, _ in rows if kind == "click"]
    refused = [c for c in clicks if c["ok"] is False]
    assert refused and all(c["reason"] for c in refused)
    ends = [props for kind, props, _ in rows if kind == "game_end"]
    assert len(ends) == len(starts)
    # Each tester plays the demo study's games (a game's demo_settings hook may ask for
    # more than one, e.g. a course of stages).
    assert len(starts) >= 8 * study.config.get("games_per_tester", 1)
    for start, end in zip(starts, ends, strict=True):
        record = GameRecord(game, start["rules"], len(start["seats"]), tuple(end["record"]))
        final = record.replay()
        assert final.is_terminal()
        assert end["turns"] == len(end["record"])
    # An experiment on highlighting only where the game's board uses the setting: on a
    # board that ignores it the arms would look the same. Every experiment of the demo
    # study (a game's demo_settings may add its own) splits the testers evenly.
    arms = _arms(engine, study.study_id)
    assert ("highlight" in arms) == (game_plugin(game).ui_setting("highlight_options") is not None)
    assert set(arms) == {e["key"] for e in study.config.get("experiments", [])}
    for split in arms.values():
        assert sorted(split.values()) == [4, 4]


def test_playtest_up_fills_every_game_s_demo_study(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: object,
) -> None:
    """``playtest up`` fills the first game's demo study and each other game's (then
    starts Streamlit: the exec is where this test stops it)."""
    import os

    monkeypatch.chdir(str(tmp_path))
    started: list[list[str]] = []

    def no_exec(path: str, argv: list[str]) -> None:
        started.append(argv)

    monkeypatch.setattr(os, "execvp", no_exec)
    # (serving sets uvicorn's FORWARDED_ALLOW_IPS before its exec: undone after)
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
    status, out, err = run_cli(engine, monkeypatch, capsys, "up", "--testers", "3")
    assert status == 0, err
    assert started and "streamlit" in started[0]
    assert len(_participants(engine, demo.DEMO_STUDY_ID)) == 3
    for study in demo.ensure_game_demo_studies(engine):
        assert len(_participants(engine, study.study_id)) == 3, study.study_id
        assert f"{study.title}: imported 3 simulated testers" in out
    # A second start adds no testers to studies that have some.
    status, out, err = run_cli(engine, monkeypatch, capsys, "up", "--testers", "3")
    assert status == 0, err
    assert "simulated testers" not in out
