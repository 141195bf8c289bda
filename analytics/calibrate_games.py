"""Calibration of any game's insights: what the analysis made of simulated studies whose
truth is known, against the targets of issue 22 (item 4).

The studies are simulated where games can be played (the app's layer:
``python -m playtest.calibrate --game G`` plays them with the demo's human model and
prints this module's table); this module only reads them, with the report's own
analysis, and checks:

- **planted rule in the top 3**: in studies where testers misread one rule, its
  ``rule:<reason>`` point is among the three most severe confusion points
  (target ≥ 90 % of studies: 9 of 10);
- **wording named right** / **wrong arm named**: the message experiment whose one wording
  leaves testers puzzled names the other arm better (≥ 80 %) and never the puzzling one;
- **A/A false "better"**: an experiment whose arms are the same names a better arm in
  at most 5 % of studies (planted and null ones alike); and **A/A claims**: with the
  guardrail cautions counted too (issue 22, item 6);
- **null: top point backed**: in studies with nothing planted, the most severe point
  (if any) rests on at least :data:`~analytics.severity.MIN_OCCASIONS` occasions and
  :data:`~analytics.severity.MIN_TESTERS` testers, in every study.

>>> truth = GameTruth("rule:walled", "wording", "plain", "formal", "aa")
>>> planted = [StudyReading(("rule:walled", "rule:occupied"), 40, 9,
...            {"wording": "plain better", "aa": "too few participants"},
...            {"wording": True, "aa": False})] * 10
>>> null = [StudyReading(("rule:occupied",), 30, 7, {"aa": "no difference"},
...         {"aa": False})] * 10
>>> [r.passed for r in game_checks(truth, planted, null)]
[True, True, True, True, True, True]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from analytics import severity
from analytics.calibrate import DRAWS, CheckResult, format_result, reads_clean
from analytics.confusion import confusion_points
from analytics.data import StudyData
from analytics.experiments import analyze_experiment

#: Targets (issue 22, item 4).
TOP_SHARE = 0.9
POWER = 0.8
AA_SHARE = 0.05


@dataclass(frozen=True)
class GameTruth:
    """What was planted: the misread rule's point id, the wording experiment (its key,
    the arm that should be named better, the puzzling arm) and the A/A experiment's key."""

    rule_point: str
    wording: str
    right: str
    wrong: str
    aa: str


@dataclass(frozen=True)
class StudyReading:
    """What the analysis made of one study: the ids of the three most severe confusion
    points, the top point's occasions and testers (None without a point), and per
    experiment its verdict and whether its summary claims anything (a better arm or a
    guardrail caution)."""

    top: tuple[str, ...]
    top_occasions: int | None
    top_testers: int | None
    verdicts: Mapping[str, str]
    claims: Mapping[str, bool]


def read_study(data: StudyData, scores: pd.DataFrame, quiz: pd.DataFrame
               ) -> StudyReading:
    """The report's own confusion ranking and experiment verdicts of one study."""
    points = confusion_points(data)
    evidence: dict[str, Any] = points[0].evidence if points else {}
    verdicts: dict[str, str] = {}
    claims: dict[str, bool] = {}
    for experiment in data.study.get("experiments") or []:
        result = analyze_experiment(data, experiment, scores, quiz, draws=DRAWS)
        verdicts[result.key] = result.verdict
        claims[result.key] = not reads_clean(result)
    occasions, testers = evidence.get("occasions"), evidence.get("testers")
    return StudyReading(tuple(p.id for p in points[:3]),
                        None if occasions is None else int(occasions),
                        None if testers is None else int(testers), verdicts, claims)


def _counted(hits: int, n: int) -> str:
    from scipy import stats as sps
    if n == 0:
        return "no studies"
    ci = sps.binomtest(hits, n).proportion_ci(0.95, method="exact")
    return f"{hits}/{n}, 95% CI [{ci.low:.0%}, {ci.high:.0%}]"


def _share(name: str, hits: int, n: int, target: str, passed: bool) -> CheckResult:
    return CheckResult(name, hits / n if n else float("nan"), target, passed if n else None,
                       _counted(hits, n))


def game_checks(truth: GameTruth, planted: Sequence[StudyReading],
                null: Sequence[StudyReading]) -> list[CheckResult]:
    """The targets of the module docstring over the ``planted`` studies (a rule misread,
    a puzzling wording) and the ``null`` ones (nothing planted)."""
    n = len(planted)
    top = sum(truth.rule_point in reading.top for reading in planted)
    right = sum(r.verdicts.get(truth.wording) == f"{truth.right} better" for r in planted)
    wrong = sum(r.verdicts.get(truth.wording) == f"{truth.wrong} better" for r in planted)
    both = [*planted, *null]
    aa = [r for r in both if truth.aa in r.verdicts]
    false_better = sum(r.verdicts[truth.aa].endswith(" better") for r in aa)
    aa_claims = sum(bool(r.claims.get(truth.aa)) for r in aa)
    backed = sum(r.top_occasions is None or (
        r.top_occasions >= severity.MIN_OCCASIONS
        and (r.top_testers or 0) >= severity.MIN_TESTERS) for r in null)
    return [
        _share(f"planted rule ({truth.rule_point}) in the top 3", top, n, "≥ 90 %",
               top >= TOP_SHARE * n),
        _share(f"wording named right ({truth.right} better)", right, n, "≥ 80 %",
               right >= POWER * n),
        _share(f"wrong arm named ({truth.wrong} better)", wrong, n, "0", wrong == 0),
        _share("A/A false 'better'", false_better, len(aa), "≤ 5 %",
               false_better <= AA_SHARE * len(aa)),
        _share("A/A claims something (better or a guardrail caution)", aa_claims,
               len(aa), "≤ 5 %", aa_claims <= AA_SHARE * len(aa)),
        _share(f"null: top point on ≥ {severity.MIN_OCCASIONS} occasions and ≥ "
               f"{severity.MIN_TESTERS} testers", backed, len(null), "100 %",
               backed == len(null)),
    ]


def table(title: str, results: Sequence[CheckResult]) -> str:
    """The checks as printed lines under a title line."""
    return "\n".join([title, *(format_result(result) for result in results)])
