"""Opening a tester's Vapoosh! game: the one in progress, rebuilt from its stored record,
or a new one with the study's rules and seats (its ``games`` row and ``game_start``
first). The play screen (:mod:`playtest.games.vapoosh.play`), the demo and the tests
open games through it.
"""

from __future__ import annotations

import secrets

from sqlalchemy.engine import Engine

from playtest import services
from playtest.games.vapoosh.controller import PlayController
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger


def open_game(engine: Engine, logger: EventLogger, tester: services.Tester, session_id: str,
              *, new: bool = False, seed: int | None = None) -> PlayController:
    """The tester's game in progress (rebuilt from its record), or a new one."""
    record = None if new else repo.latest_unfinished_game(engine, tester.code)
    if record is None:
        seed = secrets.randbits(31) if seed is None else seed
        rules = tester.effective.rules
        game = tester.effective.game
        game_id = repo.create_game(engine, tester.code, session_id, rules,
                                   tester.effective.seats, seed, game=game)
        sink = services.DbGameSink(engine, logger, participant_id=tester.code,
                                   session_id=session_id, game_id=game_id)
        controller = PlayController(game_id=game_id, rules=rules, game=game,
                                    seats=tester.effective.seats, seed=seed, actions=(),
                                    sink=sink, clock_ms=services.now_ms,
                                    highlight=tester.effective.highlight_options,
                                    participant_id=tester.code)
        sink.log("game_start", {"game_id": game_id, "game": game,
                                "rules": controller.game.rules_obj(),
                                "seats": list(tester.effective.seats), "seed": seed})
        controller.start()
        return controller
    sink = services.DbGameSink(engine, logger, participant_id=tester.code,
                               session_id=session_id, game_id=record.game_id)
    controller = PlayController(game_id=record.game_id, game=record.game,
                                rules=record.rules, seats=record.seats,
                                seed=int(record.seed or 0), actions=record.actions, sink=sink,
                                clock_ms=services.now_ms,
                                highlight=tester.effective.highlight_options,
                                participant_id=tester.code)
    controller.start()
    return controller
