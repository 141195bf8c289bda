"""``python -m engine scenario`` on Dokusen scenarios (the real command, a subprocess).

``scenarios/dokusen/section4.json`` holds D01-D18, each with the result it must give
(every rule of rules-other-games.md §3 and the D-numbers the text cites); every key of
``expected`` must equal the command's result, and the refused actions must be exactly
those the file flags with ``expectIllegal``. ``scenarios/dokusen/malformed.json`` lists
malformed documents: one line on standard error naming scenario and field, exit 2,
nothing on standard output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dokusen_oracle as oracle
import pytest
from scenario_command import run

from engine.dokusen.stage import stage_by_id

HERE = Path(__file__).resolve().parent / "scenarios" / "dokusen"
FILE = HERE / "section4.json"
SCENARIOS: list[dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))
MALFORMED: list[dict[str, Any]] = json.loads((HERE / "malformed.json").read_text(encoding="utf-8"))
RESULT_KEYS = {"afterEachRound", "gameOver", "result", "counts", "events"}


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    proc = run(FILE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out: list[dict[str, Any]] = json.loads(proc.stdout)
    return out


def test_the_file_numbers_its_scenarios() -> None:
    assert [s["id"] for s in SCENARIOS] == [f"D{k:02d}" for k in range(1, 19)]
    assert all(set(s["expected"]) == RESULT_KEYS for s in SCENARIOS)


@pytest.mark.parametrize("k", range(len(SCENARIOS)), ids=[s["id"] for s in SCENARIOS])
def test_scenario_gives_its_expected_result(results: list[dict[str, Any]], k: int) -> None:
    expected = SCENARIOS[k]["expected"]
    result = results[k]
    assert set(result) >= RESULT_KEYS
    assert {key: result[key] for key in expected} == expected
    flagged = [bool(a.get("expectIllegal")) for a in SCENARIOS[k]["actions"]]
    assert [code is not None for code in result["refused"]] == flagged


@pytest.mark.parametrize(
    "k",
    [
        k
        for k, s in enumerate(SCENARIOS)
        if isinstance(s["stage"], str)
        or "meteors" not in s["stage"]
        and all("at" in a for a in s["actions"])
    ],
    ids=lambda k: SCENARIOS[k]["id"],
)
def test_placement_only_scenarios_agree_with_the_literal_reading(
    results: list[dict[str, Any]], k: int
) -> None:
    """Replays each accepted placement in the oracle, growth after each round."""
    scen = SCENARIOS[k]
    stage = (
        scen["stage"] if not isinstance(scen["stage"], str) else stage_by_id(scen["stage"]).to_obj()
    )
    assert "meteors" not in stage
    board = oracle.parse(stage["board"])
    actives = [p["id"] for p in stage.get("players", []) if p["kind"] == "active"]
    rounds = []
    placed = 0
    for action, refused in zip(scen["actions"], results[k]["refused"], strict=True):
        if refused is not None:
            continue
        board[(action["at"][0], action["at"][1])] = str(action["player"])
        placed += 1
        if placed % (1 + len(actives)) == 0:
            board = oracle.grow(board)
            rounds.append(oracle.render(board, stage["board"]))
    assert rounds == results[k]["afterEachRound"]
    if results[k]["gameOver"] and "maxRounds" not in stage:
        assert "." not in "".join(rounds[-1])
        assert (results[k]["result"] == "win") == oracle.user_wins(board)


def test_refusal_codes(results: list[dict[str, Any]]) -> None:
    by_id = {s["id"]: r for s, r in zip(SCENARIOS, results, strict=True)}
    assert by_id["D07"]["refused"][0] == "own_square"
    assert by_id["D08"]["refused"] == ["not_your_turn", None, "not_your_turn", None]
    assert by_id["D09"]["refused"][0] == "void"
    assert by_id["D17"]["refused"] == [None, "meteor_target", "not_your_turn", None]
    assert by_id["D18"]["refused"][1] == "game_over"
    assert by_id["D05"]["reason"] == "max_rounds" and by_id["D06"]["reason"] == "full"


def test_one_scenario_from_standard_input_prints_one_object() -> None:
    proc = run("-", json.dumps(SCENARIOS[13]))
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert {k: result[k] for k in RESULT_KEYS} == SCENARIOS[13]["expected"]


def test_dokusen_and_vapoosh_scenarios_in_one_file() -> None:
    doc = [
        SCENARIOS[0],
        {"rules": "standard", "actions": [["roll", [3, 4, 2, 5]], ["place", [7, 7]]]},
    ]
    proc = run("-", json.dumps(doc))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out[0]["afterEachRound"] == [["11.00"]]
    assert out[1]["events"] == ["roll", "place", "extra_turn"]


@pytest.mark.parametrize("case", MALFORMED, ids=[c["name"] for c in MALFORMED])
def test_malformed_document(case: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(case["document"]), encoding="utf-8")
    proc = run(path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(str(path))
    for part in case["stderr_contains"]:
        assert part in lines[0]


def test_computer_actions_in_a_scenario_use_the_level_and_the_seed() -> None:
    import random

    from engine.dokusen import DokusenGame
    from engine.dokusen.ai import greedy_action, lookahead_action
    from engine.dokusen.scenario import run_scenario

    for seed in (0, 1, 2):
        scen = {
            "game": "dokusen",
            "stage": "S5",
            "seed": seed,
            "actions": [{"player": 0, "ai": "greedy"}, {"player": 1, "ai": "random"}],
        }
        state = DokusenGame("S5").new_initial_state()
        state.apply_action(greedy_action(state))
        legal = state.legal_actions()
        state.apply_action(legal[random.Random(seed).randrange(len(legal))])
        assert run_scenario(scen)["board"] == state.board_rows()
    scen = {
        "game": "dokusen",
        "stage": "S6",
        "actions": [{"player": 0, "at": [1, 1]}, {"player": 1, "ai": "lookahead"}],
    }
    state = DokusenGame("S6").new_initial_state()
    state.apply_action(state.game.index(1, 1))
    state.apply_action(lookahead_action(state))
    assert run_scenario(scen)["board"] == state.board_rows()
