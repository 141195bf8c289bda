"""Did it work? (analytics.did_it_work) on a tiny hand-made family whose numbers are
worked out by hand: rates, Wilson intervals, the always-valid interval of the change
(the published formula written out here), the verdicts, the figure and the settings
changed between versions."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy.stats import norm

from analytics.data import ASSIGNMENT_COLUMNS, PARTICIPANT_COLUMNS, RESPONSE_COLUMNS, StudyData
from analytics.did_it_work import (
    DEFINITIONS,
    FIXED_BELOW,
    DidItWorkError,
    Group,
    GroupRate,
    Verdict,
    compare,
    did_it_work,
    enough_testers,
    follow_point,
    settings_changes,
    trajectory_figure,
)
from analytics.remedies import always_valid_arm_size
from tests.analytics.conftest import T0, Builder, click, roll

POINT = "rule:suicide"


def _study(study_id: str, testers: dict[str, str | None], arms: dict[str, str] | None = None,
           experiments: list[dict[str, object]] | None = None) -> StudyData:
    """One Vapoosh game per tester, one turn each: ``"troubled"`` clicks a square the
    rule 'suicide' refuses then the right one, ``"fine"`` clicks the right one, None
    rolls and leaves without a click (never meets the point)."""
    b = Builder()
    for pid, how in testers.items():
        game = f"g-{pid}"
        b.add(pid, "page", {"page": "play"})
        b.add(pid, "game_start", {"game_id": game, "seats": ["human", "ai:easy"],
                                  "seed": 1}, game)
        b.add(pid, "roll", roll(1, 1, 2, 2, 3), game)  # 3 x 5
        if how == "troubled":
            b.add(pid, "click", click(False, 4000, 7, 8, "rule", "suicide"), game)
        if how is not None:
            b.add(pid, "click", click(True, 2000, 3, 5), game)
    ids = list(testers)
    return StudyData(
        study={"study_id": study_id, "title": "t", "game": "vapoosh", "rules": "standard",
               "experiments": experiments or []},
        participants=pd.DataFrame([[study_id, p, T0, T0] for p in ids],
                                  columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame([[p, "fix_suicide", arm, T0]
                                  for p, arm in (arms or {}).items()],
                                 columns=ASSIGNMENT_COLUMNS),
        events=b.frame(), responses=pd.DataFrame(columns=RESPONSE_COLUMNS),
        attributes=pd.DataFrame({"participant_id": ids}))


FOLLOW_UP: dict[str, object] = {"key": "fix_suicide", "variants": ["today", "remedy"],
             "target": "ui:highlight_options", "primary_metric": f"trouble:{POINT}",
             "targets": POINT}


@pytest.fixture
def family() -> list[tuple[int, StudyData]]:
    """v1: 3 of 4 testers who met the point troubled (P5 never clicked); v2 runs the
    follow-up: today 1 of 2, remedy 0 of 3, Q6 troubled but assigned no arm."""
    v1 = _study("v1", {"P1": "troubled", "P2": "troubled", "P3": "troubled", "P4": "fine",
                       "P5": None})
    v2 = _study("v2", {"Q1": "troubled", "Q2": "fine", "Q3": "fine", "Q4": "fine",
                       "Q5": "fine", "Q6": "troubled"},
                arms={"Q1": "today", "Q2": "today", "Q3": "remedy", "Q4": "remedy",
                      "Q5": "remedy"}, experiments=[FOLLOW_UP])
    return [(2, v2), (1, v1)]  # any order: sorted by version


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval written out (Wilson 1927)."""
    z = norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _always_valid_half(before: tuple[int, int], after: tuple[int, int]) -> float:
    """Half-width of the asymptotic confidence sequence (Waudby-Smith et al. 2023, eq. 9)
    for a difference of shares with add-one proportions, tuned at 40 testers."""
    (kb, nb), (ka, na) = before, after
    pb, pa = (kb + 1) / (nb + 2), (ka + 1) / (na + 2)
    n = nb + na
    unit = n * (pb * (1 - pb) / nb + pa * (1 - pa) / na)
    alpha = 0.05
    rho2 = (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / 40
    grown = n * rho2 + 1
    return math.sqrt(unit) * math.sqrt(2 * grown / (n * n * rho2)
                                       * math.log(math.sqrt(grown) / alpha))


def test_rates_intervals_and_changes_of_a_hand_made_family(
        family: list[tuple[int, StudyData]]) -> None:
    (report,) = did_it_work(family, [POINT])
    assert report.point == POINT
    assert [(r.label, r.met, r.troubled) for r in report.rates] == [
        ("v1", 4, 3), ("v2 · today", 2, 1), ("v2 · remedy", 3, 0)]
    for rate in report.rates:
        assert rate.interval == pytest.approx(_wilson(rate.troubled, rate.met), abs=1e-9)
    assert report.rates[0].interval == pytest.approx((0.3006, 0.9544), abs=1e-4)
    assert report.rates[2].interval == pytest.approx((0.0, 0.5615), abs=1e-4)

    today, remedy = report.changes
    assert [c.after.label for c in report.changes] == ["v2 · today", "v2 · remedy"]
    assert today.effect == pytest.approx(0.5 - 0.75)
    assert remedy.effect == pytest.approx(-0.75)
    half = _always_valid_half((3, 4), (0, 3))
    assert remedy.comparison.ci95 == pytest.approx((-0.75 - half, -0.75 + half))
    assert half == pytest.approx(1.1337, abs=1e-4)  # seven testers: wide (worked by hand)
    assert remedy.interval == (-1.0, pytest.approx(-0.75 + half))  # shown within ±1
    # the interval holds 0, and 4 testers before are far from the 55 needed
    assert remedy.enough == always_valid_arm_size(0.75, 0.375) == 55
    assert {c.verdict for c in report.changes} == {Verdict.TOO_FEW}
    assert remedy.said().startswith("v2 · remedy: 0 % troubled (95 % Wilson 0 % to 56 %, "
                                    "3 testers) against 75 % in v1: −75 points")


def test_a_first_version_running_the_experiment_compares_with_its_first_arm(
        family: list[tuple[int, StudyData]]) -> None:
    v2 = dict(family)[2]
    (report,) = did_it_work([(1, v2)], [POINT])
    assert [r.label for r in report.rates] == ["v1 · today", "v1 · remedy"]
    assert [(c.before.label, c.after.label) for c in report.changes] == [
        ("v1 · today", "v1 · remedy")]


def test_a_version_given_twice_is_refused(family: list[tuple[int, StudyData]]) -> None:
    with pytest.raises(DidItWorkError, match="each given once"):
        did_it_work([family[0], family[0]], [POINT])


@pytest.mark.parametrize(("before", "after", "verdict"), [
    ((80, 40), (80, 0), Verdict.FIXED),         # 0 of 80: Wilson upper 4.6 %
    ((40, 20), (40, 0), Verdict.BETTER),        # 0 of 40: Wilson upper 8.8 %
    ((40, 20), (40, 6), Verdict.BETTER),
    ((100, 10), (100, 40), Verdict.WORSE),
    ((300, 150), (300, 150), Verdict.NO_CHANGE),  # 300 ≥ the 45 needed for 50 % → 25 %
    ((30, 15), (30, 15), Verdict.TOO_FEW),
    ((1, 1), (1, 0), Verdict.TOO_FEW),          # one tester a side: no interval
    ((50, 0), (50, 0), Verdict.TOO_FEW),        # nothing to halve: no size, no "no change"
    ((0, 0), (10, 5), Verdict.TOO_FEW),
])
def test_each_verdict_as_defined(before: tuple[int, int], after: tuple[int, int],
                                 verdict: Verdict) -> None:
    change = compare(GroupRate(Group(1), *before), GroupRate(Group(2), *after))
    assert change.verdict is verdict, change.said()
    low, high = change.comparison.ci95
    if verdict in (Verdict.FIXED, Verdict.BETTER):
        assert high < 0
        assert (change.after.interval[1] <= FIXED_BELOW) == (verdict is Verdict.FIXED)
    if verdict is Verdict.WORSE:
        assert low > 0
    if verdict is Verdict.NO_CHANGE:
        assert low <= 0 <= high and change.enough is not None
        assert min(before[0], after[0]) >= change.enough


def test_every_verdict_has_a_definition() -> None:
    for verdict in Verdict:
        assert verdict.definition == DEFINITIONS[verdict.value]
        assert verdict.definition.lower().startswith(verdict.value)
    assert {"rate", "change", "enough"} <= set(DEFINITIONS)


def test_enough_is_the_follow_ups_size() -> None:
    assert enough_testers(GroupRate(Group(1), 10, 3)) == always_valid_arm_size(0.3, 0.15)
    assert enough_testers(GroupRate(Group(1), 0, 0)) is None


def test_the_figure_draws_every_point_with_wilson_error_bars(
        family: list[tuple[int, StudyData]]) -> None:
    reports = did_it_work(family, [POINT, "rule:walled"])  # walled: nobody met it
    fig = trajectory_figure(reports, labels={POINT: "Suicide rule"})
    assert [trace.name for trace in fig.data] == ["Suicide rule", "rule:walled"]
    suicide, walled = fig.data
    # walled is not the experiment's point: its v2 is the whole version
    assert list(suicide.x) == ["v1", "v2", "v2 · today", "v2 · remedy"]
    assert list(suicide.y) == [75.0, None, 50.0, 0.0]
    low, high = _wilson(3, 4)
    assert suicide.error_y.array[0] == pytest.approx((high - 0.75) * 100)
    assert suicide.error_y.arrayminus[0] == pytest.approx((0.75 - low) * 100)
    assert list(walled.y) == [None, None, None, None]
    assert fig.layout.title.text and fig.layout.xaxis.title.text and \
        fig.layout.yaxis.title.text
    fig.to_json()  # serialisable as the page sends it


@pytest.mark.parametrize("reports", [
    [], [follow_point("rule:x", [])],
    [follow_point("rule:x", [GroupRate(Group(1), 0, 0)])],
    [follow_point("rule:x", [GroupRate(Group(1), 5, 2)])],
])
def test_the_figure_draws_without_testers_or_with_one_version(reports: list) -> None:
    fig = trajectory_figure(reports)
    fig.to_json()
    assert fig.layout.title.text


def test_settings_changes_in_words() -> None:
    before = {"study_id": "a", "title": "Walls", "family": "f", "version": 1,
              "game": "morris", "rules": {"base": "standard", "walls": True},
              "highlight_options": False, "speed": 2,
              "experiments": [{"key": "copy", "variants": ["A", "B"],
                               "target": "message:walled"},
                              {"key": "old", "variants": ["x", "y"], "target": "rules"}]}
    after = {**before, "study_id": "b", "version": 2,
             "rules": {"base": "standard", "walls": False}, "highlight_options": True,
             "experiments": [{"key": "copy", "variants": ["A", "C"],
                              "target": "message:walled"}, FOLLOW_UP]}
    assert settings_changes(before, after) == [
        "Experiment copy changed: variants A, B → A, C.",
        "Experiment fix_suicide added (ui:highlight_options: today, remedy), made to fix "
        "rule:suicide.",
        "Experiment old removed (rules: x, y).",
        "Rules › walls: on → off.",
        "Highlight options: off → on.",
    ]
    assert settings_changes(after, after) == []
