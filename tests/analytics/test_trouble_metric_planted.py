"""The trouble metric (``trouble:<point>``) as an experiment's primary metric, on planted
follow-up studies made of each game's real simulated testers (tests/analytics/
trouble_planted.py), for each game's top rule confusion: a copied tester keeps their
trouble, an arm with a planted lower trouble rate reads better, equal arms read better
at most at the usual false-alarm rate, and the testers per arm the Confusion page
recommends find a remedy that halves the rate about 80 % of the time."""

from __future__ import annotations

import pytest

from analytics.confusion import confusion_points
from analytics.data import StudyData, empty_quiz, empty_scores
from analytics.experiments import analyze_experiment, participant_variants
from analytics.metrics import MetricInputs, trouble_metric
from analytics.remedies import always_valid_arm_size
from analytics.stats import wilson_interval
from playtest.games.registry import game_names
from tests.analytics.trouble_planted import Pool, calibrate, demo_data, planted, pool_of

GAMES = sorted(game_names())
STUDIES = 200


@pytest.fixture(scope="module")
def pools() -> dict[str, Pool]:
    """Per game its demo study with 10 simulated testers, split on its top rule point."""
    made = {}
    for game in GAMES:
        data = demo_data(game)
        point = next(p.id for p in confusion_points(data) if p.id.startswith("rule:"))
        made[game] = pool_of(data, point)
        assert made[game].troubled and made[game].untroubled, (game, point)
    return made


def _values(data: StudyData, point: str) -> dict[str, float]:
    found = trouble_metric(point).values(MetricInputs(data, None, empty_scores(),
                                                      empty_quiz()))
    return {str(k): float(v) for k, v in found.items()}


@pytest.mark.parametrize("game", GAMES)
def test_copied_testers_keep_their_trouble_and_a_fixed_arm_reads_better(
        pools: dict[str, Pool], game: str) -> None:
    pool = pools[game]
    data = planted(pool, per_arm=20, rate=pool.rate, remedy_rate=0.0, seed=7)
    values = _values(data, pool.point)
    assert len(values) == 40  # every copy met the point
    arms = participant_variants(data, "fu")
    assert {values[c] for c in arms.index[arms == "remedy"]} == {0.0}
    assert sum(values[c] for c in arms.index[arms == "today"]) > 0
    result = analyze_experiment(data, data.study["experiments"][0], empty_scores(),
                                empty_quiz())
    assert result.primary == f"trouble:{pool.point}"
    assert result.verdict == "remedy better"
    primary = result.primary_result
    assert primary is not None and primary.metric.kind == "rate"
    assert primary.interval[1] < 0  # remedy − today: fewer troubled testers

    equal = planted(pool, per_arm=20, rate=pool.rate, remedy_rate=pool.rate, seed=7)
    same = analyze_experiment(equal, equal.study["experiments"][0], empty_scores(),
                              empty_quiz())
    assert not same.verdict.endswith(" better")


@pytest.mark.parametrize("game", GAMES)
def test_the_recommended_size_finds_a_halved_rate_without_false_alarms(
        pools: dict[str, Pool], game: str) -> None:
    pool = pools[game]
    per_arm = always_valid_arm_size(pool.rate, pool.rate / 2)
    found = calibrate(pool, per_arm, STUDIES)
    print(f"{game} {found.point}: rate {found.rate:.2f}, {per_arm} per arm, "
          f"equal arms read better {found.false_better}/{STUDIES}, "
          f"halved rate read better {found.found}/{STUDIES}")
    assert found.false_better / STUDIES <= 0.05
    low, high = wilson_interval(found.found, STUDIES)
    assert high >= 0.80 and found.found / STUDIES >= 0.72
