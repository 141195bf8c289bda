"""The bench command runs and prints its numbers (it asserts no speeds itself)."""

from __future__ import annotations

import json

import pytest

from benchmarks.bench_engine import decision_positions, main
from engine.vapoosh import Rules


def test_bench_prints_speed_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "--playouts",
        "20",
        "--sim-games",
        "20",
        "--positions",
        "2",
        "--workers",
        "1",
        "--levels",
        "easy,medium,hard",
        "--json",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["random_playouts"]["games"] == 20 and out["random_playouts"]["games_per_second"] > 0
    assert out["simulate"]["games"] == 20
    assert set(out["decisions"]) == {"easy", "medium", "hard"}
    assert out["decisions"]["hard"]["positions"] == 2


def test_bench_strength_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--strength", "--games", "4", "--pairs", "medium:easy", "--game", "vapoosh",
            "--agreement", "5"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "medium vs easy" in out and "decided" in out and "95% interval" in out
    assert "turns offer a choice" in out


def test_positions_are_fixed_by_the_seed() -> None:
    a = decision_positions(Rules.preset("house"), 3, 4, seed=9)
    b = decision_positions(Rules.preset("house"), 3, 4, seed=9)
    assert [s.board_rows() for s in a] == [s.board_rows() for s in b]


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "5"],
        ["--levels", "easy,ultra"],
        ["--pairs", "hard"],
        ["--strength", "--game", "chess"],
        ["--search-games", "0"],
        ["--rules", "nope"],
        ["--positions", "0"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
