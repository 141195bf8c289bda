"""Upgrading a database that holds data: rows written under an older revision come
through each migration with their meaning kept (SQLite file and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, text
from test_storage_migrations import HEAD

from analytics.data import UNNAMED_GAME
from playtest.storage import repository as repo
from playtest.storage.db import alembic_config, current_revision, make_engine, upgrade


def _old_rows(engine: Engine) -> None:
    """A study, a tester and a game with two actions, as revision 0002 stored them."""
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO studies (study_id, title, game, rules, surveys, experiments, "
            "games_per_tester, allow_more_games, settings, open, created_at_ms) VALUES "
            "('old', 'Old study', 'vapoosh', '\"house\"', '{}', '[]', 2, false, "
            "'{\"seats\": [\"human\", \"ai:easy\"]}', true, 1)"))
        conn.execute(text(
            "INSERT INTO participants (participant_id, study_id, created_at_ms, "
            "consented_at_ms, stage, games_completed) VALUES ('p1', 'old', 1, 1, 'play', 0)"))
        conn.execute(text(
            "INSERT INTO games (game_id, participant_id, rules, seats, seed, created_at_ms, "
            "action_count) VALUES ('g1', 'p1', '\"standard\"', '[\"human\", \"ai:easy\"]', "
            "7, 2, 2)"))
        for idx, action in enumerate(('["roll", [3, 4, 2, 5]]', '["place", [7, 7]]')):
            conn.execute(text("INSERT INTO game_actions (game_id, idx, action, at_ms) "
                              f"VALUES ('g1', {idx}, '{action}', 3)"))


def test_games_stored_before_the_game_column_are_the_first_game(
        empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    try:
        upgrade(engine, "0002")
        _old_rows(engine)
        upgrade(engine)
        assert current_revision(engine) == HEAD
        old = repo.load_game(engine, "g1")
        assert old is not None
        assert (old.game, old.rules, old.actions) == (
            UNNAMED_GAME, "standard", (["roll", [3, 4, 2, 5]], ["place", [7, 7]]))
        # New games say which game they are; the name is kept as given.
        new_id = repo.create_game(engine, "p1", None, "classic", ["human"], 1, game="other")
        assert repo.load_game(engine, new_id).game == "other"  # type: ignore[union-attr]
        assert repo.load_game(engine, repo.create_game(
            engine, "p1", None, "classic", ["human"], 2)).game == UNNAMED_GAME  # type: ignore[union-attr]
    finally:
        engine.dispose()


def test_a_studys_old_setting_columns_become_one_settings_document(
        empty_database_url: str) -> None:
    from playtest import services
    from playtest.study_config import StudyConfig, exchange_fields

    engine = make_engine(empty_database_url)
    try:
        upgrade(engine, "0003")
        _old_rows(engine)
        with engine.begin() as conn:  # an experiment as the old columns held it
            conn.execute(text(
                "UPDATE studies SET experiments = '[{\"key\": \"pace\", \"target\": "
                "\"ui:speed\", \"variants\": [\"slow\", \"fast\"], \"payloads\": "
                "{\"slow\": 1, \"fast\": 3}}]', surveys = '{\"audience\": \"adults\"}'"))
        upgrade(engine)
        study = repo.get_study(engine, "old")
        assert study is not None
        config = services.study_config(study)
        assert config == StudyConfig(
            rules="house", games_per_tester=2, allow_more_games=False, audience="adults",
            seats=["human", "ai:easy"],
            experiments=[{"key": "pace", "target": "ui:speed",  # type: ignore[list-item]
                          "variants": {"slow": 1, "fast": 3}}])
        assert study.experiment_records == [
            {"key": "pace", "target": "ui:speed", "variants": ["slow", "fast"]}]
        # Down and up again: the columns come back as they were, then fold the same.
        with engine.begin() as conn:
            alembic = alembic_config(engine)
            alembic.attributes["connection"] = conn
            command.downgrade(alembic, "0003")
        with engine.connect() as conn:
            row = conn.execute(text("SELECT rules, games_per_tester, experiments FROM studies"
                                    )).one()
        assert row.games_per_tester == 2
        assert "payloads" in (row.experiments if isinstance(row.experiments, str)
                              else str(row.experiments))
        upgrade(engine)
        again = repo.get_study(engine, "old")
        assert again is not None and services.study_config(again) == config
        assert exchange_fields(again.config)["experiments"][0]["payloads"] == {
            "slow": 1, "fast": 3}
    finally:
        engine.dispose()


def test_answers_stored_before_0005_get_the_per_tester_index(empty_database_url: str) -> None:
    """0005 indexes the answers already stored: the change marks read from it are each
    tester's answer count and latest answer time; downgrade drops only the index."""
    from sqlalchemy import inspect

    from playtest.study_snapshot import participant_marks

    engine = make_engine(empty_database_url)
    try:
        upgrade(engine, "0004")
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO studies (study_id, title, game, config, open, created_at_ms) "
                "VALUES ('old', 'Old study', 'vapoosh', '{}', true, 1)"))
            for tester in ("p1", "p2"):
                conn.execute(text(
                    "INSERT INTO participants (participant_id, study_id, created_at_ms, "
                    f"stage, games_completed) VALUES ('{tester}', 'old', 1, 'play', 0)"))
            for tester, item, at in (("p1", "a", 5), ("p1", "b", 9), ("p2", "a", 7)):
                conn.execute(text(
                    "INSERT INTO responses (participant_id, survey, item, study_id, "
                    "survey_version, phase, value, at_ms) VALUES "
                    f"('{tester}', 's', '{item}', 'old', '1', 'pre', '3', {at})"))
        upgrade(engine)
        assert current_revision(engine) == HEAD

        def indexes() -> set[str]:
            return {str(index["name"]) for index in inspect(engine).get_indexes("responses")}

        assert "ix_responses_study_participant_at" in indexes()
        assert participant_marks(engine, "old") == {"p1": (0, 2, 9), "p2": (0, 1, 7)}
        with engine.begin() as conn:
            alembic = alembic_config(engine)
            alembic.attributes["connection"] = conn
            command.downgrade(alembic, "0004")
        assert "ix_responses_study_participant_at" not in indexes()
        assert "ix_responses_study" in indexes()
        assert participant_marks(engine, "old") == {"p1": (0, 2, 9), "p2": (0, 1, 7)}
    finally:
        engine.dispose()
