"""Vasco scenarios through the real ``python -m engine scenario`` command.

``scenarios/vasco/section4.json`` holds V01–V18: section-4 objects of
rules-other-games.md (``"game": "vasco"``, ``initial``, ``actions``, ``expected``),
each ``expected`` holding every result key. The file was checked against the literal
second reading of the rules in ``vasco_oracle.py`` (test below), not only against the
engine that produced it. Autos and tiles are compared as sets, as section 2.5 asks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import vasco_oracle as oracle
from scenario_command import run

FILE = Path(__file__).resolve().parent / "scenarios" / "vasco" / "section4.json"
CASES: list[dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))


def as_set(tiles: list[list[Any]] | None) -> frozenset[tuple[Any, ...]] | None:
    return None if tiles is None else frozenset(tuple(t) for t in tiles)


def same(result: dict[str, Any], expected: dict[str, Any]) -> bool:
    for key, want in expected.items():
        got = result[key]
        if key == "tiles":
            got, want = as_set(got), as_set(want)
        elif key == "autoPlacements":
            got, want = [as_set(a) for a in got], [as_set(a) for a in want]
        if got != want:
            return False
    return True


def test_all_eighteen_are_there() -> None:
    assert [c["id"] for c in CASES] == [f"V{i:02d}" for i in range(1, 19)]


def test_the_command_reproduces_every_expected_result() -> None:
    proc = run(str(FILE))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    results = json.loads(proc.stdout)
    assert len(results) == len(CASES)
    for case, result in zip(CASES, results, strict=True):
        assert set(result) >= {"tiles", "toMove", "winner", "tilesRemaining", "autoPlacements"}
        assert same(result, case["expected"]), case["id"]
        assert [a is None for a in result["autoPlacements"]] == case["expectIllegal"], case["id"]


def test_autos_are_compared_as_a_set() -> None:
    case = json.loads(json.dumps(CASES[2]))  # V03: three forced tiles
    case["expected"]["autoPlacements"][0].reverse()
    result = json.loads(run("-", json.dumps(case)).stdout)
    assert same(result, case["expected"])
    case["expected"]["autoPlacements"][0].pop()
    assert not same(result, case["expected"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_oracle_agrees(case: dict[str, Any]) -> None:
    """Replay each scenario with the slow literal reading: same legality, autos and end."""
    pool = (case.get("rules") or {}).get("pool", 54) if isinstance(case.get("rules"), dict) else 54
    initial = case.get("initial", {})
    board = {(r, c): st for r, c, st in initial.get("tiles", [])}
    left = initial.get("tilesRemaining", pool - len(board))
    mover = initial.get("toMove", "O")
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
        autos.append([[r, c, st] for (r, c), st in placed])
        mover = "X" if mover == "O" else "O"
        verdict = oracle.judge(board, left)
    expected = case["expected"]
    assert as_set([[r, c, st] for (r, c), st in board.items()]) == as_set(expected["tiles"])
    assert [as_set(a) for a in autos] == [as_set(a) for a in expected["autoPlacements"]]
    assert expected["tilesRemaining"] == left
    if verdict is None:
        assert expected["winner"] is None and expected["toMove"] == mover
    else:
        assert expected["winner"] == (verdict[0] or "draw") and expected["toMove"] is None


def test_refusals_name_the_rule() -> None:
    reasons = {c["id"]: [r for r in c["expected"]["refused"] if r] for c in CASES}
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
    board = {(r, c): st for r, c, st in case["initial"]["tiles"]}
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
    ({"game": "vasco", "id": "M2", "actions": [{"type": "move"}]}, ["M2", "actions[0].type"]),
    (
        {"game": "vasco", "id": "M3", "actions": [{"type": "place", "player": "Z"}]},
        ["M3", "actions[0].player"],
    ),
    (
        {
            "game": "vasco",
            "actions": [{"type": "place", "player": "O", "cell": [0], "tile": "ox*"}],
        },
        ["scenario", "actions[0].cell"],
    ),
    (
        {
            "game": "vasco",
            "actions": [{"type": "place", "player": "O", "cell": [0, 0], "tile": "oo*"}],
        },
        ["actions[0].tile"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[0, 0, "ox*"], [0, 1, "ox*"]]}, "actions": []},
        ["initial.tiles", "match"],
    ),
    (
        {"game": "vasco", "initial": {"tiles": [[0, 0, "ox*"], [0, 4, "ox*"]]}, "actions": []},
        ["initial.tiles", "connected"],
    ),
    ({"game": "vasco", "initial": {"toMove": "B"}, "actions": []}, ["initial.toMove"]),
    (
        {"game": "vasco", "initial": {"tilesRemaining": -1}, "actions": []},
        ["initial.tilesRemaining"],
    ),
    ({"game": "vasco", "rules": {"pool": 0}, "actions": []}, ["rules", "pool"]),
    ({"game": "vasco", "actions": [], "colour": "red"}, ["colour", "unknown"]),
]


@pytest.mark.parametrize("doc,words", MALFORMED, ids=[f"m{i}" for i in range(len(MALFORMED))])
def test_a_malformed_scenario_is_one_line_and_status_2(
    doc: dict[str, Any], words: list[str]
) -> None:
    proc = run("-", json.dumps([CASES[0], doc]))
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
    assert same(second, CASES[2]["expected"])


def test_a_single_object_gives_a_single_result() -> None:
    proc = run("-", json.dumps(CASES[1]))
    assert proc.returncode == 0
    assert same(json.loads(proc.stdout), CASES[1]["expected"])
