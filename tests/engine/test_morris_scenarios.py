"""``python -m engine scenario`` on Bricks & Walls scenarios (the real command).

``scenarios/morris/section4.json`` holds the scenarios M01-M20 in the shape of
rules-other-games.md section 4 (each with its ``expected``); every key of
``expected`` must equal the command's result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from scenario_command import run

FILE = Path(__file__).resolve().parent / "scenarios" / "morris" / "section4.json"
SCENARIOS: list[dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))
RESULT_KEYS = {"board", "reserve", "toMove", "pendingRemoval", "winner", "events"}


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    proc = run(FILE)
    assert proc.returncode == 0 and proc.stderr == ""
    out: list[dict[str, Any]] = json.loads(proc.stdout)
    return out


def test_every_rule_of_section_1_has_a_scenario() -> None:
    assert [s["id"] for s in SCENARIOS] == [f"M{k:02d}" for k in range(1, 21)]


@pytest.mark.parametrize("k", range(len(SCENARIOS)), ids=[s["id"] for s in SCENARIOS])
def test_scenario_gives_its_expected_result(results: list[dict[str, Any]], k: int) -> None:
    expected = SCENARIOS[k]["expected"]
    result = results[k]
    assert set(result) >= RESULT_KEYS
    assert {key: result[key] for key in expected} == expected


def test_illegal_actions_show_as_events_and_the_scenario_goes_on(
    results: list[dict[str, Any]],
) -> None:
    m06 = results[5]
    assert m06["events"].count("illegal") == 3
    assert [r["reason"] for r in m06["refused"]] == [
        "not_your_turn",
        "removal_pending",
        "not_your_turn",
    ]


def test_single_object_from_standard_input_and_a_mixed_document() -> None:
    proc = run("-", json.dumps(SCENARIOS[6]))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["events"] == ["place", "wall"]
    mixed = [SCENARIOS[0], {"actions": [["roll", [3, 4, 2, 5]], ["place", [7, 7]]]}]
    proc = run("-", json.dumps(mixed))
    out = json.loads(proc.stdout)
    assert proc.returncode == 0
    assert out[0]["events"] == ["place"] * 3 and out[1]["events"] == ["roll", "place", "extra_turn"]


MALFORMED = [
    ({"game": "morris"}, ["'actions'", "missing"]),
    (
        {"game": "morris", "id": "X1", "actions": [{"type": "jump", "to": "a7"}]},
        ["'X1'", "actions[0].type", "'jump'"],
    ),
    ({"game": "morris", "actions": [{"type": "place", "to": "d4"}]}, ["actions[0].to", "'d4'"]),
    ({"game": "morris", "actions": [{"type": "move", "to": "d7"}]}, ["actions[0].from", "missing"]),
    (
        {"game": "morris", "actions": [{"type": "place", "player": "R", "to": "d7"}]},
        ["actions[0].player"],
    ),
    ({"game": "morris", "initial": {"board": {"a7": "R"}}, "actions": []}, ["initial.board"]),
    ({"game": "morris", "initial": {"toMove": "X"}, "actions": []}, ["initial.toMove"]),
    ({"game": "morris", "initial": {"reserve": {"W": 12}}, "actions": []}, ["initial.reserve"]),
    (
        {"game": "morris", "initial": {"pendingRemoval": True}, "actions": []},
        ["initial.pendingRemoval"],
    ),
    ({"game": "morris", "initial": {"turn": "W"}, "actions": []}, ["initial.turn", "unknown"]),
    ({"game": "morris", "rules": "chess", "actions": []}, ["field 'rules'", "'chess'"]),
    ({"game": "morris", "colour": "W", "actions": []}, ["field 'colour'", "unknown field"]),
    ({"game": "tiddlywinks", "actions": []}, ["field 'game'", "'tiddlywinks'"]),
    ({"game": "../etc", "actions": []}, ["field 'game'"]),
]


@pytest.mark.parametrize("doc,words", MALFORMED, ids=[str(i) for i in range(len(MALFORMED))])
def test_malformed_scenario_is_one_line_naming_scenario_and_field(
    doc: dict[str, Any], words: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([SCENARIOS[0], doc]), encoding="utf-8")
    proc = run(path)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert "scenario[1]" in lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
