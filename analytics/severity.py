"""Severity of a confusion point: the one definition every page and the plan show.

A candidate confusion point (a rule, a fact, a message, a free-text question …) is
described by a :class:`Tally`: its **occasions** (moments it could happen), its
**troubles** on them, the testers it reached, first game against later games, and the
**baseline** (the trouble rate an occasion would have without this confusion).

Scoring, after Nielsen's three severity factors (frequency, impact, persistence):

1. **Shrunk rate** (empirical Bayes, Beta-Binomial): the troubles per occasion are
   shrunk toward the study's rate for that kind of point. The Beta prior has the study's
   pooled rate as its mean and a strength fitted by the method of moments from how much
   more the candidates' rates scatter than binomial noise would make them
   (:func:`fit_prior`); a handful of occasions therefore cannot top the list.
2. **Excess** = shrunk rate − baseline (floored at 0): the extra trouble per occasion.
3. **Reach** = testers with a trouble / testers with an occasion; weight 0.5 + 0.5·reach
   (a point that troubles one tester again and again counts half of one that troubles all).
4. **Persistence** = 0.5 + 0.5·min(1, later-games rate / first-game rate) (a trouble that
   is gone once the game is learned counts half; 1 when there are no later games).
5. **Impact**: 1 for a wrong click, 0.5 for a pause, rules lookup or written complaint.

``severity = excess × (0.5 + 0.5·reach) × persistence × impact``, in 0..1.

A point is **listed** only with enough evidence: at least :data:`MIN_OCCASIONS`
occasions, :data:`MIN_TESTERS` testers with an occasion, and a 95 % interval of the
shrunk rate (Beta posterior, equal-tailed) whose lower end lies above the baseline.

>>> tallies = [Tally("rule:a", "rule", 100, 40, 20, 12, 50, 25, 50, 15, 0.0, 1.0),
...            Tally("rule:b", "rule", 6, 3, 2, 2, 6, 3, 0, 0, 0.0, 1.0)]
>>> [(s.tally.id, s.listed) for s in score(tallies)]
[('rule:a', True), ('rule:b', False)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: A point needs at least this many occasions to be listed.
MIN_OCCASIONS = 10
#: … and at least this many testers who met one of its occasions.
MIN_TESTERS = 3
#: Prior strength (pseudo-occasions) when a kind has too few candidates to fit one.
DEFAULT_STRENGTH = 10.0
#: The fitted prior strength is kept within these bounds. The upper bound (the prior
#: never counts for more than 50 occasions) is there because one Beta prior fits worst
#: the very case the lab looks for: most facts alike and one that really differs.
STRENGTH_BOUNDS = (2.0, 50.0)

#: The moments a point could happen, as the core knows them (a game says its own:
#: :attr:`analytics.game_analytics.GameAnalytics.occasions`).
#: The moments of the core's message and question points, in every game's occasions.
MESSAGE_OCCASIONS = "a showing of the message, an answer to the question"
CORE_OCCASIONS = f"a moment a refusal reason could bite, {MESSAGE_OCCASIONS}"
_DEFINITION_HEAD = ("Severity = extra trouble per occasion × (0.5 + 0.5 × reach) × "
                    "persistence × impact. Occasions are the moments a point could happen ")
_DEFINITION_TAIL = (
    ". The trouble rate is shrunk toward the study's rate by empirical Bayes "
    "(Beta-Binomial, method of moments, at most 50 pseudo-occasions), minus the baseline (the rate without this "
    "confusion). Reach: share of testers with an occasion who had a trouble. "
    "Persistence: 0.5 + 0.5 × min(1, later-games rate / first-game rate). Impact: 1 for "
    "a wrong click, 0.5 for a pause, rules lookup or written complaint. Listed only with "
    f"≥ {MIN_OCCASIONS} occasions, ≥ {MIN_TESTERS} testers and a 95 % interval above "
    "the baseline.")


def severity_definition(occasions: str = CORE_OCCASIONS) -> str:
    """The definition of severity shown with the points, naming the game's occasions.

    >>> severity_definition("x").split(". ")[1]
    'Occasions are the moments a point could happen (x)'
    """
    return f"{_DEFINITION_HEAD}({occasions}){_DEFINITION_TAIL}"


#: The definition with the core's occasions.
SEVERITY_DEFINITION = severity_definition()


@dataclass(frozen=True)
class Tally:
    """What one candidate confusion point rests on (counts, not rates)."""

    id: str
    family: str
    occasions: int
    troubles: int
    testers: int
    affected: int
    first_occasions: int
    first_troubles: int
    later_occasions: int
    later_troubles: int
    baseline: float
    impact: float

    @property
    def rate(self) -> float:
        return self.troubles / self.occasions if self.occasions else 0.0


@dataclass(frozen=True)
class Prior:
    """A Beta prior as mean and strength (``alpha = mean·strength``)."""

    mean: float
    strength: float

    @property
    def alpha(self) -> float:
        return self.mean * self.strength

    @property
    def beta(self) -> float:
        return (1.0 - self.mean) * self.strength

    def posterior(self, troubles: Any, occasions: Any) -> tuple[Any, Any, Any]:
        """Shrunk rate and its 95 % interval after ``troubles`` on ``occasions`` (numbers
        or arrays of them): the Beta posterior's mean, 2.5 % and 97.5 % points.

        >>> rate, low, high = Prior(0.1, 10.0).posterior(3, 10)
        >>> round(rate, 2), bool(low < rate < high)
        (0.2, True)
        """
        from scipy import stats as sps
        alpha = self.alpha + troubles
        beta = self.beta + occasions - troubles
        return (alpha / (alpha + beta), sps.beta.ppf(0.025, alpha, beta),
                sps.beta.ppf(0.975, alpha, beta))


@dataclass(frozen=True)
class Scored:
    """A tally with its prior, shrunk rate, interval, factors and severity."""

    tally: Tally
    prior: Prior
    shrunk_rate: float
    interval: tuple[float, float]
    reach: float
    persistence: float
    severity: float
    listed: bool


def fit_prior(tallies: Sequence[Tally], mean: float | None = None) -> Prior:
    """Beta prior for one kind of point, by the method of moments.

    The mean is ``mean`` (the study's rate) or else the pooled rate. For rates ``p_i``
    from ``n_i`` occasions, ``E[n_i (p_i − m)²] = m(1 − m)·(1 + (n_i − 1)·ρ)`` with
    ``ρ = 1/(strength + 1)``, solved for ``ρ`` summed over the candidates (weights
    ``n_i``: a rate from 3 occasions says little about the spread). Kept within
    :data:`STRENGTH_BOUNDS`; fewer than three candidates: :data:`DEFAULT_STRENGTH`.

    >>> same = [Tally(str(i), "f", 50, 5, 5, 3, 50, 5, 0, 0, 0.1, 1.0) for i in range(5)]
    >>> fit_prior(same).strength   # no scatter beyond noise: the strongest prior
    50.0
    """
    used = [t for t in tallies if t.occasions > 0]
    total = sum(t.occasions for t in used)
    pooled = sum(t.troubles for t in used) / total if total else 0.0
    centre = pooled if mean is None else mean
    centre = min(max(centre, 1e-4), 1 - 1e-4)
    low, high = STRENGTH_BOUNDS
    if len(used) < 3:
        return Prior(centre, DEFAULT_STRENGTH)
    n = np.array([t.occasions for t in used], dtype=float)
    p = np.array([t.troubles for t in used], dtype=float) / n
    # Weighted by occasions: sum n_i (p_i - m)^2 / (m (1 - m)) = K + rho (N - K).
    spread = float(np.sum(n * (p - centre) ** 2)) / (centre * (1 - centre))
    rho = (spread - len(used)) / (total - len(used)) if total > len(used) else 0.0
    strength = high if rho <= 1 / (high + 1) else min(max(1 / rho - 1, low), high)
    return Prior(centre, float(strength))


def severity(excess: float, reach: float, persistence: float, impact: float) -> float:
    """The severity of a point (see the module docstring), in 0..1.

    >>> severity(0.4, 1.0, 1.0, 1.0), severity(0.4, 0.0, 0.5, 0.5)
    (0.4, 0.05)
    """
    return max(excess, 0.0) * (0.5 + 0.5 * reach) * persistence * impact


def persistence(tally: Tally) -> float:
    """0.5 + 0.5·min(1, later-games rate / first-game rate); 1 without both parts.

    >>> persistence(Tally("x", "f", 20, 5, 4, 2, 10, 5, 10, 0, 0.0, 1.0))
    0.5
    """
    if tally.first_occasions == 0 or tally.later_occasions == 0 or tally.first_troubles == 0:
        return 1.0
    first = tally.first_troubles / tally.first_occasions
    later = tally.later_troubles / tally.later_occasions
    return 0.5 + 0.5 * min(1.0, later / first)


def score(tallies: Sequence[Tally], means: dict[str, float] | None = None,
          min_occasions: int = MIN_OCCASIONS, min_testers: int = MIN_TESTERS
          ) -> list[Scored]:
    """Score every tally, listed ones first, most severe first; ``means`` gives a kind's study rate (the
    prior's mean; default: the kind's pooled rate)."""
    means = means or {}
    priors = {family: fit_prior([t for t in tallies if t.family == family],
                                means.get(family))
              for family in sorted({t.family for t in tallies})}
    result = []
    for tally in tallies:
        prior = priors[tally.family]
        shrunk, low, high = (float(v) for v in prior.posterior(tally.troubles,
                                                                 tally.occasions))
        reach = tally.affected / tally.testers if tally.testers else 0.0
        kept = persistence(tally)
        value = severity(shrunk - tally.baseline, reach, kept, tally.impact)
        listed = (tally.occasions >= min_occasions and tally.testers >= min_testers
                  and tally.troubles > 0 and low > tally.baseline and value > 0)
        result.append(Scored(tally, prior, shrunk, (low, high), reach, kept,
                             value if math.isfinite(value) else 0.0, listed))
    return sorted(result, key=lambda s: (not s.listed, -s.severity, s.tally.id))
