"""The engines' benchmark runs and prints its numbers (it asserts no speeds itself)."""

from __future__ import annotations

import json

import pytest

from benchmarks.bench_engines import SUBJECTS, answer_times, main, selfplay


def test_self_play_rows_come_from_child_processes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--rounds", "1", "--seconds", "0.05", "--only", "morris,dokusen", "--no-latency",
            "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["trees"] == ["this"]
    for label in ("morris", "dokusen S8"):
        row = out["speed"][label]["this"]
        assert row["games_per_s"] > 0 and row["plies_per_s"] > row["games_per_s"]


def test_the_same_seed_plays_the_same_games() -> None:
    morris = next(s for s in SUBJECTS if s.label == "morris")
    a, b = selfplay(morris, 0, 3, seed=5), selfplay(morris, 0, 3, seed=5)
    assert (a["games"], a["plies"]) == (b["games"], b["plies"]) == (3, a["plies"])


def test_answer_times_name_every_level_and_the_targets() -> None:
    rows = answer_times("morris", 2, seed=1)
    assert [r["level"] for r in rows] == ["easy", "medium", "hard"]
    assert [r["target_ms"] for r in rows] == [50.0, None, 300.0]
    assert all(r["positions"] == 2 and r["p95_ms"] >= r["p50_ms"] >= 0 for r in rows)


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--rounds", "0"])
    assert exit_.value.code == 2
