"""Remedies as data: which follow-up experiment fits which confusion point, and the
experiment it prefills (issue 26, items 1–2).

A game declares its remedies (:class:`Remedy`) as data in its own folder,
``analytics/games/<game>/remedies.yaml`` (read by :func:`read_remedies`), and hands them
to the core on its :class:`analytics.game_analytics.GameAnalytics` (``remedies``). Each names the points it
fits (a point id such as ``rule:walled``, or a kind such as ``rule:*``), what the
follow-up varies in terms the Studies page knows (``message:<key>``, ``rules``,
``ui:<setting>``, :class:`analytics.targets.ExperimentTarget`), the challenger's value
and texts for people.

>>> walled = Remedy(fits=("rule:walled",), target="ui:highlight_options",
...                 challenger=True, control=False, title="Highlight what may be taken",
...                 why="Testers try walled bricks; ringing the takeable ones shows the rule.")
>>> [r.title for r in remedies_for("rule:walled", (walled,))]
['Highlight what may be taken']
>>> remedies_for("rule:occupied", (walled,))
()
>>> plan = follow_up(walled, point="rule:walled", rate=0.30, min_effect=0.15, key="walled_fix")
>>> plan.per_arm, plan.testers
(264, 528)
>>> plan.experiment()["target"], plan.experiment()["variants"]
('ui:highlight_options', ['today', 'remedy'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from analytics.stats import sequential_needed_n
from analytics.targets import ExperimentTarget

__all__ = ["FollowUp", "Remedy", "RemedyError", "always_valid_arm_size", "arm_size",
           "follow_up", "remedies_for"]

#: The power the prefilled experiment is sized for, and its two-sided level.
POWER = 0.80
ALPHA = 0.05


class RemedyError(ValueError):
    """A remedy or a follow-up that cannot be made (one line saying why)."""


@dataclass(frozen=True)
class Remedy:
    """One follow-up experiment a game offers for some confusion points.

    ``fits``: point ids (``rule:walled``) or kinds ending in ``*`` (``rule:*``);
    ``target``: what the experiment varies (``message:<key>``, ``rules``,
    ``ui:<setting>``); ``control``/``challenger``: today's value and the remedy's (a
    wording's text or variant, a setting's value, a rule option mapping); ``title`` and
    ``why``: texts for the designer.
    """

    fits: tuple[str, ...]
    target: str
    challenger: Any
    title: str
    why: str
    control: Any = None

    def __post_init__(self) -> None:
        ExperimentTarget.parse(self.target)  # raises TargetError saying why not
        if not self.fits:
            raise RemedyError(f"remedy {self.title!r} fits no confusion point")

    def matches(self, point: str) -> bool:
        """True when this remedy fits the point ``point``.

        >>> Remedy(("rule:*",), "rules", {"walls": False}, "t", "w").matches("rule:x")
        True
        >>> Remedy(("rule:a",), "rules", {}, "t", "w").matches("message:a")
        False
        """
        return any(point == f or (f.endswith("*") and point.startswith(f[:-1]))
                   for f in self.fits)


#: The fields of a remedy in a game's ``remedies.yaml``.
REMEDY_FIELDS = ("fits", "target", "control", "challenger", "title", "why")


def read_remedies(package: str) -> tuple[Remedy, ...]:
    """A game's remedies, in the order of ``remedies.yaml`` in its analytics package
    ``package`` (:func:`parse_remedies`); none when it has no such file.

    >>> read_remedies("analytics")
    ()
    """
    found = resources.files(package).joinpath("remedies.yaml")
    if not found.is_file():
        return ()
    return parse_remedies(found.read_text(encoding="utf-8"), f"{package} remedies.yaml")


def parse_remedies(text: str, where: str) -> tuple[Remedy, ...]:
    """The remedies of a YAML list of objects with the :data:`REMEDY_FIELDS` (``control``
    may be left out); :class:`RemedyError` names the entry (in ``where``) that is not one.

    >>> [r.target for r in parse_remedies('''
    ... - fits: [rule:taken]
    ...   target: message:refused_taken
    ...   challenger: formal
    ...   title: Say the square is taken
    ...   why: Testers click taken squares.
    ... ''', "remedies.yaml")]
    ['message:refused_taken']
    >>> parse_remedies("- fits: [rule:taken]", "remedies.yaml")
    Traceback (most recent call last):
    ...
    analytics.remedies.RemedyError: remedies.yaml entry 1: Remedy.__init__() missing 4 required positional arguments: 'target', 'challenger', 'title', and 'why'
    """
    entries = yaml.safe_load(text) or []
    out = []
    for k, entry in enumerate(entries):
        where_k = f"{where} entry {k + 1}"
        if not isinstance(entry, dict) or set(entry) - set(REMEDY_FIELDS):
            raise RemedyError(f"{where_k}: an object with only {', '.join(REMEDY_FIELDS)}")
        try:
            out.append(Remedy(**{**entry, "fits": tuple(entry.get("fits") or ())}))
        except (TypeError, ValueError) as err:
            raise RemedyError(f"{where_k}: {err}") from None
    return tuple(out)


def remedies_for(point: str, remedies: tuple[Remedy, ...]) -> tuple[Remedy, ...]:
    """The remedies that fit ``point``, exact ids before kinds, in declared order."""
    exact = [r for r in remedies if point in r.fits]
    kinds = [r for r in remedies if r not in exact and r.matches(point)]
    return tuple(exact + kinds)


def arm_size(rate: float, min_effect: float, *, power: float = POWER,
             alpha: float = ALPHA) -> int:
    """Testers per arm for a two-sided test of two proportions (Cohen's h, normal
    approximation: statsmodels' ``NormalIndPower``) to detect a fall of ``min_effect``
    from the trouble rate ``rate`` with ``power``.

    >>> arm_size(0.5, 0.2)
    93
    >>> arm_size(0.1, 0.2)
    Traceback (most recent call last):
    ...
    analytics.remedies.RemedyError: a fall of 0.2 from a rate of 0.1 is below zero: choose a smaller effect
    """
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize
    if not 0.0 < rate <= 1.0:
        raise RemedyError(f"a trouble rate is between 0 and 1, got {rate}")
    if not min_effect > 0.0:
        raise RemedyError(f"the smallest effect worth acting on is above 0, got {min_effect}")
    if rate - min_effect < 0.0:
        raise RemedyError(f"a fall of {min_effect} from a rate of {rate} is below zero: "
                          "choose a smaller effect")
    h = abs(float(proportion_effectsize(rate, rate - min_effect)))
    n = NormalIndPower().solve_power(effect_size=h, alpha=alpha, power=power,
                                     ratio=1.0, alternative="two-sided")
    return int(math.ceil(float(n)))


def always_valid_arm_size(rate: float, min_effect: float, *, power: float = POWER,
                          alpha: float = ALPHA) -> int:
    """Testers per arm for ``power`` when the verdict comes from the always-valid
    interval the Experiments page decides by (:func:`analytics.stats.sequential_needed_n`,
    the per-tester SD of a share at the mean of the two rates): more than twice
    :func:`arm_size`, the fixed-sample test's, which is the price of looking as often
    as one likes. On planted data (tests/analytics/test_trouble_metric_planted.py) a
    remedy that halves the rate reads "better" in about 80 % of studies of this size;
    at :func:`arm_size` in about 40 %.

    >>> always_valid_arm_size(0.3, 0.15), arm_size(0.3, 0.15)
    (264, 119)
    """
    arm_size(rate, min_effect, power=power, alpha=alpha)  # the same checks
    mean = rate - min_effect / 2
    needed = sequential_needed_n(math.sqrt(mean * (1 - mean)), min_effect, alpha, power)
    if needed is None:
        raise RemedyError(f"a fall of {min_effect} from a rate of {rate} needs more than "
                          "100,000 testers per arm: choose a larger effect")
    return needed


@dataclass(frozen=True)
class FollowUp:
    """The prefilled experiment for one point: control = today, challenger = the
    remedy, primary metric = the point's own trouble rate, ``min_effect`` and the
    testers it needs (``per_arm`` each, ``testers`` in all) for 80 % power with the
    always-valid verdict (:func:`always_valid_arm_size`)."""

    key: str
    point: str
    remedy: Remedy
    rate: float
    min_effect: float
    per_arm: int

    @property
    def testers(self) -> int:
        return 2 * self.per_arm

    @property
    def metric(self) -> str:
        """The primary metric: the point's own trouble rate."""
        return f"trouble:{self.point}"

    def experiment(self) -> dict[str, Any]:
        """The experiment as the study's settings store it (telemetry-format.md)."""
        return {"key": self.key, "variants": ["today", "remedy"],
                "target": self.remedy.target, "primary_metric": self.metric,
                "min_effect": self.min_effect, "targets": self.point}


def follow_up(remedy: Remedy, *, point: str, rate: float, min_effect: float | None = None,
              key: str) -> FollowUp:
    """The follow-up experiment ``remedy`` makes for ``point`` whose trouble rate in
    this study is ``rate``; the smallest effect worth acting on defaults to half the
    rate (a remedy that halves the trouble)."""
    effect = round(rate / 2, 4) if min_effect is None else min_effect
    return FollowUp(key, point, remedy, rate, effect, always_valid_arm_size(rate, effect))
