"""Dokusen's board data (view.py), its words and catalog, without a browser.

The board replays each round from ``before`` through ``steps``; on random games of every
stage that replay must land exactly on the engine's board, and every flip's neighbour
counts must say why it flipped (one colour strictly ahead).
"""

from __future__ import annotations

import random

import pytest

from engine.core import CHANCE, Refusal, sample_chance
from engine.dokusen import DokusenGame, builtin_stages
from engine.dokusen.ai import computer_action
from playtest.demo import EventRecorder
from playtest.games.dokusen.catalog import REFUSAL_REASONS, load_catalog, refusal_key
from playtest.games.dokusen.session import next_choices
from playtest.games.dokusen.view import board_data, message_say
from playtest.games.registry import game_plugin
from playtest.session import GameSession, Play
from playtest.session.session import Wording


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


@pytest.mark.parametrize("variant", ["default", "formal"])
def test_a_computer_colours_placement_is_said_in_the_testers_wording(variant: str) -> None:
    """S5: orange places after the tester; the board says so (``rival_placed``, one line
    per placement, in the tester's wording) and the replay's step carries that line."""
    plugin = game_plugin("dokusen")
    play = Play.new(plugin, game_id="g", participant_id="p", seats=("human",), seed=7,
                    rules="S5")
    records: list[dict[str, object]] = []
    session = GameSession(plugin, play, EventRecorder(records, "p", "g", [0.0], [0], "g"),
                          wording=Wording({"rival_placed": variant}), settings={"speed": 1})
    session.start()
    session.click("2,2")
    rivals = [s for s in play.shown if s.key == "rival_placed"]
    text = load_catalog().say("rival_placed", variant, colour="Orange").text
    assert [s.text for s in rivals] == [text] and rivals[0].slot == "rival0"
    assert plugin.view is not None
    steps = plugin.view(session.moment())["steps"]
    said = [s for s in steps if s.get("say")]
    assert [(s["kind"], s["to"], s["say"]) for s in said] == [("place", 1, text)]
    # the placement is logged as a message the tester saw
    assert any(r.get("type") == "message" and r["props"]["key"] == "rival_placed"
               and r["props"]["variant"] == variant for r in records)
