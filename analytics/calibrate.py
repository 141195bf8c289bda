"""Calibration of the lab's verdicts on planted studies where the truth is known.

``python -m analytics.calibrate`` runs every check of :data:`CHECKS` and prints one line
each: the measured value, the target and whether it is met (exit status 1 if one is
not). ``--fast`` runs few studies (the tests do); ``--studies N`` sets the number of
studies per check. Each check is a function of :class:`Settings` returning
:class:`CheckResult` records, so more checks (e.g. confusion ranking) are added by
appending a function to :data:`CHECKS` (or passing ``checks=`` to :func:`run`), e.g.
``CHECKS.append(lambda s: confusion_checks(studies=s.studies, seed=s.seed))``.

The experiment checks run the report's own analysis
(:func:`analytics.experiments.analyze_experiment`) on studies from
:func:`analytics.planted.planted_study`:

- **A/A, one look**: no planted difference, 24 testers; the share of studies whose
  verdict names a better variant must be at most 5 % within binomial noise (passed
  when a one-sided binomial test of "rate ≤ 5 %" does not reject at the 5 % level).
- **A/A reads clean**: the same studies; the share whose plain summary says anything
  but "no difference yet" (a better variant, or a guardrail caution "But B is worse
  on …") must be at most 5 % too: the cautions are corrected as a family (Holm).
- **A/A, daily looks**: the same studies looked at after 8, 12, 16, 20 and 24 testers;
  the share of studies where *any* look named a better variant (what a designer who
  checks every day would see). The always-valid interval keeps this at most 5 % too.
- **Power**: a large planted wording effect (:data:`analytics.planted.LARGE_MESSAGE_EFFECT`)
  with 40 testers; the share of studies naming the right arm must be ≥ 80 %, and
  the wrong arm must never be named.
- **Moderate effect**: the issue's 4 s against 2 s (:data:`MODERATE_MESSAGE_EFFECT`)
  at 40 testers, reported against the same 80 % target.

>>> result = CheckResult("x", 0.03, "≤ 5 %", True)
>>> format_result(result).split()[0]
'PASS'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from analytics import derive
from analytics.data import UNNAMED_GAME, StudyData, empty_quiz
from analytics.experiments import ExperimentResult, analyze_experiment
from analytics.planted import (
    LARGE_MESSAGE_EFFECT,
    MODERATE_MESSAGE_EFFECT,
    PlantedTruth,
    first_testers,
    planted_study,
)

#: Monte Carlo draws for P(best): the verdict does not use them, so few are enough here.
DRAWS = 200
LOOKS = (8, 12, 16, 20, 24)


@dataclass(frozen=True)
class Settings:
    """How many planted studies each check runs, and the seed they start from."""

    studies: int = 200
    seed: int = 20261124


@dataclass(frozen=True)
class CheckResult:
    """One calibration number against its target."""

    name: str
    value: float
    target: str
    passed: bool | None  # None: informative, no target to meet
    detail: str = ""


Check = Callable[[Settings], Sequence[CheckResult]]


def _result(data: StudyData, scores: pd.DataFrame) -> ExperimentResult:
    return analyze_experiment(data, data.study["experiments"][0], scores, empty_quiz(),
                              draws=DRAWS)


def _analyze(data: StudyData, scores: pd.DataFrame) -> str:
    return _result(data, scores).verdict


def _verdict(truth: PlantedTruth, testers: int, seed: int) -> str:
    return _analyze(*planted_study(truth, testers, seed=seed))


def reads_clean(result: ExperimentResult) -> bool:
    """True when an experiment's summary claims nothing: no better variant, no
    guardrail caution."""
    return not result.verdict.endswith(" better") and not result.guardrails


def _within_five_percent(hits: int, studies: int) -> bool:
    """True unless a one-sided binomial test rejects "rate ≤ 5 %" at the 5 % level."""
    from scipy import stats as sps
    return bool(sps.binomtest(hits, studies, 0.05, alternative="greater").pvalue >= 0.05)


def _interval(hits: int, studies: int) -> str:
    from scipy import stats as sps
    ci = sps.binomtest(hits, studies).proportion_ci(0.95, method="exact")
    return f"{hits}/{studies}, 95% CI [{ci.low:.1%}, {ci.high:.1%}]"


def aa_false_better(settings: Settings) -> list[CheckResult]:
    """A/A studies of 24 testers: false "better" at one look and over daily looks, and
    any claim at all (a better variant or a guardrail caution) at one look."""
    once = ever = claims = 0
    for index in range(settings.studies):
        seed = settings.seed + index
        data, scores = planted_study(PlantedTruth(), 24, seed=seed)
        derive.prepare(data)
        results = [_result(*first_testers(data, scores, look)) for look in LOOKS]
        once += results[-1].verdict.endswith(" better")
        ever += any(r.verdict.endswith(" better") for r in results)
        claims += not reads_clean(results[-1])
    n = settings.studies
    return [
        CheckResult("A/A false 'better', one look at 24 testers", once / n, "≤ 5 %",
                    _within_five_percent(once, n), _interval(once, n)),
        CheckResult("A/A false 'better', any of 5 looks (8…24 testers)", ever / n,
                    "≤ 5 %", _within_five_percent(ever, n), _interval(ever, n)),
        CheckResult("A/A summary claims something (better or a guardrail caution), one "
                    "look at 24 testers", claims / n, "≤ 5 %",
                    _within_five_percent(claims, n), _interval(claims, n)),
    ]


def _power(truth: PlantedTruth, label: str, settings: Settings, offset: int,
           testers: int = 40) -> list[CheckResult]:
    right = wrong = 0
    for index in range(settings.studies):
        verdict = _verdict(truth, testers, settings.seed + offset + index)
        # Planted: B's wording is worse, so "A better" is the right arm.
        right += verdict == "A better"
        wrong += verdict == "B better"
    n = settings.studies
    return [
        CheckResult(f"power, {label} at {testers} testers", right / n, "≥ 80 %",
                    right / n >= 0.8, _interval(right, n)),
        CheckResult(f"wrong arm named, {label} at {testers} testers", wrong / n, "0",
                    wrong == 0, _interval(wrong, n)),
    ]


def power_large_message_effect(settings: Settings) -> list[CheckResult]:
    """A large wording effect at 40 testers: the right arm ≥ 80 %, never the wrong one."""
    return _power(LARGE_MESSAGE_EFFECT, "large message effect", settings, 100_000)


def power_moderate_message_effect(settings: Settings) -> list[CheckResult]:
    """The issue's moderate effect (4 s against 2 s) at 40 testers."""
    return _power(MODERATE_MESSAGE_EFFECT, "4 s vs 2 s response time", settings, 200_000)


def confusion_ranking(settings: Settings) -> list[CheckResult]:
    """The confusion-point checks (:mod:`analytics.calibrate_confusion`): planted points
    reach the top 3; with nothing planted, no thin point does."""
    from analytics.calibrate_confusion import confusion_checks  # it imports this module

    return confusion_checks(studies=settings.studies, seed=settings.seed)


CHECKS: list[Check] = [aa_false_better, power_large_message_effect,
                       power_moderate_message_effect, confusion_ranking]


def run(settings: Settings, checks: Sequence[Check] | None = None) -> list[CheckResult]:
    """Every check's results, in order."""
    return [result for check in (CHECKS if checks is None else checks)
            for result in check(settings)]


def format_result(result: CheckResult) -> str:
    """One printed line. ``passed`` None means informative (no target to meet); a
    result without ``detail`` (another module's record of the same shape) prints too."""
    passed: bool | None = result.passed
    mark = "INFO" if passed is None else "PASS" if passed else "FAIL"
    detail = getattr(result, "detail", "")
    return (f"{mark}  {result.name}: {result.value:.1%} (target {result.target})"
            + (f"  [{detail}]" if detail else ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analytics.calibrate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="40 studies per check")
    parser.add_argument("--studies", type=int, default=None,
                        help="planted studies per check (default 200)")
    parser.add_argument("--seed", type=int, default=Settings.seed)
    parser.add_argument("--game", default=UNNAMED_GAME,
                        help=f"the game (these planted studies are {UNNAMED_GAME}'s; every "
                             "game's, played with the demo's testers: python -m "
                             "playtest.calibrate --game G)")
    args = parser.parse_args(argv)
    if args.game != UNNAMED_GAME:
        parser.error(f"the planted studies here are {UNNAMED_GAME}'s, built without playing "
                     f"a game; for {args.game} run python -m playtest.calibrate --game "
                     f"{args.game} (it plays the game with the demo's simulated testers)")
    studies = args.studies or (40 if args.fast else 200)
    if studies < 1:
        parser.error("--studies must be at least 1")
    results = run(Settings(studies=studies, seed=args.seed))
    for result in results:
        print(format_result(result))
    return 0 if all(r.passed is not False for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
