"""Dokusen's play step in AppTest (the one board shell and game session, with the
plug-in's view, words and stages), and the platform taking a game's default seats from its
plug-in (Dokusen has one seat). A tester's placement stored by another tab is replayed
on reload, and the stage's computer colour answers it, stored before it is shown, with
the engine's events logged for the analytics. (Clicks inside the board component are
the browser's to test.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from analytics.data import UNNAMED_GAME
from engine.core import GameRecord
from engine.players import make_player
from playtest import demo, services
from playtest.games.registry import game_plugin
from playtest.session.session import decision_seed
from playtest.storage import repository as repo
from playtest.storage.models import EventRow
from playtest.study_config import StudyConfig
from tests.app.tester_support import board_shown, open_as, playing_tester, stored_events


def test_a_one_seat_game_takes_its_default_seats_from_its_plug_in(db: Engine) -> None:
    plugin = game_plugin("dokusen")
    assert plugin.default_seats == ("human",)
    assert StudyConfig(game="dokusen").seats == ["human"]
    assert StudyConfig().seats == list(game_plugin(UNNAMED_GAME).default_seats)
    studies = {s.game: s for s in demo.ensure_game_demo_studies(db)}
    assert services.study_config(studies["dokusen"]).seats == ["human"]


def test_a_dokusen_stage_is_stored_replayed_and_answered_by_the_computer(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(game="dokusen", rules="S5", pre_survey=None, post_survey=None)
    code = playing_tester(db, study)
    at = open_as(code, timeout=60)
    assert not at.exception, at.exception
    starts = [p for t, p in stored_events(db, code) if t == "game_start"]
    assert [(p["game"], p["seats"], p["rules"]) for p in starts] == [
        ("dokusen", ["human"], "S5")]
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and record.game == "dokusen" and not record.actions
    # The tester places a square (stored as another tab would); a reload replays it and
    # the stage's active colour answers at once, at the stage's level, decided by a player
    # seeded from the game's seed and the action's number.
    plugin = game_plugin("dokusen")
    engine_game = plugin.make_game("S5", 1)
    state: Any = engine_game.new_initial_state()
    mine = state.legal_actions()[0]
    repo.append_game_action(db, record.game_id, 0, engine_game.action_to_json(mine))
    state.apply_action(mine)
    at = open_as(code, timeout=60)
    assert not at.exception, at.exception
    again = repo.latest_unfinished_game(db, code) or repo.list_games(db, code)[0]
    assert plugin.computer_level is not None
    level = plugin.computer_level(state, state.current_player())
    expected = make_player(level, seed=decision_seed(int(record.seed or 0), 1),
                           game="dokusen").decide(state).action
    assert list(again.actions[1]) == engine_game.action_to_json(expected)
    replayed = GameRecord(again.game, again.rules, 1, again.actions).replay()
    assert replayed.is_terminal() or replayed.current_player() == 0
    events = stored_events(db, code)
    assert [p["seat"] for t, p in events if t == "ai_move"][:1] == [2]
    grows = [p for t, p in events if t == "grow"]
    assert grows and {"before", "after", "round"} <= set(grows[0])
    assert [t for t, _ in events].count("game_start") == 1


def _store_finished(db: Engine, code: str, rules: Any, won: bool) -> None:
    """A finished game of ``rules`` as the play step stores it: a greedy user's whole
    stage, then its end (or a quick loss: the user never reaching half)."""
    from engine.dokusen.players import LEVELS, play_stage

    end = play_stage(rules, LEVELS["greedy" if won else "random"](1), seed=3)
    assert end.outcome is not None and end.outcome.won == won
    game_id = repo.create_game(db, code, None, rules, ["human"], 5, game="dokusen")
    for k, action in enumerate(end.record().actions):
        assert repo.append_game_action(db, game_id, k, list(action))
    repo.finish_game(db, game_id, 1 if won else None,
                     f"{end.outcome.result}:{end.outcome.reason}", len(end.history))


def test_progress_through_a_course_comes_from_the_stored_games(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    """A won stage moves the tester on, a lost one is played again: what the app reads
    from the stored records, so a fresh app process (a new AppTest, no session) agrees.
    The board says where the tester is in the study: which game of the study's games,
    and the stages won."""
    study = make_study(game="dokusen", rules={"stages": ["S1", "S4", "S2"]},
                       games_per_tester=5, pre_survey=None, post_survey=None)
    code = playing_tester(db, study)
    at = open_as(code, timeout=60)
    assert not at.exception, at.exception
    first = repo.latest_unfinished_game(db, code)
    assert first is not None and first.rules == "S1"
    shown = board_shown(at)
    assert shown["progress"] == "Game 1 of 5 · stages won: 0"
    assert shown["stageOf"] == "Stage 1 of 3"
    # This game is left; the tester wins S1 (stored by "another process"), then a new app
    # process starts S4, the next stage.
    repo.finish_game(db, first.game_id, None, "abandoned", 0)
    _store_finished(db, code, "S1", won=True)
    at = open_as(code, timeout=60)
    assert at.exception == []
    second = repo.latest_unfinished_game(db, code)
    assert second is not None and second.rules == "S4"
    # the same count of games as the caption beside the board; the won stage counts
    assert board_shown(at)["progress"] == "Game 3 of 5 · stages won: 1"
    assert any(c.value.startswith("Game 3 of 5 · ") for c in at.caption)
    repo.finish_game(db, second.game_id, None, "abandoned", 0)
    _store_finished(db, code, "S4", won=False)
    at = open_as(code, timeout=60)
    assert at.exception == []
    assert board_shown(at)["progress"] == "Game 5 of 5 · stages won: 1"  # S4 was lost
    third = repo.latest_unfinished_game(db, code)
    assert third is not None and third.rules == "S4"  # lost: the same stage again
    starts = [p for t, p in stored_events(db, code) if t == "game_start"]
    assert [p["stage"] for p in starts] == ["S1", "S4", "S4"]


def test_a_won_stage_played_again_still_counts_as_won(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    """**Play this stage again** after a win: while the tester plays S1 again, the board
    still counts S1 among the stages won (the progress comes from the stored games, not
    from the stage's place in the course)."""
    study = make_study(game="dokusen", rules={"stages": ["S1", "S4", "S2"]},
                       games_per_tester=5, pre_survey=None, post_survey=None)
    code = playing_tester(db, study)
    at = open_as(code, timeout=60)
    first = repo.latest_unfinished_game(db, code)
    assert first is not None and first.rules == "S1"
    repo.finish_game(db, first.game_id, None, "abandoned", 0)
    _store_finished(db, code, "S1", won=True)
    # the replay the button starts: a new game of S1, as the play step stores it
    repo.create_game(db, code, None, "S1", ["human"], 6, game="dokusen")
    at = open_as(code, timeout=60)
    assert at.exception == []
    shown = board_shown(at)
    assert shown["stageOf"] == "Stage 1 of 3"
    assert shown["progress"] == "Game 3 of 5 · stages won: 1"  # the left game counts too


def test_a_stage_parameter_is_ab_tested_through_a_rules_experiment(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    """Two courses that differ in S7's meteor schedule: each tester's games play their
    variant's S7, stored in the record so the game replays without the study."""
    from playtest.study_config import StudyConfigError, parse_study_config

    fast = {"stages": ["S7"], "changes": {"S7": {"meteors": {"firstRound": 2, "every": 2}}}}
    settings: dict[str, Any] = {
        "game": "dokusen", "rules": {"stages": ["S7"]}, "pre_survey": None,
        "post_survey": None, "ai_think_ms": 0,
        "experiments": [{"key": "s7_meteors", "target": "rules",
                         "variants": {"A": {"stages": ["S7"]}, "B": fast}}]}
    study = services.create_study(db, title="A/B", config=parse_study_config(settings),
                                  study_id="ab")
    seen: dict[str, Any] = {}
    for _ in range(4):
        code = playing_tester(db, study)
        variant = repo.get_assignment(db, code, "s7_meteors")
        assert not open_as(code, timeout=60).exception
        record = repo.latest_unfinished_game(db, code)
        assert record is not None
        seen[str(variant)] = record.rules
    assert set(seen) == {"A", "B"}
    assert seen["A"] == "S7"
    schedule = game_plugin("dokusen").make_game(seen["B"], 1).stage.schedule  # type: ignore[attr-defined]
    assert (schedule.first_round, schedule.every) == (2, 2) and seen["B"]["id"] == "S7"
    # a variant that cannot be played is refused when the study is saved, naming the field
    bad = {"stages": ["S7"], "changes": {"S7": {"meteors": {"firstRound": 2, "every": 0}}}}
    settings["experiments"][0]["variants"]["B"] = bad
    with pytest.raises(StudyConfigError, match=r"changes\.S7\.meteors\.every"):
        parse_study_config(settings)


def test_demo_testers_progress_through_the_course_against_the_stage_levels(db: Engine) -> None:
    """``playtest demo`` on a Dokusen course: each simulated tester's games follow the
    progression (a stage after a won one, the same after a loss), and the computer
    colours play their stages' levels (S6's orange is greedy: every move it made is the
    greedy square of the position)."""
    from engine.dokusen.ai import greedy_action
    from engine.dokusen.state import DokusenGame
    from playtest.study_config import parse_study_config

    course = ["S1", "S4", "S6"]
    config = parse_study_config({"game": "dokusen", "rules": {"stages": course},
                                 "games_per_tester": 5, "pre_survey": None,
                                 "post_survey": None})
    study = services.create_study(db, title="demo course", config=config, study_id="dc")
    demo.generate(db, 6, seed=4, study=study, workers=1)
    table = EventRow.__table__  # type: ignore[attr-defined]
    with db.connect() as conn:
        rows = conn.execute(select(table.c.participant_id, table.c.type, table.c.props)
                            .order_by(table.c.participant_id, table.c.session_id,
                                      table.c.seq)).all()
    games: dict[str, list[dict[str, Any]]] = {}
    for pid, kind, props in rows:
        if kind == "game_start":
            games.setdefault(pid, []).append({"stage": props["rules"], "actions": None})
        elif kind in ("win", "loss"):
            games[pid][-1]["result"] = kind
        elif kind == "game_end":
            games[pid][-1]["actions"] = props["record"]
    assert len(games) == 6
    reached = set()
    for played in games.values():
        expected = "S1"
        for game in played:
            assert game["stage"] == expected
            reached.add(game["stage"])
            if game.get("result") == "win" and course.index(expected) + 1 < len(course):
                expected = course[course.index(expected) + 1]
            if game["stage"] == "S6" and game["actions"]:
                state = DokusenGame("S6").new_initial_state()
                for action in game["actions"]:
                    code = state.game.action_from_json(action)
                    if state.current_player() == 1:
                        assert code == greedy_action(state)
                    state.apply_action(code)
    assert reached == {"S1", "S4", "S6"}
