"""The Studies page's game counts: every game (the app's and imported ones) by how it
ended, on a SQLite file and on PostgreSQL (the reason is read from JSON in SQL)."""

from __future__ import annotations

from sqlalchemy import Engine

from playtest.storage import repository as repo
from playtest.storage.exchange import load_study_data
from playtest.storage.game_counts import game_counts
from tests.app.games_of_every_kind import mixed_games


def test_games_are_counted_from_events_by_how_they_ended(engine: Engine) -> None:
    mixed = mixed_games(engine)
    counts = game_counts(engine, "mixed")
    # Independently: the study's events as the exchange format gives them.
    events = load_study_data(engine, "mixed").events
    starts = events[events["type"] == "game_start"]
    reasons = [props["reason"] for props in events[events["type"] == "game_end"]["props"]]
    assert counts.started == len(starts)
    assert counts.testers == starts["participant_id"].nunique() == 6
    assert counts.restarted == reasons.count("restarted") >= 1
    assert counts.left == reasons.count("left") >= 1
    assert counts.played_out == len([r for r in reasons if r not in ("restarted", "left")])
    assert counts.in_progress == 1  # the second app tester's game
    # The old count (rows of the games table) saw only the app's own games.
    old = repo.study_counts(engine, "mixed").games_finished
    assert old == 3 and counts.played_out > old - 2
    assert counts.started > repo.study_counts(engine, "mixed").games_started
    # Another study's games are not counted here, nor these there.
    other = game_counts(engine, "demo")
    assert other.started == len(load_study_data(engine, "demo").events.query(
        "type == 'game_start'"))
    assert mixed.app_tester not in set(load_study_data(engine, "demo").participants[
        "participant_id"])


def test_a_study_without_games_counts_zero(engine: Engine) -> None:
    repo.create_study(engine, title="Empty", study_id="empty")
    counts = game_counts(engine, "empty")
    assert (counts.started, counts.played_out, counts.in_progress, counts.testers) == (
        0, 0, 0, 0)
    assert counts.summary().startswith("0 games started by 0 testers")
