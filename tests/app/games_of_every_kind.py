"""A study whose games ended every way: played out, restarted, left, still going, and
imported (the demo's: only events, no rows in the games table). For the Studies page's
counts and the Replay page's labels."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Engine

from playtest import demo, services
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig
from tests.app.session_support import moves, open_play, play_out


@dataclass(frozen=True)
class MixedGames:
    study: repo.Study
    app_tester: str  # played one game out, restarted one, left one
    waiting_tester: str  # one game still going
    played_out: str
    restarted: str
    left: str
    in_progress: str


def mixed_games(engine: Engine, imported_testers: int = 4) -> MixedGames:
    demo.generate(engine, imported_testers, seed=2, workers=1)  # another study's games
    study = services.create_study(engine, title="Mixed", study_id="mixed",
                                  config=StudyConfig(seats=["human", "ai:easy"], ai_think_ms=0))
    demo.generate(engine, imported_testers, seed=2, study=study, workers=1)
    first = services.load_tester(engine, services.consent(
        engine, study, {"child": False}).participant_id)
    assert first is not None
    session = repo.start_session(engine, first.code)
    done = open_play(engine, first, seed=11, session_id=session)
    play_out(done)
    restarted = open_play(engine, first, seed=12, session_id=session)
    moves(restarted, 4)
    restarted.abandon("restarted")
    left = open_play(engine, first, seed=13, session_id=session)
    moves(left, 2)
    left.abandon("left")
    second = services.load_tester(engine, services.consent(
        engine, study, {"child": False}).participant_id)
    assert second is not None
    going = open_play(engine, second, seed=14)
    moves(going, 4)
    return MixedGames(study, first.code, second.code, done.play.game_id,
                      restarted.play.game_id, left.play.game_id, going.play.game_id)
