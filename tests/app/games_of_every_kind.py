"""A study whose games ended every way: played out, restarted, left, still going, and
imported (the demo's: only events, no rows in the games table). For the Studies page's
counts and the Replay page's labels."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Engine

from playtest import demo, services
from playtest.games.vapoosh.controller import PlayController
from playtest.games.vapoosh.session import open_game
from playtest.storage import repository as repo
from playtest.storage.events import EventLogger
from playtest.study_config import StudyConfig


@dataclass(frozen=True)
class MixedGames:
    study: repo.Study
    app_tester: str  # played one game out, restarted one, left one
    waiting_tester: str  # one game still going
    played_out: str
    restarted: str
    left: str
    in_progress: str


def play_out(ctrl: PlayController) -> None:
    for _ in range(3000):
        if ctrl.is_over:
            return
        if ctrl.state.phase == "roll":
            ctrl.roll()
        else:
            ctrl.click(*ctrl.legal_tiles()[0], brown=ctrl.brown_choice() == "forced")
        ctrl.play_computers()
    raise AssertionError("the game did not end")


def _moves(ctrl: PlayController, turns: int) -> None:
    for _ in range(turns):
        ctrl.roll()
        ctrl.click(*ctrl.legal_tiles()[0], brown=ctrl.brown_choice() == "forced")
        ctrl.play_computers()


def mixed_games(engine: Engine, imported_testers: int = 4) -> MixedGames:
    demo.generate(engine, imported_testers, seed=2, workers=1)  # another study's games
    logger = EventLogger(engine)
    study = services.create_study(engine, title="Mixed", study_id="mixed",
                                  config=StudyConfig(seats=["human", "ai:easy"], ai_think_ms=0))
    demo.generate(engine, imported_testers, seed=2, study=study, workers=1)
    first = services.load_tester(engine, services.consent(
        engine, study, {"child": False}).participant_id)
    assert first is not None
    session = repo.start_session(engine, first.code)
    done = open_game(engine, logger, first, session, seed=11, new=True)
    play_out(done)
    restarted = open_game(engine, logger, first, session, seed=12, new=True)
    _moves(restarted, 2)
    restarted.abandon("restarted")
    left = open_game(engine, logger, first, session, seed=13, new=True)
    _moves(left, 1)
    left.abandon("left")
    second = services.load_tester(engine, services.consent(
        engine, study, {"child": False}).participant_id)
    assert second is not None
    going = open_game(engine, logger, second, repo.start_session(engine, second.code),
                               seed=14, new=True)
    _moves(going, 2)
    return MixedGames(study, first.code, second.code, done.game_id, restarted.game_id,
                      left.game_id, going.game_id)
