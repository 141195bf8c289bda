"""Calibration of every game (issue 22, item 4): what each game plants reaches the
records as the analysis reads them, and the command prints the table of targets.

The full run (10 planted and 10 null studies of 40 testers per game) takes minutes per
game and is not a test: ``python -m playtest.calibrate`` prints its numbers."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from analytics.calibrate_games import GameTruth, StudyReading, game_checks
from playtest import demo
from playtest.calibrate import behaviour, plant_of, study_config
from playtest.calibrate.commands import main
from playtest.games.registry import game_names

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _events(game: str, planted: bool, testers: int = 12) -> list[dict[str, Any]]:
    """The events of ``testers`` simulated testers unsure of the rules, as the
    calibration simulates them."""
    plant = plant_of(game)
    config = study_config(game, plant)
    arms = demo.assign_variants(config, testers, random.Random(3))
    records: list[dict[str, Any]] = []
    for index in range(testers):
        rng = random.Random(100 + index)
        records += demo.simulate_tester(
            index, "calibration", config, START, rng, arms[index],
            behaviour=None if plant.own_truths else behaviour(game, plant, planted),
            truths=(plant.own_truths if planted else frozenset()) if plant.own_truths
            else None)
    return [r for r in records if r["record"] == "event"]


def _refusals(events: list[dict[str, Any]]) -> Counter[str]:
    return Counter(str(e["props"].get("reason") or e["props"].get("rule_reason"))
                   for e in events if e["type"] == "click" and e["props"].get("ok") is False)


@pytest.mark.parametrize("game", game_names())
def test_each_game_plants_its_rule_and_shows_its_wordings(game: str) -> None:
    plant = plant_of(game)
    planted, null = _events(game, True), _events(game, False)
    # the misread rule: refused clearly more often when planted than by everyday slips
    assert _refusals(planted)[plant.rule] >= 1.5 * _refusals(null)[plant.rule] + 5, (
        _refusals(planted), _refusals(null))
    # the wording experiment's message is shown in both wordings, with the tester's arm
    shown = Counter(e["props"]["variant"] for e in planted
                    if e["type"] == "message" and e["props"]["key"] == plant.wording.key)
    assert set(shown) == set(plant.wording.arms.values()), shown


def test_targets_are_checked_as_the_issue_states() -> None:
    truth = GameTruth("rule:x", "wording", "plain", "formal", "aa")

    def reading(top: tuple[str, ...], wording: str, aa: str, occasions: int = 40,
                testers: int = 9) -> StudyReading:
        return StudyReading(top, occasions, testers, {"wording": wording, "aa": aa},
                            {"wording": wording.endswith("better"),
                             "aa": aa.endswith("better")})

    good = [reading(("rule:x",), "plain better", "no difference")] * 9 + [
        reading(("rule:y", "rule:z", "fact:1x2"), "too few participants", "no difference")]
    null = [reading(("rule:y",), "no difference", "no difference")] * 10
    assert all(r.passed for r in game_checks(truth, good, null))
    # one study naming the puzzling wording, a thin top point, two false A/A verdicts
    bad = good[:-1] + [reading(("rule:x",), "formal better", "A better")]
    thin = null[:-1] + [reading(("rule:y",), "no difference", "B better", occasions=4)]
    passed = {r.name.split(" (")[0]: r.passed for r in game_checks(truth, bad, thin)}
    assert passed["wrong arm named"] is False
    assert passed["A/A false 'better'"] is False  # 2 of 20 > 5 %
    assert passed[next(k for k in passed if k.startswith("null"))] is False


def test_the_command_prints_one_table_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["--game", game_names()[1], "--seeds", "1", "--testers", "8"])
    lines = capsys.readouterr().out.splitlines()
    assert status in (0, 1)  # too few testers to meet the targets: the table says which
    assert "1 planted and 1 null studies of 8 testers" in lines[0]
    assert len(lines) == 7 and all(line.startswith(("PASS", "FAIL", "INFO"))
                                   for line in lines[1:])


def test_an_unknown_game_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "chess"]) == 2
    assert capsys.readouterr().err.startswith("playtest: error: unknown game 'chess'")
