"""Remedies as data (issue 26 item 1): matching a confusion point to the remedies a game
declares, the prefilled follow-up experiment and the testers it needs (golden values)."""

from __future__ import annotations

import math

import pytest
from scipy.stats import norm

from analytics.game_analytics import load
from analytics.remedies import Remedy, RemedyError, arm_size, follow_up, remedies_for
from analytics.targets import TargetError

GAMES = ["vapoosh", "morris", "vasco", "dokusen"]
#: each game's top rule confusion (its most frequent refusal) that a remedy must fit
TOP_RULE = {"vapoosh": "rule:empty_priority", "morris": "rule:walled",
            "vasco": "rule:no_contact", "dokusen": "rule:own_square"}


def _closed_form(p1: float, p2: float) -> int:
    """Cohen's h sample size per arm, written out: var(2 asin sqrt p) = 1/n per arm, so
    n = 2 ((z_{1-a/2} + z_{power}) / h)^2 (Cohen's table: h = 0.2 needs about 392)."""
    h = abs(2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2)))
    return math.ceil(2 * ((norm.ppf(0.975) + norm.ppf(0.80)) / h) ** 2)


@pytest.mark.parametrize(("rate", "effect", "per_arm"), [
    (0.5, 0.2, 93), (0.30, 0.15, 119), (0.20, 0.10, 195), (0.60, 0.30, 42),
])
def test_arm_size_golden_values(rate: float, effect: float, per_arm: int) -> None:
    assert arm_size(rate, effect) == per_arm
    assert _closed_form(rate, rate - effect) == per_arm


def test_smaller_effects_need_more_testers() -> None:
    assert arm_size(0.3, 0.05) > arm_size(0.3, 0.1) > arm_size(0.3, 0.15)


@pytest.mark.parametrize(("rate", "effect"), [(0.0, 0.1), (1.5, 0.1), (0.3, 0.0), (0.1, 0.2)])
def test_impossible_sizes_say_why(rate: float, effect: float) -> None:
    with pytest.raises(RemedyError):
        arm_size(rate, effect)


def test_exact_ids_come_before_kinds() -> None:
    kind = Remedy(("rule:*",), "rules", {"walls": False}, "Drop the rule", "w")
    exact = Remedy(("rule:walled",), "ui:highlight_options", True, "Highlight", "w")
    assert remedies_for("rule:walled", (kind, exact)) == (exact, kind)
    assert remedies_for("rule:other", (kind, exact)) == (kind,)
    assert remedies_for("message:wall", (kind, exact)) == ()


def test_a_remedy_needs_a_target_the_studies_page_knows_and_a_point() -> None:
    with pytest.raises(TargetError):
        Remedy(("rule:x",), "colour:red", True, "t", "w")
    with pytest.raises(RemedyError):
        Remedy((), "rules", {}, "t", "w")


def test_follow_up_halves_the_rate_by_default_and_measures_the_point() -> None:
    remedy = Remedy(("rule:walled",), "ui:highlight_options", True, "Highlight", "w", False)
    plan = follow_up(remedy, point="rule:walled", rate=0.30, key="walled_fix")
    assert plan.min_effect == 0.15
    # sized for the always-valid verdict (a fixed-sample test would need 119 per arm)
    assert (plan.per_arm, plan.testers) == (264, 528)
    assert plan.experiment() == {
        "key": "walled_fix", "variants": ["today", "remedy"],
        "target": "ui:highlight_options", "primary_metric": "trouble:rule:walled",
        "min_effect": 0.15, "targets": "rule:walled"}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_remedy_for_its_top_rule_confusion(game: str) -> None:
    found = remedies_for(TOP_RULE[game], load(game).remedies)
    assert found, f"{game} offers no remedy for {TOP_RULE[game]}"
    assert all(r.title and r.why for r in found)
