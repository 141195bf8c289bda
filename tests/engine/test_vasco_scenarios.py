"""Vasco scenarios through the real ``python -m engine scenario`` command, and the
reader's shapes over random legal games.

``scenarios/vasco/section4.json`` holds V01-V18 in the shape of rules-other-games.md
section 4.2 (``"game": "vasco"``, ``initial`` with ``pool``, ``tiles`` as
``[[r, c], state]`` and ``toMove``; actions ``{player, cell, tile}``; ``expected``
holding every key of 4.2). The file was checked against the literal second reading of
the rules in ``vasco_oracle.py`` (test below), not only against the engine that produced
it. Tiles and autos are compared as sets, as section 4.2 asks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import vasco_oracle as oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_command import as_set, flagged, mismatches, refused, run, run_here

from engine.vasco import STATES, VascoGame, VascoState, decode
from engine.vasco.scenario import run_scenario, tile_list
from engine.vasco.state import MARK, Place

FILE = Path(__file__).resolve().parent / "scenarios" / "vasco" / "section4.json"
CASES: list[dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))
#: Section 4.2's ``expected`` keys: the result holds all of them, whatever a file checks.
RESULT_KEYS = {"tiles", "toMove", "winner", "tilesRemaining", "autoPlacements"}


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    proc = run(FILE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out: list[dict[str, Any]] = json.loads(proc.stdout)
    return out


def test_all_eighteen_are_there_in_section_4_shape() -> None:
    assert [c["id"] for c in CASES] == [f"V{i:02d}" for i in range(1, 19)]
    for case in CASES:
        assert set(case) == {"game", "id", "description", "initial", "actions", "expected"}
        assert set(case["initial"]) == {"pool", "tiles", "toMove"}
        assert set(case["expected"]) == RESULT_KEYS
        assert all(set(a) <= {"player", "cell", "tile", "expectIllegal"} for a in case["actions"])
        assert case["expected"]["tilesRemaining"] == case["initial"]["pool"] - len(
            case["expected"]["tiles"]
        )


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c["id"] for c in CASES])
def test_the_command_reproduces_every_expected_result(
    results: list[dict[str, Any]], k: int
) -> None:
    result = results[k]
    assert set(result) >= RESULT_KEYS
    assert mismatches(CASES[k]["expected"], result) == []
    assert refused(result) == flagged(CASES[k])
    assert [a is None for a in result["autoPlacements"]] == flagged(CASES[k])


def test_autos_and_tiles_are_compared_as_a_set(results: list[dict[str, Any]]) -> None:
    expected = json.loads(json.dumps(CASES[2]["expected"]))  # V03: three forced tiles
    expected["autoPlacements"][0].reverse()
    expected["tiles"].reverse()
    assert mismatches(expected, results[2]) == []
    expected["autoPlacements"][0].pop()
    assert mismatches(expected, results[2]) != []


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_oracle_agrees(case: dict[str, Any]) -> None:
    """Replay each scenario with the slow literal reading: same legality, autos and end."""
    initial = case["initial"]
    board = {(r, c): st for (r, c), st in initial["tiles"]}
    left = initial["pool"] - len(board)
    mover = initial["toMove"]
    verdict = None
    autos: list[Any] = []
    for action in case["actions"]:
        cell = tuple(action["cell"])
        if verdict is not None or action["player"] != mover:
            autos.append(None)
            continue
        res = oracle.apply(board, left, cell, action["tile"])  # type: ignore[arg-type]
        if res is None:
            autos.append(None)
            continue
        board, placed = res
        left -= 1 + len(placed)
        autos.append([[[r, c], st] for (r, c), st in placed])
        mover = "X" if mover == "O" else "O"
        verdict = oracle.judge(board, left)
    expected = case["expected"]
    assert as_set(tile_list(board)) == as_set(expected["tiles"])
    assert [as_set(a) for a in autos] == [as_set(a) for a in expected["autoPlacements"]]
    assert expected["tilesRemaining"] == left
    if verdict is None:
        assert expected["winner"] is None and expected["toMove"] == mover
    else:
        assert expected["winner"] == (verdict[0] or "draw") and expected["toMove"] is None


def test_refusals_name_the_rule(results: list[dict[str, Any]]) -> None:
    reasons = {
        c["id"]: [r for r in res["refused"] if r] for c, res in zip(CASES, results, strict=True)
    }
    assert reasons["V01"] == ["centre_first", "not_your_turn"]
    assert reasons["V04"] == ["no_contact"]
    assert reasons["V06"] == ["dead_cell"]
    assert reasons["V07"] == ["not_connected", "not_connected"]
    assert reasons["V09"] == ["mismatch", "occupied", "no_contact"]
    assert reasons["V10"] == ["not_enough_tiles"]
    assert reasons["V14"] == ["game_over"]
    assert reasons["V17"] == ["unplayable"]


def test_end_conditions_of_the_scenarios() -> None:
    winners = {c["id"]: c["expected"]["winner"] for c in CASES}
    # pool empty: the longer path loses (V11), equal paths draw (V10, V12)
    assert (winners["V10"], winners["V11"], winners["V12"]) == ("draw", "O", "draw")
    assert winners["V13"] == "X"  # O's move closed X's loop
    assert winners["V14"] == "O"
    assert winners["V16"] == "draw"


def test_v17_leaves_no_same_colour_pair_but_an_unfillable_cell() -> None:
    case = next(c for c in CASES if c["id"] == "V17")
    board = {(r, c): st for (r, c), st in case["initial"]["tiles"]}
    action = case["actions"][0]
    b = dict(board)
    b[tuple(action["cell"])] = action["tile"]  # type: ignore[index]
    # the placed tile itself creates no dead cell: the cascade is what fails
    for n in oracle.nbrs(tuple(action["cell"])):  # type: ignore[arg-type]
        if n not in b:
            colours = [k for _, k in oracle.constrained(b, n)]
            assert len(set(colours)) == len(colours)


MALFORMED = [
    ({"game": "vasco", "id": "M1"}, ["M1", "actions"]),
    (
        {"game": "vasco", "id": "M2", "actions": [{"type": "place", "player": "O"}]},
        ["M2", "actions[0].type", "unknown field"],
    ),
    ({"game": "vasco", "id": "M3", "actions": [{"player": "Z"}]}, ["M3", "actions[0].player"]),
    (
        {"game": "vasco", "actions": [{"player": "O", "cell": [0], "tile": "ox*"}]},
        ["scenario", "actions[0].cell"],
    ),
    (
        {"game": "vasco", "actions": [{"player": "O", "cell": [0, 0], "tile": "oo*"}]},
        ["actions[0].tile"],
    ),
    (
        {"game": "vasco", "actions": [{"player": "O", "cell": [0, 0], "tile": ["o", "x", "*"]}]},
        ["actions[0].tile"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[[0, 0], "ox*"], [[0, 1], "ox*"]]}, "actions": []},
        ["initial.tiles", "match"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[[0, 0], "ox*"], [[0, 4], "ox*"]]}, "actions": []},
        ["initial.tiles", "connected"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[0, 0, "ox*"]]}, "actions": []},
        ["initial.tiles[0]", "[[r, c], state]"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[[0, 0], "ox*"], [[0, 0], "ox*"]]}, "actions": []},
        ["initial.tiles[1]", "twice"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[[0, 0], "ox*"], [[0, 1], "o"]]}, "actions": []},
        ["initial.tiles[1]", "'o' is not a tile state"],
    ),
    ({"game": "vasco", "initial": {"toMove": "B"}, "actions": []}, ["initial.toMove"]),
    ({"game": "vasco", "initial": {"toMove": ["O"]}, "actions": []}, ["initial.toMove"]),
    ({"game": "vasco", "actions": [{"player": ["O"]}]}, ["actions[0].player"]),
    ({"game": "vasco", "initial": {"pool": 0}, "actions": []}, ["initial.pool"]),
    (
        {
            "game": "vasco",
            "initial": {"pool": 1, "tiles": [[[0, 0], "ox*"], [[0, 1], "xo*"]]},
            "actions": [],
        },
        ["initial.pool", "from 2"],
    ),
    (
        {"game": "vasco", "initial": {"tilesRemaining": 3}, "actions": []},
        ["initial.tilesRemaining"],
    ),
    ({"game": "vasco", "rules": {"pool": 3}, "actions": []}, ["rules", "unknown field"]),
    ({"game": "vasco", "actions": [], "colour": "red"}, ["colour", "unknown"]),
]


@pytest.mark.parametrize("k", range(len(MALFORMED)), ids=[f"m{i}" for i in range(len(MALFORMED))])
def test_a_malformed_scenario_is_one_line_and_status_2(k: int, tmp_path: Path) -> None:
    """The first case as a real subprocess reading standard input, the others in this
    process (same command)."""
    doc, words = MALFORMED[k]
    if k == 0:
        proc = run("-", json.dumps([CASES[0], doc]))
    else:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps([CASES[0], doc]), encoding="utf-8")
        proc = run_here(path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "scenario[1]" in lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "Traceback" not in proc.stderr


def test_one_document_may_mix_games() -> None:
    vapoosh = {"rules": "standard", "actions": [["roll", [3, 4, 2, 5]], ["place", [7, 7]]]}
    proc = run("-", json.dumps([vapoosh, CASES[2]]))
    assert proc.returncode == 0, proc.stderr
    first, second = json.loads(proc.stdout)
    assert first["events"] == ["roll", "place", "extra_turn"]
    assert mismatches(CASES[2]["expected"], second) == []


def test_a_single_object_gives_a_single_result() -> None:
    proc = run("-", json.dumps(CASES[1]))
    assert proc.returncode == 0
    assert mismatches(CASES[1]["expected"], json.loads(proc.stdout)) == []


# ----- round trips over random games (the reader, in process) ---------------------------


def as_initial(state: VascoState) -> dict[str, Any]:
    """A state in section 4.2's ``initial`` shape."""
    pool = state.tiles_remaining + len(state.tiles)
    return {"pool": pool, "tiles": tile_list(state.tiles), "toMove": MARK[state.to_move]}


def reported(state: VascoState) -> dict[str, Any]:
    out = state.outcome
    winner = None if out is None else "draw" if out.winner is None else MARK[out.winner]
    return {
        "tiles": tile_list(state.tiles),
        "toMove": None if out is not None else MARK[state.to_move],
        "winner": winner,
        "tilesRemaining": state.tiles_remaining,
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), pool=st.sampled_from([6, 12, 54]))
def test_random_games_round_trip_through_the_scenario_shape(data: st.DataObject, pool: int) -> None:
    """A random game, some moves refused on purpose (a random tile near the group, or the
    wrong colour), written as a scenario: the result reports the engine's state, the
    forced tiles and exactly the refused moves; fed back as ``initial``, the reported
    state is read as the same state."""
    state = VascoGame({"pool": pool}).new_initial_state()
    start = as_initial(state)
    actions, want_autos = [], []
    for _ in range(data.draw(st.integers(0, 14), label="moves")):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        kind = data.draw(st.sampled_from(["legal", "legal", "legal", "near", "other colour"]))
        if kind == "near":
            r, c = data.draw(st.sampled_from(sorted(state.tiles) or [(0, 0)]))
            place = Place(
                r + data.draw(st.integers(-1, 1)),
                c + data.draw(st.integers(-2, 2)),
                data.draw(st.sampled_from(STATES)),
            )
        else:
            place = decode(data.draw(st.sampled_from(legal)))
        mover = MARK[state.to_move]
        player = {"O": "X", "X": "O"}[mover] if kind == "other colour" else mover
        actions.append({"player": player, "cell": [place.r, place.c], "tile": place.state})
        if player != mover or state.game.encode(place) not in legal:
            want_autos.append(None)
            continue
        events = state.apply(place)
        want_autos.append([[list(e.tiles[0]), e.data["tile"]] for e in events if e.kind == "auto"])
    result = run_scenario({"game": "vasco", "initial": start, "actions": actions})
    assert {k: result[k] for k in reported(state)} == reported(state)
    assert result["tilesRemaining"] == pool - len(result["tiles"])
    assert result["autoPlacements"] == want_autos
    assert [code is not None for code in result["refused"]] == [a is None for a in want_autos]
    if not state.is_terminal():
        again = run_scenario({"game": "vasco", "initial": as_initial(state), "actions": []})
        assert {k: again[k] for k in reported(state)} == reported(state)
