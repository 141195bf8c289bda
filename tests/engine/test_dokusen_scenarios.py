"""``python -m engine scenario`` on Dokusen scenarios (the real command, a subprocess), and
the reader's shapes over random games.

``scenarios/dokusen/section4.json`` holds D01-D18 in the shape of rules-other-games.md
section 4.3 (``initial`` with ``board``, ``players``, ``round``, ``meteors``; actions
``{player, at}`` and ``{player, ai: "greedy"}``), each with the result it must give
(every rule of §3 and the D-numbers the text cites); every key of ``expected`` must equal
the command's result, and the refused actions must be exactly those the file flags with
``expectIllegal``. ``scenarios/dokusen/malformed.json`` lists malformed documents: one
line on standard error naming scenario and field, exit 2, nothing on standard output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dokusen_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_command import flagged, mismatches, refused, run, run_here

from engine.core import TERMINAL
from engine.dokusen import DokusenGame, DokusenState
from engine.dokusen.ai import greedy_action, lookahead_action
from engine.dokusen.scenario import run_scenario

HERE = Path(__file__).resolve().parent / "scenarios" / "dokusen"
FILE = HERE / "section4.json"
SCENARIOS: list[dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))
MALFORMED: list[dict[str, Any]] = json.loads((HERE / "malformed.json").read_text(encoding="utf-8"))
#: Section 4.3's ``expected`` keys: the result holds all of them, whatever a file checks.
RESULT_KEYS = {"afterEachRound", "gameOver", "result", "counts", "events"}


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    proc = run(FILE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out: list[dict[str, Any]] = json.loads(proc.stdout)
    return out


def test_the_file_numbers_its_scenarios_in_section_4_shape() -> None:
    assert [s["id"] for s in SCENARIOS] == [f"D{k:02d}" for k in range(1, 19)]
    for s in SCENARIOS:
        assert set(s) == {"game", "id", "description", "initial", "actions", "expected"}
        assert set(s["initial"]) <= {"board", "players", "round", "meteors"}
        assert set(s["expected"]) == RESULT_KEYS
        for action in s["actions"]:
            assert set(action) - {"expectIllegal"} in ({"player", "at"}, {"player", "ai"})


@pytest.mark.parametrize("k", range(len(SCENARIOS)), ids=[s["id"] for s in SCENARIOS])
def test_scenario_gives_its_expected_result(results: list[dict[str, Any]], k: int) -> None:
    result = results[k]
    assert set(result) >= RESULT_KEYS
    assert mismatches(SCENARIOS[k]["expected"], result) == []
    assert refused(result) == flagged(SCENARIOS[k])
    for event in result["events"]:
        assert event == "illegal" or set(event) == {"aiChoice"}
    assert all(key.isdigit() and n > 0 for key, n in result["counts"].items())


@pytest.mark.parametrize("k", range(len(SCENARIOS)), ids=[s["id"] for s in SCENARIOS])
def test_every_scenario_agrees_with_the_literal_reading(
    results: list[dict[str, Any]], k: int
) -> None:
    """Replays each accepted action in the oracle (an ``ai`` action where the result
    says it chose): growth after each round, then that round's meteors, then the end."""
    scen, result = SCENARIOS[k], results[k]
    initial = scen["initial"]
    board = oracle.parse(initial["board"])
    actives = [p["id"] for p in initial.get("players", []) if p["type"] == "active"]
    choices = [e["aiChoice"] for e in result["events"] if e != "illegal"]
    rnd = initial.get("round", 1)
    last = 4 * len(board)
    rounds = []
    placed = 0
    over = False
    for action, code in zip(scen["actions"], result["refused"], strict=True):
        if code is not None:
            continue
        assert not over
        at = action["at"] if "at" in action else choices.pop(0)
        board[(at[0], at[1])] = str(action["player"])
        placed += 1
        if placed % (1 + len(actives)) == 0:
            board = oracle.grow(board)
            for m in initial.get("meteors", []):
                if m["round"] == rnd:
                    oracle.meteor(board, tuple(m["at"]), m.get("radius", 1))
            rounds.append(oracle.render(board, initial["board"]))
            over = "." not in board.values() or rnd >= last
            rnd += 1
    assert choices == []
    assert rounds == result["afterEachRound"]
    assert result["gameOver"] == over
    assert result["result"] == (None if not over else "win" if oracle.user_wins(board) else "loss")


def test_refusal_codes(results: list[dict[str, Any]]) -> None:
    by_id = {s["id"]: r for s, r in zip(SCENARIOS, results, strict=True)}
    assert by_id["D07"]["refused"][0] == "own_square"
    assert by_id["D08"]["refused"] == ["not_your_turn", None, "not_your_turn", None]
    assert by_id["D09"]["refused"][0] == "void"
    assert by_id["D18"]["refused"][1] == "game_over"
    assert by_id["D05"]["reason"] == "max_rounds" and by_id["D06"]["reason"] == "full"


def test_one_scenario_from_standard_input_prints_one_object() -> None:
    proc = run("-", json.dumps(SCENARIOS[13]))
    assert proc.returncode == 0
    assert mismatches(SCENARIOS[13]["expected"], json.loads(proc.stdout)) == []


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


@pytest.mark.parametrize("k", range(len(MALFORMED)), ids=[c["name"] for c in MALFORMED])
def test_malformed_document(k: int, tmp_path: Path) -> None:
    """The first case as a real subprocess, the others in this process (same command)."""
    case = MALFORMED[k]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(case["document"]), encoding="utf-8")
    proc = (run if k == 0 else run_here)(path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(str(path))
    for part in case["stderr_contains"]:
        assert part in lines[0], (part, lines[0])


def test_an_ai_action_plays_the_engines_level_and_reports_its_square() -> None:
    for stage, level, choose in (
        ("S5", "greedy", greedy_action),
        ("S6", "lookahead", lookahead_action),
    ):
        game = DokusenGame(stage)
        state = game.new_initial_state()
        initial = {
            "board": state.board_rows(),
            "players": [
                {"id": p.id, "type": p.kind, **({"ai": p.ai} if p.ai else {})}
                for p in game.stage.players
            ],
        }
        state.apply_action(game.index(1, 1))
        action = choose(state)
        state.apply_action(action)
        result = run_scenario(
            {
                "game": "dokusen",
                "initial": initial,
                "actions": [{"player": 0, "at": [1, 1]}, {"player": 1, "ai": level}],
            }
        )
        assert result["events"] == [{"aiChoice": list(game.grid.coord(action))}]
        assert result["board"] == state.board_rows()


# ----- round trips over random games (the reader, in process) ---------------------------


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    """A synthetic section-4.3 ``initial``: any board of up to 4 × 5 cells (void, black,
    the user and colours 1-3 anywhere), each colour inactive or active."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    cells = draw(st.lists(st.sampled_from("#..0123"), min_size=rows * cols, max_size=rows * cols))
    if all(ch == "#" for ch in cells):
        cells[0] = "."
    board = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    players: list[dict[str, Any]] = [{"id": 0, "type": "user"}]
    for pid in sorted(
        {int(ch) for ch in cells if ch in "123"} | set(draw(st.sets(st.sampled_from([1, 2]))))
    ):
        if draw(st.booleans()):
            players.append(
                {"id": pid, "type": "active", "ai": draw(st.sampled_from(["scripted", "greedy"]))}
            )
        else:
            players.append({"id": pid, "type": "inactive"})
    return {"board": board, "players": players, "round": 1}


def engine_state(initial: dict[str, Any]) -> DokusenState:
    """The same position made by the engine itself (its stage object, round 1)."""
    stage = {
        "board": initial["board"],
        "players": [
            {
                "id": p["id"],
                "kind": p["type"],
                **({"ai": "random"} if p["type"] == "active" else {}),
            }
            for p in initial["players"]
            if p["type"] != "user"
        ],
    }
    return DokusenGame(stage).state_from_position(initial["board"])


def reported(state: DokusenState) -> dict[str, Any]:
    out = state.outcome
    counts = {k: n for k, n in state.counts().items() if k.isdigit() and n}
    return {
        "gameOver": state.is_terminal(),
        "result": None if out is None else out.result,
        "counts": counts,
        "board": state.board_rows(),
        "round": state.round,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), initial=positions())
def test_random_games_round_trip_through_the_scenario_shape(
    data: st.DataObject, initial: dict[str, Any]
) -> None:
    """Random actions on a synthetic position (squares anyone may or may not take, any
    player, greedy choices) written as a scenario: the result reports the engine's state,
    a board after each round and exactly the refused actions; fed back as ``initial``
    (with the round), the reported state is read as the same state."""
    state = engine_state(initial)
    colours = state.game.num_players
    grid = state.game.grid
    actions: list[dict[str, Any]] = []
    want_events: list[Any] = []
    want_rounds, want_refused = [], []
    for _ in range(data.draw(st.integers(0, 12), label="actions")):
        player = data.draw(st.integers(0, colours - 1))
        cur = state.current_player()
        if data.draw(st.booleans()):
            actions.append({"player": player, "ai": "greedy"})
            if cur == TERMINAL or player != cur or not state.legal_actions():
                want_events.append("illegal")
                want_refused.append(True)
                continue
            action = greedy_action(state)
            want_events.append({"aiChoice": list(grid.coord(action))})
        else:
            at = data.draw(st.tuples(st.integers(0, grid.rows - 1), st.integers(0, grid.cols - 1)))
            actions.append({"player": player, "at": list(at)})
            action = grid.index(*at)
            if cur == TERMINAL or player != cur or action not in state.legal_actions():
                want_events.append("illegal")
                want_refused.append(True)
                continue
        want_refused.append(False)
        if any(e.kind == "grow" for e in state.apply_action(action)):
            want_rounds.append(state.board_rows())
    result = run_scenario({"game": "dokusen", "initial": initial, "actions": actions})
    assert {k: result[k] for k in reported(state)} == reported(state)
    assert result["events"] == want_events
    assert result["afterEachRound"] == want_rounds
    assert [code is not None for code in result["refused"]] == want_refused
    if not state.is_terminal() and state.current_player() == 0:
        again = {**initial, "board": result["board"], "round": result["round"]}
        back = run_scenario({"game": "dokusen", "initial": again, "actions": []})
        assert {k: back[k] for k in reported(state)} == reported(state)
