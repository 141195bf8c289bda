"""Finding or starting a tester's game in the database (no Streamlit): the game in
progress rebuilt from its stored record, or a new one with the study's rules and seats
(its ``games`` row first; its ``game_start`` through the session).

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage.events import EventLogger
>>> from playtest import services
>>> from playtest.study_config import StudyConfig
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> study = services.create_study(engine, title="T", study_id="t", config=StudyConfig())
>>> code = services.consent(engine, study, {"child": False}).participant_id
>>> tester = services.load_tester(engine, code)
>>> s1 = repo.start_session(engine, code)
>>> opened = open_session(engine, EventLogger(engine), tester, s1)
>>> opened.play.actions == [] and opened.play.game_name == tester.config.game
True
>>> again = open_session(engine, EventLogger(engine), tester, s1)
>>> again.play.game_id == opened.play.game_id  # resumed, not a second game
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Engine

from playtest import services
from playtest.games.registry import game_plugin
from playtest.session.play import Play
from playtest.session.session import AT_ONCE, GameSession, Pace, Wording
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger


def settings_of(tester: services.Tester) -> dict[str, Any]:
    """The tester's display settings (the study's, with their experiment arms)."""
    effective = tester.effective
    return {"highlight_options": effective.highlight_options,
            "show_computer_dice": effective.show_computer_dice, "speed": effective.speed}


def sink_for(engine: Engine, logger: EventLogger, tester: services.Tester, session_id: str,
             game_id: str) -> services.DbGameSink:
    return services.DbGameSink(engine, logger, participant_id=tester.code,
                               session_id=session_id, game_id=game_id)


def session_of(engine: Engine, logger: EventLogger, tester: services.Tester,
               session_id: str, play: Play,
               settings: Mapping[str, Any] | None = None) -> GameSession:
    """The session of a play the page kept (its sink, the tester's wording and settings)."""
    return GameSession(game_plugin(play.game_name), play,
                       sink_for(engine, logger, tester, session_id, play.game_id),
                       wording=Wording.of(tester.effective),
                       settings=settings_of(tester) if settings is None else settings)


def replayed(record: repo.GameRecord) -> Play:
    """A stored game rebuilt from its record."""
    return Play.replayed(game_plugin(record.game), game_id=record.game_id,
                         participant_id=record.participant_id, seats=record.seats,
                         seed=int(record.seed or 0), rules=record.rules,
                         actions=record.actions, finished=record.finished)


def next_rules(engine: Engine, tester: services.Tester) -> Any:
    """The rules of the tester's next game: the study's (with their arm), or what the game
    makes of them and the tester's finished games (a game of stages)."""
    plugin = game_plugin(tester.config.game)
    if plugin.next_rules is None:
        return tester.effective.rules
    return plugin.next_rules(tester.effective.rules, finished_records(engine, tester))


def finished_records(engine: Engine, tester: services.Tester) -> list[tuple[Any, str | None]]:
    """The ``(rules, reason)`` of the tester's finished games of the study's game, oldest
    first: what a game of stages makes its next game and its progress from."""
    plugin = game_plugin(tester.config.game)
    return [(r.rules, r.reason) for r in repo.list_games(engine, tester.code)
            if r.game == plugin.name and r.finished]


def open_session(engine: Engine, logger: EventLogger, tester: services.Tester,
                 session_id: str, *, new: bool = False, rules: Any = None,
                 seed: int | None = None, pace: Pace = AT_ONCE,
                 settings: Mapping[str, Any] | None = None) -> GameSession:
    """The tester's game in progress (rebuilt from its record), or with ``new`` (or none
    in progress) a new one: ``rules`` (default :func:`next_rules`), the study's seats,
    a random seed (or ``seed``)."""
    plugin = game_plugin(tester.config.game)
    record = None if new else repo.latest_unfinished_game(engine, tester.code)
    if record is not None and record.game == plugin.name:
        session = session_of(engine, logger, tester, session_id, replayed(record), settings)
        session.resume(pace=pace)
        return session
    seed = secrets.randbits(31) if seed is None else seed
    rules = next_rules(engine, tester) if rules is None else rules
    seats = list(tester.effective.seats)
    game_id = repo.create_game(engine, tester.code, session_id, rules, seats, seed,
                               game=plugin.name)
    play = Play.new(plugin, game_id=game_id, participant_id=tester.code, seats=seats,
                    seed=seed, rules=rules)
    session = session_of(engine, logger, tester, session_id, play, settings)
    session.start(pace=pace)
    return session


def games_left(engine: Engine, tester: services.Tester) -> bool:
    """Whether the study's games are not all played yet."""
    return services.games_finished(engine, tester) < tester.config.games_per_tester
