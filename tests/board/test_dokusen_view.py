"""Dokusen's board data (view.py), its words and catalog, without a browser.

The board replays each round from ``before`` through ``steps``; on random games of every
stage that replay must land exactly on the engine's board, and every flip's neighbour
counts must say why it flipped (one colour strictly ahead).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import CHANCE, Refusal, sample_chance
from engine.dokusen import DokusenGame, builtin_stages
from engine.dokusen.ai import computer_action
from playtest.demo import EventRecorder
from playtest.games.dokusen.catalog import REFUSAL_REASONS, load_catalog, refusal_key
from playtest.games.dokusen.session import ROUND, next_choices
from playtest.games.dokusen.session import view as dokusen_view
from playtest.games.dokusen.view import (
    RoundSteps,
    board_data,
    message_say,
    progress_text,
    round_steps,
)
from playtest.games.registry import game_plugin
from playtest.session import GameSession, Play


@pytest.mark.parametrize("stage", [s.id for s in builtin_stages()])
def test_the_replayed_round_lands_on_the_engines_board(stage: str) -> None:
    rng = random.Random(len(stage))
    state = DokusenGame(stage).new_initial_state()
    while not state.is_terminal():
        events = list(state.apply_action(computer_action(state, rng, user_level="random")))
        while not state.is_terminal() and state.current_player() != 0:
            if state.current_player() == CHANCE:
                events += state.apply_action(sample_chance(state, rng))
            else:
                events += state.apply_action(computer_action(state, rng))
        d = board_data(state, events=events)
        cells = list(d["before"])
        cols = d["cols"]
        for step in d["steps"]:
            i = step["at"][0] * cols + step["at"][1]
            if step["kind"] == "meteor":
                for r, c in step["area"]:
                    cells[r * cols + c] = -1
                continue
            cells[i] = step["to"]
            if step["kind"] == "grow":
                counts = dict((p, n) for p, n in step["why"])
                best = max(counts.values())
                assert counts[step["to"]] == best
                assert sum(n == best for n in counts.values()) == 1
        assert cells == d["cells"]
        assert sum(d["counts"][str(p)] for p in range(len(d["colours"]))) + d["black"] == d["total"]


def test_messages_follow_the_state() -> None:
    game = DokusenGame("S1")
    s = game.new_initial_state()
    assert message_say(s).key == "your_turn"
    assert message_say(s, refusal=Refusal("void", "x")).key == "refused_void"
    lost = DokusenGame({"board": ["1."]}).new_initial_state()
    events = lost.apply_action(1)
    said = message_say(lost, events)
    assert said.key == "stage_lost" and said.values == {"count": 1, "total": 2}
    assert board_data(lost, events=events)["over"] == {"result": "loss"}
    won = DokusenGame({"board": ["1.."]}).new_initial_state()
    d = board_data(won, events=won.apply_action(1), stage_of=(1, 8))
    assert message_say(won).key == "stage_won" and d["over"] == {"result": "win"}
    assert d["stageOf"] == "Stage 1 of 8"
    assert board_data(won, stage_of=(1, 1))["stageOf"] == ""
    rival = DokusenGame("S5").new_initial_state()
    rival.apply_action(0)
    assert message_say(rival).key == "computer_turn"
    assert load_catalog().render("computer_turn", **message_say(rival).values).text == (
        "Orange is choosing a square…")
    assert board_data(rival)["interactive"] is False and board_data(rival)["targets"] == []


def test_a_computer_colours_placement_is_said_and_ringed() -> None:
    # S5: Orange places a square after the tester, every round
    state = DokusenGame("S5").new_initial_state()
    events = list(state.apply_action(state.legal_actions()[0]))
    events += state.apply_action(computer_action(state, random.Random(3)))
    assert state.current_player() == 0
    placed = [list(e.tiles[0]) for e in events if e.kind == "place" and e.seat != 1]
    assert len(placed) == 1
    said = message_say(state, events)
    assert said.key == "rival_placed" and said.values["colour"] == "Orange"
    text = load_catalog().render("rival_placed", **said.values).text
    assert text == "Orange coloured a square too (it has a ring). Then the colours grew: " \
        "8 squares changed."
    assert board_data(state, events=events)["rivalPlaced"] == placed
    # the tester's own placement is never ringed, nor an old round's
    assert board_data(state)["rivalPlaced"] == []


def test_after_a_stage_the_way_on_is_the_next_stage_or_the_same_again() -> None:
    plugin = game_plugin("dokusen")
    won = Play.replayed(plugin, game_id="g", participant_id="p", seats=("human",), seed=1,
                        rules={"id": "S1", "board": ["1.."]}, actions=[["place", [0, 1]]],
                        finished=True)
    assert won.state.outcome is not None and won.state.outcome.won
    course = {"stages": [{"id": "S1", "board": ["1.."]}, "S2"]}
    labels = [label for label, _rules in next_choices(won, course)]
    assert labels[0].startswith("Next stage: S2") and labels[1] == "Play this stage again"
    lost = Play.replayed(plugin, game_id="g", participant_id="p", seats=("human",), seed=1,
                         rules="S1", actions=[], finished=False)
    assert [label for label, _ in next_choices(lost, "all")] == ["Try this stage again"]


def test_every_click_refusal_has_its_message() -> None:
    catalog = load_catalog()
    for reason in REFUSAL_REASONS:
        assert catalog.render(refusal_key(reason)).text
    assert catalog.render(refusal_key("off_board")).key == "refused_other"
    for variant in ("default", "formal"):
        assert catalog.render("your_turn", variant, need=13, total=25).text


def _session(stage: str) -> tuple[GameSession, list[dict[str, Any]]]:
    plugin = game_plugin("dokusen")
    play = Play.new(plugin, game_id="g", participant_id="p", seats=("human",), seed=3,
                    rules=stage)
    records: list[dict[str, Any]] = []
    session = GameSession(plugin, play, EventRecorder(records, "p", "s", [0.0], [0], "g"))
    session.start()
    return session, records


def test_the_board_says_the_game_of_the_study_and_the_stages_won() -> None:
    """From what the play step knows (this game's number of the study's games, the
    study's course) the board says where the tester is: "Game 2 of 4 · stages won: 1"."""
    session, _ = _session("S2")
    moment = session.moment(extra={"study_rules": "all", "games": (2, 4)})
    data = dokusen_view(moment)
    assert data["progress"] == "Game 2 of 4 · stages won: 1"  # S1 was won to reach S2
    assert data["stageOf"] == "Stage 2 of 8"
    # a course of the study's own: its stages, in its order
    own = dokusen_view(session.moment(extra={"study_rules": {"stages": ["S4", "S2"]},
                                             "games": (5, 4)}))
    assert own["progress"] == "Game 5 (an extra one) · stages won: 1"
    # a won stage counts once won
    won = Play.replayed(game_plugin("dokusen"), game_id="g", participant_id="p",
                        seats=("human",), seed=1, rules={"id": "S1", "board": ["1.."]},
                        actions=[["place", [0, 1]]], finished=True)
    done = GameSession(game_plugin("dokusen"), won, EventRecorder([], "p", "s", [0.0], [0], "g"))
    course = {"stages": [{"id": "S1", "board": ["1.."]}, "S2"]}
    assert dokusen_view(done.moment(extra={"study_rules": course, "games": (1, 2)}))[
        "progress"] == "Game 1 of 2 · stages won: 1"
    # nothing known of the study (the board alone): no progress line
    assert dokusen_view(session.moment())["progress"] == ""
    assert progress_text(None, None) == ""


def test_the_rounds_steps_are_worked_out_once_for_the_message_and_the_board() -> None:
    session, records = _session("S5")
    state = session.play.state
    session.click(state.legal_targets()[0])  # then Orange places, and the colours grow
    moment = session.moment()
    kept = session.play.memo[ROUND][1]  # what the message was said from, at the input
    assert isinstance(kept, RoundSteps) and kept.steps
    data = dokusen_view(moment)
    # the board replays the very round the message was said from, not a second copy
    assert data["steps"] == list(kept.steps) and session.play.memo[ROUND][1] is kept
    assert data["steps"][0] is kept.steps[0]
    assert round_steps(state, [e for s in moment.fresh for e in s.events]) == kept
    said = [r["props"]["key"] for r in records if r["type"] == "message"][-1]
    assert said == message_say(state, played=kept).key == "rival_placed"
    # the next input replays its own round, not the one kept
    session.click(state.legal_targets()[0])
    again = dokusen_view(session.moment())
    assert session.play.memo[ROUND][1] is not kept and again["steps"] != data["steps"]
    assert again["steps"] == list(round_steps(state, [
        e for s in session.play.fresh for e in s.events]).steps)
