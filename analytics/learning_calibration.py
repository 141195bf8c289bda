"""How far the Learning page's verdicts can be trusted: planted studies with a known truth.

``python -m analytics.learning_calibration`` (``--seeds N``, default 200; ``--fast`` for
40) makes planted studies of the fluency probe, runs the page's analysis on each
(:func:`analytics.learning.gains_per_tester`, :func:`analytics.learning.compare_arms`)
exactly as on real data (the probe's answers go in as response records and are parsed
back), and prints each check against its target:

- **power**: 40 testers, two arms of 20, a probe of 2 minutes (``--seconds``, the bundled
  forms' length); the children of one arm gain 3 correct facts per minute more than the
  other's: the verdict names that arm ("<arm> learned more") in ≥ 80 % of the studies,
  and names the other arm in none;
- **false "learned more"**: the same studies with no difference between the arms: a
  "learned more" verdict in ≤ 5 %;
- **coverage**: the paired 95 % interval of all testers' mean gain holds the planted mean
  gain in ≥ 93 % of the studies (a 95 % interval, checked against sampling error);
- **facts**: no fact's accuracy changes in these studies (the children get faster, not
  more accurate), so a fact the page calls "improved" or "got worse" is a false one:
  ≤ 5 % of the facts shown.

The arm that gains more alternates with the seed (the control in half the studies). The
same power for a one-minute probe is printed beside, for comparison (no target): at 40
testers a one-minute probe finds the 3 facts/min in only about three studies of four, as
one minute of answers varies too much from child to child and day to day.

**The planted children** (assumptions, chosen to match what fluency probes show; the
checks are only as good as them):

- a child answers ``r`` questions a minute (log-normal, median 14, σ_log 0.45: most
  children of 7–11 answer 6–30 single facts a minute) with accuracy ``p`` (Beta(17, 3):
  mean 85 %); their true score is ``r · p`` correct facts per minute;
- the probe lasts ``seconds``; each question takes a log-normal time with mean ``60 000 / r`` ms
  and a coefficient of variation of 0.5 (σ_log 0.47), so the count of answers in a minute
  varies as it does in a real timed probe; the question on screen at the end is unanswered;
  facts are drawn from 2…12 (which fact does not change the time: the forms are balanced);
- after play, each child's true score rises by their own gain, normal with the arm's mean
  (1 facts/min, plus the planted difference in one arm) and σ 1.5; the answer rate rises
  to match (accuracy unchanged).

With these numbers a child's score on a one-minute probe varies by about 2 facts/min
around their true score (an alternate-form reliability of about 0.9, within the 0.8–0.9
that studies of one-minute computation probes report; Foegen, Jiban & Deno 2007).

>>> study = planted_study(random.Random(1), testers=6, extra_gain=3.0, winner="B")
>>> len(study.participants), sorted(study.assignments["variant"].unique())
(6, ['A', 'B'])
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pandas as pd

from analytics.data import (
    ASSIGNMENT_COLUMNS,
    EVENT_COLUMNS,
    PARTICIPANT_COLUMNS,
    RESPONSE_COLUMNS,
    StudyData,
)
from analytics.learning import compare_arms, gains_per_tester, mean_estimate, variants
from analytics.learning_facts import UNCLEAR, probe_fact_changes

EXPERIMENT = "wording"
ARMS = ("A", "B")
SECONDS = 120
BASE_GAIN = 1.0
GAIN_SD = 1.5
START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _probe(rng: random.Random, rate: float, accuracy: float, seconds: int) -> list[str]:
    """One probe's stored answer for a child answering ``rate`` a minute."""
    mean_ms = 60_000 / max(rate, 0.5)
    sigma = math.sqrt(math.log(1 + 0.5 ** 2))
    mu = math.log(mean_ms) - sigma ** 2 / 2
    used, limit = 0, seconds * 1000
    entries = []
    while True:
        a, b = rng.randint(2, 12), rng.randint(2, 12)
        ms = max(1, int(rng.lognormvariate(mu, sigma)))
        if used + ms > limit:
            entries.append(f"{a}x{b}=;none;{max(1, limit - used)}")
            return entries
        used += ms
        right = rng.random() < accuracy
        given = a * b if right else a * b + rng.choice([-b, -a, a, b, -1, 1])
        entries.append(f"{a}x{b}={max(0, given)};{'ok' if right else 'wrong'};{ms}")


def planted_study(rng: random.Random, testers: int = 40, extra_gain: float = 3.0,
                  winner: str = "B", seconds: int = SECONDS) -> StudyData:
    """A planted study (module docstring): ``testers`` children in two balanced arms,
    the children of ``winner`` gaining ``extra_gain`` facts/min more."""
    participants, assignments, responses = [], [], []
    for index in range(testers):
        pid = f"p{index:04d}"
        arm = ARMS[index % 2]
        at = START + timedelta(minutes=index)
        participants.append({"study_id": "planted", "participant_id": pid,
                             "created_at": at, "consented_at": at})
        assignments.append({"participant_id": pid, "experiment": EXPERIMENT, "variant": arm,
                            "at": at})
        rate = math.exp(rng.gauss(math.log(14), 0.45))
        accuracy = rng.betavariate(17, 3)
        true_score = rate * accuracy
        gain = rng.gauss(BASE_GAIN + (extra_gain if arm == winner else 0.0), GAIN_SD)
        after = max(0.5, true_score + gain)
        for phase, answer_rate in (("pre", rate), ("post", after / accuracy)):
            responses.append({"participant_id": pid, "survey": "planted", "survey_version": "1",
                              "phase": phase, "item": "fluency",
                              "value": _probe(rng, answer_rate, accuracy, seconds),
                              "at": at})
    return StudyData(
        study={"study_id": "planted", "title": "planted", "rules": "standard",
               "experiments": [{"key": EXPERIMENT, "variants": list(ARMS), "target": "rules",
                                "primary_metric": "learning_gain"}]},
        participants=pd.DataFrame(participants, columns=PARTICIPANT_COLUMNS),
        assignments=pd.DataFrame(assignments, columns=ASSIGNMENT_COLUMNS),
        events=pd.DataFrame(columns=EVENT_COLUMNS),
        responses=pd.DataFrame(responses, columns=RESPONSE_COLUMNS))


@dataclass(frozen=True)
class Check:
    """One calibration check: the observed rate against its target."""

    name: str
    observed: float
    target: str
    passed: bool
    studies: int

    def line(self) -> str:
        return (f"{self.name:<68} {self.observed:7.1%}  target {self.target:<8} "
                f"{'' if self.target == '–' else 'ok' if self.passed else 'FAILED':<6}  "
                f"({self.studies} studies)")


@dataclass
class _Tally:
    right: int = 0  # the planted arm named
    wrong: int = 0  # the other arm named
    any_more: int = 0  # any "learned more"
    covered: int = 0  # the mean gain's interval held the planted mean
    facts: int = 0  # facts shown
    facts_named: int = 0  # facts called improved or worse


def _verdicts(seeds: Sequence[int], testers: int, extra_gain: float, seconds: int = SECONDS,
              facts: bool = False) -> _Tally:
    """The verdicts over planted studies (``facts``: the per-fact verdicts too)."""
    tally = _Tally()
    for seed in seeds:
        winner = ARMS[seed % 2]
        data = planted_study(random.Random(seed), testers, extra_gain, winner, seconds)
        gains = gains_per_tester(data)
        result = compare_arms(gains, variants(data, EXPERIMENT), list(ARMS), EXPERIMENT)
        assert result is not None
        named = result.verdict.removesuffix(" learned more") \
            if result.verdict.endswith(" learned more") else None
        tally.any_more += named is not None
        tally.right += named == winner
        tally.wrong += named is not None and named != winner
        mean_gain = BASE_GAIN + extra_gain / 2  # arms of equal size
        overall = mean_estimate(gains["gain_cpm"])  # summarise(gains).gain_cpm alone
        tally.covered += overall.low <= mean_gain <= overall.high
        if facts:
            verdicts = probe_fact_changes(data)["verdict"]
            tally.facts += len(verdicts)
            tally.facts_named += int((verdicts != UNCLEAR).sum())
    return tally


def run(seeds: int = 200, testers: int = 40, seconds: int = SECONDS,
        compare_short: bool = True) -> list[Check]:
    """Every check (module docstring) over ``seeds`` planted studies each, then (with
    ``compare_short``) the one-minute probe's power for comparison (target "–")."""
    power_seeds = range(seeds)
    null_seeds = range(100_000, 100_000 + seeds)
    power = _verdicts(power_seeds, testers, 3.0, seconds)
    null = _verdicts(null_seeds, testers, 0.0, seconds, facts=True)
    coverage = (power.covered + null.covered) / (2 * seeds)
    false_facts = null.facts_named / max(null.facts, 1)
    checks = [
        Check(f"names the arm that gained 3 facts/min more ({testers} testers, {seconds} s)",
              power.right / seeds, "≥ 80%", power.right / seeds >= 0.80, seeds),
        Check("names the other arm (gained 3 facts/min less)", power.wrong / seeds, "0",
              power.wrong == 0, seeds),
        Check(f"false 'learned more' with no planted difference ({testers} testers)",
              null.any_more / seeds, "≤ 5%", null.any_more / seeds <= 0.05, seeds),
        Check("paired 95% interval of the mean gain holds the planted mean", coverage,
              "≥ 93%", coverage >= 0.93, 2 * seeds),
        Check("facts called improved or worse when none changed (share of facts)",
              false_facts, "≤ 5%", false_facts <= 0.05, seeds),
    ]
    if compare_short:
        short = _verdicts(power_seeds, testers, 3.0, 60)
        checks.append(Check(f"for comparison: the same with a 60 s probe ({testers} testers)",
                            short.right / seeds, "–", True, seeds))
    return checks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analytics.learning_calibration",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=200, help="planted studies per check")
    parser.add_argument("--fast", action="store_true", help="40 planted studies per check")
    parser.add_argument("--testers", type=int, default=40, help="testers per planted study")
    parser.add_argument("--seconds", type=int, default=SECONDS, help="the probe's length")
    args = parser.parse_args(argv)
    checks = run(40 if args.fast else args.seeds, args.testers, args.seconds)
    print("Learning page verdicts on planted studies (analytics/learning_calibration.py)")
    for check in checks:
        print(check.line())
    return 0 if all(check.passed for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
