"""Every stored game says which game it is: the study, the games table, ``game_start``,
the export; an export from before games were named imports as the first game."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Engine

from analytics.data import UNNAMED_GAME
from playtest import services
from playtest.games.registry import game_names
from playtest.replay import games_of, replay_steps
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.storage.exchange import export_jsonl, import_jsonl
from playtest.storage.models import events
from playtest.study_config import StudyConfig
from tests.app.session_support import one_move, open_play


def _played(db: Engine, game: str) -> tuple[repo.Study, str, str]:
    study = services.create_study(db, title="Named", study_id="named",
                                  config=StudyConfig(game=game, ai_think_ms=0))
    tester = services.load_tester(db, services.consent(db, study, {"child": False})
                                  .participant_id)
    assert tester is not None
    session = open_play(db, tester, seed=5)
    one_move(session)
    session.abandon("left")
    return study, tester.code, session.play.game_id


def test_a_study_its_games_and_their_events_name_the_game(db: Engine) -> None:
    for game in game_names()[:1]:
        study, code, game_id = _played(db, game)
        assert repo.get_study(db, study.study_id).game == game  # type: ignore[union-attr]
        assert services.study_config(study).game == game
        assert repo.load_game(db, game_id).game == game  # type: ignore[union-attr]
        with db.connect() as conn:
            start = conn.execute(select(events.c.props).where(
                events.c.type == "game_start")).scalar_one()
        assert start["game"] == game


def test_export_carries_the_game_and_an_old_export_imports_as_the_first_game(
        db: Engine, tmp_path: Path) -> None:
    study, code, _ = _played(db, UNNAMED_GAME)
    out = tmp_path / "named.jsonl"
    export_jsonl(db, study.study_id, out)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["game"] == UNNAMED_GAME
    assert [r["props"]["game"] for r in records if r.get("type") == "game_start"] == [
        UNNAMED_GAME]
    # An export written before games were named: no "game" anywhere.
    for record in records:
        record.pop("game", None)
        if record.get("type") == "game_start":
            record["props"].pop("game")
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(r) + "\n" for r in records))
    fresh = make_engine(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    upgrade(fresh)
    try:
        report = import_jsonl(fresh, old)
        assert report.added["study"] == 1
        assert repo.get_study(fresh, study.study_id).game == UNNAMED_GAME  # type: ignore[union-attr]
        (imported,) = games_of(fresh, code)
        assert imported.game == UNNAMED_GAME
        assert replay_steps(fresh, imported)  # replays through the registry
    finally:
        fresh.dispose()


def test_a_study_of_an_unknown_game_is_refused_with_the_known_ones() -> None:
    from playtest.study_config import StudyConfigError, parse_study_config

    try:
        parse_study_config({"game": "chess"})
    except StudyConfigError as err:
        assert str(err) == f"game: unknown game 'chess' (known: {', '.join(game_names())})"
    else:  # pragma: no cover - the assertion below says what went wrong
        raise AssertionError("a study of an unregistered game was accepted")


def test_every_registered_game_has_a_demo_study(db: Engine) -> None:
    from playtest import demo
    from playtest.games.registry import games

    first = demo.ensure_demo_study(db)
    assert first.game == UNNAMED_GAME
    assert [s.study_id for s in repo.list_studies(db)] == [first.study_id]
    others = {s.game: s for s in demo.ensure_game_demo_studies(db)}
    assert set(others) == set(game_names()) - {UNNAMED_GAME}
    for plugin in games()[1:]:
        study = others[plugin.name]
        config = services.study_config(study)  # valid for its game
        assert (config.game, config.rules) == (plugin.name, plugin.default_rules)
        assert config.pre_survey == plugin.pre_survey
    assert demo.ensure_game_demo_studies(db) == list(others.values())  # created once
