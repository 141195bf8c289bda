"""The generic balance simulator (engine/balance.py) on planted truths, on the real
games, and the old simulator's golden outputs for the first game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom

from engine import balance
from engine.balance import (
    HOUSE,
    numpy_chance,
    play_games,
    simulate,
    simulate_parts,
)
from engine.simulate import main
from tests.engine import planted_game  # (importing it registers the planted game)
from tests.engine.planted_game import NAME

GOLDEN = Path(__file__).parent / "golden" / "simulate"

# -- planted truths ----------------------------------------------------------------------


def test_a_level_against_itself_with_seats_rotated_wins_half() -> None:
    report = simulate(NAME, {"p_first": 0.7}, ["weak", "weak_too"], 2000, seed=1,
                      rotate=True)
    weak = report.level_wins["weak"]
    assert weak.low <= 0.5 <= weak.high
    # the seat is not fair: seat 1 wins (0.7 + 0.5) / 2 = 0.6 of decided games
    assert report.first_seat.low <= 0.6 <= report.first_seat.high
    assert report.first_seat.low > 0.5
    assert report.first_seat_advantage == pytest.approx(report.first_seat.share - 0.5)


def test_the_stronger_level_wins_three_quarters_and_the_seat_half() -> None:
    report = simulate(NAME, {"p_first": 0.5}, ["strong", "weak"], 1200, seed=2, rotate=True)
    strong = report.level_wins["strong"]
    assert strong.low <= 0.75 <= strong.high and strong.low > 0.5
    assert report.first_seat.low <= 0.5 <= report.first_seat.high


def test_draws_and_game_length_are_the_planted_ones() -> None:
    report = simulate(NAME, {"p_draw": 0.2}, ["weak", "weak"], 1500, seed=3)
    assert report.draw_rate.low <= 0.2 <= report.draw_rate.high
    assert report.draws == report.games - report.decided == report.draw_rate.successes
    low, high = report.median_ci
    assert low <= 7 <= high  # 2 picks + a length uniform in 1..9
    assert report.length.minimum == 3 and report.length.maximum == 11
    events = report.to_dict()["events"]
    assert events["pick"] == {"per_game": 2.0, "games_share": 1.0}
    assert events["draw"]["per_game"] == pytest.approx(report.draws / report.games)


def test_wilson_intervals_cover_the_planted_share_95_percent_of_runs() -> None:
    # calibration: 200 runs of 60 games; the truth is seat 1 wins 0.6 of decided games
    covered = 0
    runs = 200
    for seed in range(runs):
        r = simulate(NAME, {"p_first": 0.7}, ["weak", "weak_too"], 60, seed=seed)
        covered += r.first_seat.low <= 0.6 <= r.first_seat.high
    # 95% nominal; with 200 runs a calibrated interval lands in [0.91, 0.99] (binomial 99.8%)
    assert binom.ppf(0.001, runs, 0.95) / runs <= covered / runs


def test_the_median_interval_covers_the_planted_median() -> None:
    runs = 150
    covered = sum(
        (lambda lo_hi: lo_hi[0] <= 7 <= lo_hi[1])(
            simulate(NAME, None, ["weak", "weak"], 40, seed=seed).median_ci)
        for seed in range(runs))
    assert covered / runs >= 0.93  # at least 95% by construction (ties make it more)


def test_chance_is_drawn_with_the_planted_probabilities() -> None:
    class Coin:
        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(7, 0.25), (9, 0.75)]

    draw = numpy_chance(np.random.default_rng(5))
    sevens = sum(draw(Coin()) == 7 for _ in range(4000))
    share = balance.wilson(sevens, 4000)
    assert share.low <= 0.25 <= share.high


# -- determinism ---------------------------------------------------------------------------


def test_a_seed_gives_the_same_report_whatever_the_workers() -> None:
    one = simulate("morris", None, ["easy", "medium"], 12, seed=4, rotate=True)
    two = simulate("morris", None, ["easy", "medium"], 12, seed=4, rotate=True, workers=2)
    assert one == two and one.to_dict() == two.to_dict()
    other = simulate("morris", None, ["easy", "medium"], 12, seed=5, rotate=True)
    assert other.to_dict() != one.to_dict()


def test_more_games_begin_with_the_same_games() -> None:
    short = play_games(NAME, None, ["weak", "strong"], 9, True, 0, 10)
    long = play_games(NAME, None, ["weak", "strong"], 9, True, 0, 25)
    assert long[:10] == short
    assert play_games(NAME, None, ["weak", "strong"], 9, True, 10, 25) == long[10:]


# -- the real games ----------------------------------------------------------------------


def test_a_stronger_morris_level_wins_well_above_half() -> None:
    report = simulate("morris", None, ["medium", "easy"], 30, seed=1, rotate=True)
    medium = report.level_wins["medium"]
    assert medium.low > 0.5, medium
    assert report.to_dict()["events"]["wall"]["games_share"] > 0


def test_dokusen_plays_every_stage_of_a_course_as_the_tester_against_the_house() -> None:
    parts = simulate_parts("dokusen", {"stages": ["S1", "S3"]}, ["random"], 8, seed=2)
    assert [label for label, _ in parts] == ["S1", "S3"]
    for _, report in parts:
        assert report.house is not None
        assert report.seat_wins[0].successes + report.house.successes == report.decided == 8
        assert report.length_unit == "rounds"
        assert "board_share" in report.to_dict()
    # greedy wins stage 1, which holds no chance, every time (bench's strength golden)
    (_, s1), = simulate_parts("dokusen", "S1", ["greedy"], 5, seed=1)
    assert s1.seat_wins[0].successes == 5 and s1.house is not None and s1.house.successes == 0


def test_the_house_wins_when_only_unfilled_seats_share_the_top() -> None:
    hooks = balance.BalanceHooks()

    class Returns:
        def __init__(self, r: list[float]) -> None:
            self.r = r

        def returns(self) -> list[float]:
            return self.r

    assert hooks.winner(Returns([-1, 0.5, 0.5]), 1) == HOUSE  # type: ignore[arg-type]
    assert hooks.winner(Returns([-1, 1]), 1) == HOUSE  # type: ignore[arg-type]
    assert hooks.winner(Returns([1, -1]), 1) == 1  # type: ignore[arg-type]
    assert hooks.winner(Returns([1, 1]), 2) is None  # type: ignore[arg-type]
    assert hooks.winner(Returns([0, 1, 0]), 3) == 2  # type: ignore[arg-type]


# -- the first game's numbers are the old simulator's -----------------------------------

COMMANDS = {
    "house_text.txt": ["--rules", "house", "--seats", "hard,medium,easy", "--games", "30",
                       "--seed", "1"],
    "house.json": ["--rules", "house", "--seats", "hard,medium,easy", "--games", "30",
                   "--seed", "1", "--json"],
    "easy.json": ["--seats", "easy,easy", "--games", "300", "--seed", "2", "--json"],
    "rotate.json": ["--rules", "classic", "--seats", "medium,easy", "--games", "40",
                    "--seed", "3", "--rotate", "--json"],
    "rotate_text.txt": ["--rules", "classic", "--seats", "medium,easy", "--games", "40",
                        "--seed", "3", "--rotate"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_first_game_prints_what_the_old_simulator_printed(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Golden outputs of ``python -m engine simulate`` made with the simulator before it
    was generic: the text is the same to the byte; the JSON has every old key, in order,
    with the same value, then the keys the platform added."""
    assert main(COMMANDS[name]) == 0
    out = capsys.readouterr().out
    old = (GOLDEN / name).read_text(encoding="utf-8")
    if name.endswith(".txt"):
        assert out == old
        return
    new_obj, old_obj = json.loads(out), json.loads(old)
    assert list(new_obj)[:len(old_obj)] == list(old_obj)
    assert {k: new_obj[k] for k in old_obj} == old_obj
    assert list(new_obj)[len(old_obj):] == ["game", "draw_rate", "median_ci95", "house"]


def test_the_command_names_its_game_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--game", "morris", "--games", "3", "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "morris" and out["seats"] == ["easy", "easy"] and out["games"] == 3
    assert main(["--game", "chess", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "chess" in err
    assert main(["--game", "dokusen", "--rules", '{"stages": ["S1", "S2"]}', "--games", "2",
                 "--workers", "1", "--json"]) == 0
    parts = json.loads(capsys.readouterr().out)
    assert parts["game"] == "dokusen" and [p["part"] for p in parts["parts"]] == ["S1", "S2"]
    assert main(["--game", "morris", "--seats", "easy,easy,easy", "--games", "2"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_game_past_the_hooks_action_cap_is_a_draw() -> None:
    from engine.core import register_game
    from engine.players import RandomPlayer, register_levels

    capped = "test_planted_capped"
    register_game(capped, lambda rules, players: planted_game.PlantedGame(rules))  # type: ignore[arg-type,return-value]
    register_levels(capped, {"weak": RandomPlayer})

    class Capped(balance.BalanceHooks):
        max_actions = 3  # the planted game takes at least 5 actions

    balance.register_balance(capped, Capped())
    report = simulate(capped, None, ["weak", "weak"], 5, seed=1)
    assert report.draws == 5 and report.end_reasons == {"action_cap": 5}
    assert report.length.maximum <= 3
