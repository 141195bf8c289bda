"""Runs the real ``python -m engine scenario`` command on the scenario files.

Format of ``tests/engine/scenarios/*.json`` (see scenarios/README.md): an array
of ``{"scenario": <scenario object of scenario-format.md>, "expect": <result>}``
pairs. Every key present in ``expect`` must equal the command's result (an
absent ``board`` is not compared); an ``expect`` holding ``error`` must match the
error result exactly. ``scenarios/malformed/cases.json`` lists malformed
documents with words the one-line message on standard error must contain.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scenario_command import ROOT, run

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.json"))


def matches(result: dict[str, Any], expect: dict[str, Any]) -> bool:
    if "error" in expect:
        return result == expect
    return "error" not in result and all(result.get(k) == v for k, v in expect.items())


def test_scenario_files_exist() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_file(path: Path, tmp_path: Path) -> None:
    cases = json.loads(path.read_text(encoding="utf-8"))
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps([c["scenario"] for c in cases]), encoding="utf-8")
    proc = run(doc)
    assert proc.stderr == ""
    results = json.loads(proc.stdout)
    assert len(results) == len(cases)
    wrong = [
        (c["scenario"].get("name"), r, c["expect"])
        for c, r in zip(cases, results, strict=True)
        if not matches(r, c["expect"])
    ]
    assert wrong == []
    any_error = any("error" in c["expect"] for c in cases)
    assert proc.returncode == (1 if any_error else 0)


def test_every_result_has_exactly_the_documented_fields(tmp_path: Path) -> None:
    cases = [c for p in FILES for c in json.loads(p.read_text(encoding="utf-8"))]
    doc = tmp_path / "all.json"
    doc.write_text(json.dumps([c["scenario"] for c in cases]), encoding="utf-8")
    results = json.loads(run(doc).stdout)
    documented = {"board", "to_move", "phase", "winner", "events"}
    for r in results:
        assert set(r) in (documented, {"error", "action_index"})
    kinds = {k for r in results for k in r.get("events", [])}
    assert kinds >= {
        "roll", "place", "capture", "surround_capture", "brown", "extra_turn", "blocked_own",
        "reroll", "miss_turn", "quad", "skip", "vapoosh", "win", "draw",
    }  # fmt: skip


def test_single_object_from_standard_input() -> None:
    scenario = {"rules": "standard", "actions": [["roll", [3, 4, 2, 5]], ["place", [7, 7]]]}
    proc = run("-", stdin=json.dumps(scenario))
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    assert result["events"] == ["roll", "place", "extra_turn"] and result["to_move"] == 1


def test_forbidden_action_exits_1_after_printing_all() -> None:
    doc = [
        {"board": ["." * 12] * 4 + ["......2....."] + ["." * 12] * 7,
         "actions": [["roll", [3, 4, 2, 3]], ["place", [7, 5]]]},
        {"actions": [["roll", [3, 4, 2, 5]]]},
    ]  # fmt: skip
    proc = run("-", stdin=json.dumps(doc))
    assert proc.returncode == 1
    results = json.loads(proc.stdout)
    assert results[0]["action_index"] == 1 and "empty tile" in results[0]["error"]
    assert results[1]["phase"] == "place"


MALFORMED = json.loads((SCENARIOS / "malformed" / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", MALFORMED, ids=[c["name"] for c in MALFORMED])
def test_malformed_document(case: dict[str, Any], tmp_path: Path) -> None:
    doc = tmp_path / "bad.json"
    doc.write_text(
        case["text"] if "text" in case else json.dumps(case["document"]), encoding="utf-8"
    )
    proc = run(doc)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for words in case["stderr_contains"]:
        assert words in lines[0]


def test_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    proc = run(tmp_path / "nope.json")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_dispatcher_rejects_unknown_commands() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "fly"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "unknown command" in proc.stderr
