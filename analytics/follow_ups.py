"""The follow-up experiment each listed confusion point calls for, from a study's own
data (issue 26, item 2): what the Confusion page prefills and the design plan lists.

For each confusion point (most severe first) that one of its game's remedies fits
(:mod:`analytics.remedies`) and whose trouble is known per tester, the follow-up is:
control = today, challenger = the remedy (the first that fits), primary metric = the
point's own trouble rate (``trouble:<point>``, :func:`analytics.metrics.trouble_metric`),
the smallest effect worth acting on (half of today's rate) and the testers per arm the
Experiments page's always-valid verdict needs for 80 % power
(:func:`analytics.remedies.always_valid_arm_size`). A point nobody had trouble with has
nothing to size and no follow-up.

>>> follow_up_key("rule:walled")
'fix_walled'
>>> follow_up_key("message:refused_walled@formal")
'fix_refused_walled_formal'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from analytics.confusion import ConfusionPoint, confusion_points
from analytics.data import StudyData, empty_quiz, empty_scores
from analytics.game_analytics import GameAnalytics, for_study
from analytics.metrics import PER_TESTER_FAMILIES, MetricInputs, trouble_metric
from analytics.remedies import FollowUp, Remedy, RemedyError, follow_up, remedies_for
from analytics.stats import wilson_interval

#: One line per number shown with a follow-up experiment (the Confusion page, the plan).
DEFINITIONS = {
    "rate": "Trouble rate today: the share of this study's testers who met the point "
            "and had trouble on at least one of its occasions (the primary metric).",
    "effect": "Smallest effect worth acting on: the fall of that share, in percentage "
              "points, the experiment is sized to detect (half of today's rate unless "
              "you change it).",
    "per_arm": "Testers per arm: testers who meet the point each arm needs for an 80 % "
               "chance that the Experiments page's always-valid 95 % interval finds the "
               "remedy better when it lowers the rate by that effect.",
    "met": "Testers who met it: this study's testers with at least one occasion of the "
           "point (the others do not count towards the arms' rates).",
}


def follow_up_key(point: str) -> str:
    """The experiment key of the follow-up of ``point`` (one per point: adding it twice
    finds it)."""
    name = point.partition(":")[2] or point
    return ("fix_" + re.sub(r"[^a-z0-9_\-]+", "_", name.lower()).strip("_"))[:64]


def trouble_rate_text(rate: float, interval: tuple[float, float], met: int) -> str:
    """A follow-up's trouble rate today with its 95 % Wilson interval, as the Confusion
    page and the design plan say it (one sentence, no final stop).

    >>> trouble_rate_text(0.75, (0.47, 0.91), 12)
    'Trouble rate today 75 % (95 % Wilson interval 47 % to 91 %, 12 testers who met the point)'
    """
    low, high = interval
    return (f"Trouble rate today {rate * 100:.0f} % (95 % Wilson interval {low * 100:.0f} % "
            f"to {high * 100:.0f} %, {met} testers who met the point)")


@dataclass(frozen=True)
class ProposedFollowUp:
    """The prefilled follow-up of one confusion point: ``plan`` holds the point, the
    remedy, today's rate, the effect and the testers per arm; ``met`` the testers who
    met the point; ``label`` the point in words."""

    plan: FollowUp
    label: str
    met: int

    @property
    def point(self) -> str:
        return self.plan.point

    @property
    def remedy(self) -> Remedy:
        return self.plan.remedy

    def rate_interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of today's trouble rate (:attr:`met` testers).

        >>> remedy = Remedy(("rule:x",), "ui:highlight_options", True, "t", "w", False)
        >>> plan = follow_up(remedy, point="rule:x", rate=0.75, key="fix_x")
        >>> [round(x, 2) for x in ProposedFollowUp(plan, "x", 12).rate_interval()]
        [0.47, 0.91]
        """
        return wilson_interval(round(self.plan.rate * self.met), self.met)

    def rate_said(self) -> str:
        """Today's rate with its interval, in words (:func:`trouble_rate_text`).

        >>> remedy = Remedy(("rule:x",), "ui:highlight_options", True, "t", "w", False)
        >>> plan = follow_up(remedy, point="rule:x", rate=0.75, key="fix_x")
        >>> ProposedFollowUp(plan, "x", 12).rate_said()
        'Trouble rate today 75 % (95 % Wilson interval 47 % to 91 %, 12 testers who met the point).'
        """
        return trouble_rate_text(self.plan.rate, self.rate_interval(), self.met) + "."

    def to_json(self) -> dict[str, Any]:
        """The design plan's record of it (JSON-safe: the remedy's values are JSON).

        >>> remedy = Remedy(("rule:x",), "ui:highlight_options", True, "Ring it", "w", False)
        >>> plan = follow_up(remedy, point="rule:x", rate=0.75, key="fix_x")
        >>> row = ProposedFollowUp(plan, "Rule x", 12).to_json()
        >>> row["key"], row["target"], row["control"], row["challenger"], row["per_arm"] > 0
        ('fix_x', 'ui:highlight_options', False, True, True)
        >>> row["metric"], row["rate"], [round(x, 2) for x in row["interval"]]
        ('trouble:rule:x', 0.75, [0.47, 0.91])
        """
        low, high = self.rate_interval()
        return {"point": self.point, "label": self.label, "key": self.plan.key,
                "remedy": self.remedy.title, "why": self.remedy.why,
                "target": self.remedy.target, "control": self.remedy.control,
                "challenger": self.remedy.challenger, "metric": self.plan.metric,
                "rate": self.plan.rate, "interval": [low, high], "testers_met": self.met,
                "min_effect": self.plan.min_effect, "per_arm": self.plan.per_arm}


def trouble_rate(data: StudyData, point: str) -> tuple[float, int]:
    """Today's trouble rate of ``point`` (the share of testers who met it and had
    trouble) and how many testers met it."""
    inputs = MetricInputs(data, None, empty_scores(), empty_quiz())
    values = trouble_metric(point).values(inputs)
    return (float(values.mean()) if len(values) else 0.0), int(len(values))


def proposed_follow_ups(data: StudyData, game: GameAnalytics | None = None,
                        points: list[ConfusionPoint] | None = None) -> list[ProposedFollowUp]:
    """The follow-up of every listed point of ``data`` (``points``: its confusion points
    when already computed) that a remedy of its game fits and whose trouble rate per
    tester is known and above 0, most severe first (the remedy: the first that fits)."""
    game = game or for_study(data)
    found = []
    for point in points if points is not None else confusion_points(data, game=game):
        fitting = remedies_for(point.id, game.remedies)
        if not fitting or point.id.partition(":")[0] not in PER_TESTER_FAMILIES:
            continue
        rate, met = trouble_rate(data, point.id)
        try:
            plan = follow_up(fitting[0], point=point.id, rate=rate,
                             key=follow_up_key(point.id))
        except RemedyError:
            continue  # no trouble per tester here (a rate of 0): nothing to size
        found.append(ProposedFollowUp(plan, point.label, met))
    return found
