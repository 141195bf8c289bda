"""``python -m surveys`` through a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "surveys", *args], input=stdin, capture_output=True,
                          text=True, check=False)


def test_score_from_stdin_all_instruments() -> None:
    entries = [
        {"instrument": "sus", "answers": [5, 2, 4, 2, 4, 2, 4, 2, 4, None]},
        {"instrument": "sus", "answers": [5, 2, 4, 2, 4, 2, 4, 2, 4, None], "options": {"missing": "prorate"}},
        {"instrument": "umux_lite", "answers": [6, 5]},
        {"instrument": "minipxi", "answers": [0] * 11},
        {"instrument": "pxi", "answers": [1] * 33},
        {"instrument": "ueq_s", "answers": [7, 7, 7, 7, 1, 1, 1, 1]},
        {"instrument": "raw_tlx", "answers": [0, 0, 0, 100, 0, 0]},
        {"instrument": "recommend", "answers": [0]},
        {"instrument": "smileyometer", "answers": [5]},
        {"instrument": "recommend", "answers": [None]},
    ]
    out = _run("score", "-", stdin=json.dumps(entries))
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert [r["score"] for r in res][:3] == [75.0, pytest.approx(77.7777778), 75.0]
    assert res[0]["grade"] == "B"
    assert res[3]["score"] is None and res[3]["scales"]["meaning"] == 0.0
    assert res[4]["scales"]["enjoyment"] == 1.0
    assert res[5]["scales"]["pragmatic"] == 3.0
    assert res[6]["score"] == pytest.approx(100 / 6)
    assert res[7] | {} == res[7] and res[7]["score"] == 0.0 and res[7]["grade"] == "detractor"
    assert res[8]["grade"] == "Brilliant"
    assert res[9]["score"] is None
    for r in res:
        assert set(r) >= {"score", "scales", "grade"}


def test_score_from_file(tmp_path: Path) -> None:
    f = tmp_path / "a.json"
    f.write_text(json.dumps([{"instrument": "umux_lite", "answers": [7, 7]}]), encoding="utf-8")
    out = _run("score", str(f))
    assert out.returncode == 0 and json.loads(out.stdout)[0]["score"] == 100.0


@pytest.mark.parametrize(
    ("stdin", "message"),
    [("not json", "<stdin>: not valid JSON"), ("{}", "expected a JSON list"),
     ('[{"instrument": "sus"}]', "entry 1: needs"),
     ('[{"instrument": "umux_lite", "answers": [7, 7]}, {"instrument": "sus", "answers": [6,3,3,3,3,3,3,3,3,3]}]',
      "entry 2: sus: item 1: 6 is outside 1..5"),
     ('[{"instrument": "geq", "answers": [1]}]', "unknown instrument"),
     ('[{"instrument": "sus", "answers": [3,3,3,3,3,3,3,3,3,3], "options": {"bogus": 1}}]', "entry 1: sus")],
)
def test_score_bad_input_one_line_exit_2(stdin: str, message: str) -> None:
    out = _run("score", "-", stdin=stdin)
    assert out.returncode == 2
    assert message in out.stderr and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert out.stdout == ""


def test_score_missing_file() -> None:
    out = _run("score", "/nonexistent/x.json")
    assert out.returncode == 2 and "cannot read" in out.stderr and "Traceback" not in out.stderr


def test_check_broken_definition(tmp_path: Path) -> None:
    f = tmp_path / "broken.yaml"
    f.write_text("id: x\nversion: '1'\ntitle: X\npages:\n  - id: p\n    items:\n"
                 "      - {id: q7, type: likert, points: 1, text: Hi}\n", encoding="utf-8")
    out = _run("check", str(f))
    assert out.returncode == 2
    assert out.stderr.startswith(f"{f}: item q7: points:")
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_schema_command_prints_json_schema() -> None:
    out = _run("schema")
    assert out.returncode == 0
    schema = json.loads(out.stdout)
    assert schema["title"] == "SurveyDefinition" and "Likert" in schema["$defs"]


def test_usage_errors_exit_2() -> None:
    out = _run("frobnicate")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
