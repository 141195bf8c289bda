"""``python -m engine scenario`` on Bricks & Walls scenarios (the real command), and the
reader's shapes over random legal games.

``scenarios/morris/section4.json`` holds the scenarios M01-M20 in the shape of
rules-other-games.md section 4.1 (each with its ``expected``); every key of ``expected``
must equal the command's result, and the refused actions must be those flagged
``expectIllegal``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_command import flagged, mismatches, refused, run, run_here

from engine.morris import COLOURS, MorrisGame, MorrisState, decode
from engine.morris.actions import NUM_ACTIONS, Move, Place, Remove
from engine.morris.scenario import contract_events, run_scenario

FILE = Path(__file__).resolve().parent / "scenarios" / "morris" / "section4.json"
SCENARIOS: list[dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))
#: Section 4.1's ``expected`` keys: the result holds all of them, whatever a file checks.
RESULT_KEYS = {"board", "reserve", "toMove", "pendingRemoval", "winner", "events"}
EVENT = re.compile(r"wall|remove:[a-g][1-7]|skip:[WB]|win:[WB]|illegal")


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    proc = run(FILE)
    assert proc.returncode == 0 and proc.stderr == ""
    out: list[dict[str, Any]] = json.loads(proc.stdout)
    return out


def test_every_rule_of_section_1_has_a_scenario_in_section_4_shape() -> None:
    assert [s["id"] for s in SCENARIOS] == [f"M{k:02d}" for k in range(1, 21)]
    for s in SCENARIOS:
        assert set(s) == {"game", "id", "description", "initial", "actions", "expected"}
        assert set(s["initial"]) == {"board", "reserve", "toMove", "pendingRemoval"}
        # section 4.1: toMove is left out of expected once there is a winner
        want = RESULT_KEYS - ({"toMove"} if s["expected"]["winner"] else set())
        assert set(s["expected"]) == want, s["id"]


@pytest.mark.parametrize("k", range(len(SCENARIOS)), ids=[s["id"] for s in SCENARIOS])
def test_scenario_gives_its_expected_result(results: list[dict[str, Any]], k: int) -> None:
    result = results[k]
    assert set(result) >= RESULT_KEYS
    assert mismatches(SCENARIOS[k]["expected"], result) == []
    assert refused(result) == flagged(SCENARIOS[k])
    assert all(EVENT.fullmatch(e) for e in result["events"]), result["events"]
    if result["winner"] is not None:
        assert result["toMove"] is None


def test_refused_actions_name_the_rule_and_the_scenario_goes_on(
    results: list[dict[str, Any]],
) -> None:
    by_id = {s["id"]: r for s, r in zip(SCENARIOS, results, strict=True)}
    assert by_id["M06"]["refused"] == [
        None,
        "not_your_turn",
        "removal_pending",
        None,
        "not_your_turn",
    ]
    assert by_id["M06"]["events"] == ["wall", "wall", "illegal", "illegal", "remove:b6", "illegal"]
    assert by_id["M04"]["refused"] == [None, "remove_own", "remove_empty", None]
    assert by_id["M14"]["refused"] == [None, "game_over"]


def test_single_object_from_standard_input_and_a_mixed_document() -> None:
    proc = run("-", json.dumps(SCENARIOS[6]))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["events"] == ["wall"]
    mixed = [SCENARIOS[1], {"actions": [["roll", [3, 4, 2, 5]], ["place", [7, 7]]]}]
    proc = run("-", json.dumps(mixed))
    out = json.loads(proc.stdout)
    assert proc.returncode == 0
    assert out[0]["events"] == ["wall", "remove:b6"]
    assert out[1]["events"] == ["roll", "place", "extra_turn"]


MALFORMED = [
    ({"game": "morris"}, ["'actions'", "missing"]),
    (
        {"game": "morris", "id": "X1", "actions": [{"type": "jump", "to": "a7"}]},
        ["'X1'", "actions[0].type", "'jump'"],
    ),
    ({"game": "morris", "actions": [{"type": ["place"]}]}, ["actions[0].type"]),
    (
        {"game": "morris", "actions": [{"type": "place", "player": "W", "to": "d4"}]},
        ["actions[0].to", "'d4'"],
    ),
    (
        {"game": "morris", "actions": [{"type": "move", "player": "W", "to": "d7"}]},
        ["actions[0].from", "missing"],
    ),
    (
        {"game": "morris", "actions": [{"type": "place", "player": "R", "to": "d7"}]},
        ["actions[0].player"],
    ),
    ({"game": "morris", "actions": [{"type": "place", "to": "d7"}]}, ["actions[0].player"]),
    (
        {"game": "morris", "actions": [{"type": "remove", "player": "W", "point": "d7"}]},
        ["actions[0].point", "unknown field"],
    ),
    ({"game": "morris", "actions": ["place d7"]}, ["actions[0]", "object"]),
    ({"game": "morris", "initial": {"board": {"a7": "R"}}, "actions": []}, ["initial.board"]),
    ({"game": "morris", "initial": {"board": ["a7"]}, "actions": []}, ["initial.board"]),
    ({"game": "morris", "initial": {"toMove": "X"}, "actions": []}, ["initial.toMove"]),
    ({"game": "morris", "initial": {"reserve": {"W": 12}}, "actions": []}, ["initial.reserve"]),
    (
        {"game": "morris", "initial": {"pendingRemoval": True}, "actions": []},
        ["initial.pendingRemoval"],
    ),
    ({"game": "morris", "initial": {"turn": "W"}, "actions": []}, ["initial.turn", "unknown"]),
    ({"game": "morris", "initial": [], "actions": []}, ["field 'initial'", "object"]),
    ({"game": "morris", "rules": "chess", "actions": []}, ["field 'rules'", "'chess'"]),
    ({"game": "morris", "colour": "W", "actions": []}, ["field 'colour'", "unknown field"]),
    ({"game": "morris", "id": 7, "actions": []}, ["field 'id'", "string"]),
    ({"game": "tiddlywinks", "actions": []}, ["field 'game'", "'tiddlywinks'"]),
    ({"game": "../etc", "actions": []}, ["field 'game'"]),
]


@pytest.mark.parametrize("k", range(len(MALFORMED)))
def test_malformed_scenario_is_one_line_naming_scenario_and_field(k: int, tmp_path: Path) -> None:
    """The first case as a real subprocess, the others in this process (same command)."""
    doc, words = MALFORMED[k]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([SCENARIOS[0], doc]), encoding="utf-8")
    proc = (run if k == 0 else run_here)(path)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert "scenario[1]" in lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])


# ----- round trips over random games (the reader, in process) ---------------------------


def as_initial(state: MorrisState) -> dict[str, Any]:
    """A state in section 4.1's ``initial`` shape."""
    return {
        "board": state.board,
        "reserve": state.reserve,
        "toMove": state.to_move,
        "pendingRemoval": state.pending_removal,
    }


def as_action(action: int, player: str) -> dict[str, Any]:
    """An engine action in section 4.1's action shape."""
    obj = decode(action)
    if isinstance(obj, Place):
        return {"type": "place", "player": player, "to": obj.to}
    if isinstance(obj, Move):
        return {"type": "move", "player": player, "from": obj.frm, "to": obj.to}
    assert isinstance(obj, Remove)
    return {"type": "remove", "player": player, "at": obj.at}


def reported(state: MorrisState) -> dict[str, Any]:
    return {**as_initial(state), "winner": state.winner}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), bricks=st.sampled_from([3, 4, 9]))
def test_random_games_round_trip_through_the_scenario_shape(
    data: st.DataObject, bricks: int
) -> None:
    """A random game, some of its steps refused on purpose (an action the rules forbid,
    or the wrong colour), written as a scenario: the result reports the engine's state,
    its events, and exactly the refused steps; fed back as ``initial``, the reported
    state is read as the same state."""
    rules = {"base": "standard", "bricks": bricks, "move_cap": 30}
    game = MorrisGame(rules)
    state = game.new_initial_state()
    actions, want_events, want_refused = [], [], []
    for _ in range(data.draw(st.integers(0, 70), label="steps")):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        mover = state.to_move
        assert mover is not None
        kind = data.draw(st.sampled_from(["legal", "legal", "legal", "any", "other colour"]))
        if kind == "legal":
            action = data.draw(st.sampled_from(legal))
        else:
            action = data.draw(st.integers(0, NUM_ACTIONS - 1))
        player = COLOURS[1 - COLOURS.index(mover)] if kind == "other colour" else mover
        actions.append(as_action(action, player))
        if player != mover or action not in legal:
            want_events.append("illegal")
            want_refused.append(True)
            continue
        want_events += contract_events(state.apply_action(action))
        want_refused.append(False)
    result = run_scenario({"game": "morris", "rules": rules, "actions": actions})
    assert {k: result[k] for k in reported(state)} == reported(state)
    assert result["events"] == want_events
    assert [code is not None for code in result["refused"]] == want_refused
    if not state.is_terminal():
        again = run_scenario(
            {"game": "morris", "rules": rules, "initial": as_initial(state), "actions": []}
        )
        assert {k: again[k] for k in reported(state)} == reported(state)
