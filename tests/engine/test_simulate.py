"""simulate(): determinism whatever the worker count, report shape, CLI errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.simulate import SimulationError, main, play_game, simulate, wilson
from engine.vapoosh import Rules

ROOT = Path(__file__).resolve().parents[2]


def test_report_is_identical_for_one_and_two_workers() -> None:
    rules = Rules.preset("house")
    one = simulate(rules, ["medium", "easy", "hard"], games=9, seed=3, workers=1)
    two = simulate(rules, ["medium", "easy", "hard"], games=9, seed=3, workers=2)
    assert one.to_dict() == two.to_dict()
    assert (
        one.to_dict() != simulate(rules, ["medium", "easy", "hard"], 9, seed=4, workers=1).to_dict()
    )


def test_random_games_are_identical_for_one_and_two_workers() -> None:
    rules = Rules.preset("standard")
    one = simulate(rules, ["easy", "easy"], games=300, seed=1, workers=1)
    two = simulate(rules, ["easy", "easy"], games=300, seed=1, workers=2)
    assert one == two
    assert one.decided + one.draws == 300


def test_report_numbers_add_up() -> None:
    report = simulate(Rules.preset("classic"), ["medium", "easy"], games=16, seed=2, workers=1)
    d = report.to_dict()
    assert d["games"] == 16 and d["decided"] + d["draws"] == 16
    assert sum(s["successes"] for s in d["seat_wins"]) == d["decided"]
    assert d["first_seat"]["successes"] == d["seat_wins"][0]["successes"]
    assert d["first_seat_advantage"] == pytest.approx(d["first_seat"]["share"] - 0.5)
    assert sum(b[2] for b in d["length"]["histogram"]) == 16
    assert d["length"]["minimum"] <= d["length"]["median"] <= d["length"]["maximum"]
    assert d["rules_fired"]["win"]["per_game"] == pytest.approx(d["decided"] / 16)
    assert d["rules_fired"]["roll"]["per_game"] == pytest.approx(d["length"]["mean"])
    assert sum(d["end_reasons"].values()) == 16
    assert d["rules"] == Rules.preset("classic").to_obj()
    json.dumps(d)  # JSON-ready
    text = report.to_text()
    assert "first-seat advantage" in text and "surround_capture" in text


def test_rotation_puts_every_level_in_every_seat() -> None:
    report = simulate(
        Rules.preset("standard"), ["medium", "easy"], games=10, seed=5, workers=1, rotate=True
    )
    assert set(report.level_wins) == {"medium", "easy"}
    assert sum(i.successes for i in report.level_wins.values()) == report.decided


def test_play_game_is_a_pure_function_of_its_seed() -> None:
    rules = Rules.preset("house")
    assert play_game(rules, ["hard", "medium"], 42) == play_game(rules, ["hard", "medium"], 42)


def test_wilson_interval_known_value() -> None:
    i = wilson(60, 100)
    assert (round(i.low, 4), round(i.high, 4)) == (0.5020, 0.6906)
    assert wilson(0, 0).trials == 0


@pytest.mark.parametrize(
    ("seats", "games", "workers", "field"),
    [
        (["easy"], 5, 1, "seats"),
        (["easy", "pro"], 5, 1, "seats"),
        (["easy", "easy"], 0, 1, "games"),
        (["easy", "easy"], 5, 0, "workers"),
    ],
)
def test_bad_parameters_are_typed_errors(
    seats: list[str], games: int, workers: int, field: str
) -> None:
    with pytest.raises(SimulationError, match=f"^{field}:"):
        simulate(Rules.preset("standard"), seats, games, seed=1, workers=workers)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "--rules",
                '{"base": "standard", "surround": "group"}',
                "--seats",
                "easy,medium",
                "--games",
                "4",
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["rules"]["surround"] == "group"
    assert out["seats"] == ["easy", "medium"] and out["games"] == 4
    assert {"first_seat", "length", "rules_fired", "seat_wins", "draws"} <= set(out)


@pytest.mark.parametrize(
    "argv",
    [
        ["--rules", "tournament"],
        ["--rules", "{bad json"],
        ["--rules", '{"surround": "sometimes"}'],
        ["--seats", "easy,wizard"],
        ["--seats", "easy"],
        ["--games", "0"],
        ["--games", "ten"],
        ["--workers", "0"],
        ["--frobnicate"],
    ],
)
def test_cli_bad_arguments_exit_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        status = main(argv)
        raise SystemExit(status)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_module_command_line_exit_status() -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--games", "-3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
