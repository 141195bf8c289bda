"""Dokusen's board data (view.py), catalog and click parsing, without a browser.

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
from playtest.games.dokusen.catalog import REFUSAL_REASONS, load_catalog, refusal_key
from playtest.games.dokusen.component import BoardEventError, parse_action, parse_clicks
from playtest.games.dokusen.view import board_data


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
    assert board_data(s)["message"]["key"] == "your_turn"
    assert board_data(s, refusal=Refusal("void", "x"))["message"]["key"] == "refused_void"
    lost = DokusenGame({"board": ["1."]}).new_initial_state()
    events = lost.apply_action(1)
    d = board_data(lost, events=events)
    assert d["message"]["key"] == "stage_lost" and d["over"] == {
        "result": "loss",
        "title": "Stage lost",
        "detail": "You have 1 of the 2 squares. You needed 2 to win.",  # exactly half loses
        "next": False,
        "nextStage": "",
        "retry": True,
    }
    assert board_data(lost, has_retry=False)["over"]["retry"] is False
    won = DokusenGame({"board": ["1.."]}).new_initial_state()
    d = board_data(won, events=won.apply_action(1), has_next=True, next_stage="S2 · Two Seeds",
                   stage_of=(1, 8))
    assert d["message"]["key"] == "stage_won" and d["over"]["next"] is True
    assert d["over"]["nextStage"] == "S2 · Two Seeds" and d["stageOf"] == "Stage 1 of 8"
    assert board_data(won, stage_of=(1, 1))["stageOf"] == ""
    rival = DokusenGame("S5").new_initial_state()
    rival.apply_action(0)
    assert board_data(rival)["message"]["text"] == "Orange is choosing a square…"
    assert board_data(rival)["interactive"] is False and board_data(rival)["targets"] == []


def test_every_click_refusal_has_its_message() -> None:
    catalog = load_catalog()
    for reason in REFUSAL_REASONS:
        assert catalog.render(refusal_key(reason)).text
    assert catalog.render(refusal_key("off_board")).key == "refused_other"
    for variant in ("default", "formal"):
        assert catalog.render("your_turn", variant, need=13, total=25).text


def test_malformed_trigger_payloads_are_refused() -> None:
    good = {"at": [1, 2], "nonce": "n", "ms": 3, "via": "mouse", "token": "1:0"}
    assert parse_clicks({"clicks": [good]})[0].at == (1, 2)
    for bad in (
        None,
        {"clicks": "x"},
        {"clicks": [{**good, "at": [1]}]},
        {"clicks": [{**good, "at": [True, 1]}]},
        {"clicks": [{**good, "ms": float("nan")}]},
        {"clicks": [{**good, "via": "laser"}]},
        {"clicks": [{**good, "nonce": ""}]},
        {"clicks": [{**good, "token": "x" * 200}]},
    ):
        with pytest.raises(BoardEventError):
            parse_clicks(bad)
    with pytest.raises(BoardEventError):
        parse_action({"name": "undo", "nonce": "n"})
    assert len(parse_clicks({"clicks": [good] * 100})) == 32
