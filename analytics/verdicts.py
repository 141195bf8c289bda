"""An experiment's verdict in plain words, from its ``experiments[]`` entry of the report.

One sentence says which variant (a message experiment's variant with the text testers
read), on what (the primary metric in words), by how much (the difference with its 95 %
interval in the metric's unit, said from the side of the variant named). A second
sentence, "But …", names the guardrails that disagree with it. The verdict itself is the
one :func:`analytics.experiments.decide` made; this module only words it:

- ``<variant> is better`` — the interval excludes 0 and the difference is at least the
  smallest worth acting on (``min_effect``);
- ``No change worth acting on`` — the interval excludes 0 (the verdict names a variant
  better) but the difference is smaller than ``min_effect``: real, and too small to act on;
- ``No difference`` — the interval lies inside ±``min_effect``;
- ``Too few testers yet`` — anything else, with the testers per variant needed.

Cautions ("But …"): a variant the guardrail family (Holm) finds worse on a guardrail,
unless it is the variant the verdict says is worse anyway; and, beside a better
verdict, a guardrail on which the better variant's estimate is worse by at least that
guardrail's smallest difference worth acting on, not yet beyond chance once every metric
looked at is counted ("may be worse").

>>> entry = {"verdict": "B better", "target": "message:extra_turn", "min_effect": 1.0,
...     "shows": {"A": "Extra go!", "B": "Your EXTRA turn"}, "metrics": [
...     {"metric": "response_time", "name": "Response time after the message",
...      "role": "primary", "test": "always-valid", "compared": ["A", "B"],
...      "effect": -3.9, "ci95": [-6.5, -1.3], "variants": {}},
...     {"metric": "completion", "name": "Completion", "role": "secondary",
...      "guardrail": True, "direction": "higher", "compared": ["A", "B"], "effect": -1 / 7,
...      "ci95": [-0.471, 0.215], "min_effect": 0.1, "worse": None,
...      "variants": {"A": {"mean": 1.0}, "B": {"mean": 6 / 7}}}]}
>>> words = verdict_text(entry)
>>> print(words.sentence)
B is better on response time after the message: 3.9 s shorter with B (“Your EXTRA turn”) than with A (“Extra go!”) (95% interval: 1.3 to 6.5 s shorter).
>>> print(words.caution)
But B may be worse, though not yet beyond chance with every metric counted, on completion (14.3 pp lower than A: 85.7% against 100.0%; 95% interval: 47.1 pp lower to 21.5 pp higher).
>>> words.headline, words.tone
('B is better', 'caution')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from analytics.metrics import MetricError, metric_by_key

VERDICT_NO_DIFFERENCE: Final = "no difference"
HEADLINE_SMALL: Final = "No change worth acting on"
HEADLINE_SAME: Final = "No difference"
HEADLINE_TOO_FEW: Final = "Too few testers yet"

#: How a page colours the verdict: a variant to adopt, a caution, or nothing to act on.
Tone = Literal["better", "caution", "neutral"]


@dataclass(frozen=True)
class VerdictText:
    """The verdict in words: ``headline`` (what a heading shows) opens ``sentence``;
    ``caution`` is the "But …" sentence of the guardrails that disagree, or ``""``."""

    headline: str
    sentence: str
    caution: str
    tone: Tone

    @property
    def text(self) -> str:
        """The verdict sentence and its caution, as the page and the plan say them."""
        return f"{self.sentence} {self.caution}" if self.caution else self.sentence

    @property
    def after_headline(self) -> str:
        """:attr:`text` without its opening headline (a page sets the headline in bold)."""
        return self.text[len(self.headline):]


@dataclass(frozen=True)
class _Units:
    """How one metric's differences are said: rounding, unit, the words for down and up.

    >>> _Units("s", 1.0, 1, "shorter", "longer").interval(-6.5, -1.3)
    '1.3 to 6.5 s shorter'
    >>> _Units("per turn", 1.0, 2, "fewer", "more").interval(-0.04, 0.16)
    '0.04 fewer to 0.16 more per turn'
    >>> _Units("pp", 100.0, 1, "lower", "higher").difference(0.125)
    '12.5 pp higher'
    """

    unit: str
    scale: float
    digits: int
    down: str
    up: str
    value_format: Callable[[float | None], str] | None = None

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> _Units:
        try:
            metric = metric_by_key(str(entry.get("metric")))
        except MetricError:
            unit = str(entry.get("unit") or "")
            return cls(unit, 1.0, 2, *difference_words(unit))
        return cls(metric.shown_unit, metric.display_scale, metric.digits,
                   *difference_words(metric.shown_unit), metric.format_value)

    def amount(self, value: float) -> str:
        return f"{abs(value) * self.scale:.{self.digits}f}"

    def size(self, value: float) -> str:
        """A size of difference: ``'1.0 s'``, ``'0.10 per turn'``."""
        return f"{self.amount(value)} {self.unit}"

    def _said(self, number: str, word: str) -> str:
        # counts read "0.11 fewer per turn", measures "3.9 s shorter"
        return f"{number} {word} {self.unit}" if self.down == "fewer" else \
            f"{number} {self.unit} {word}"

    def difference(self, value: float) -> str:
        """A signed difference in words: ``'3.9 s shorter'``."""
        return self._said(self.amount(value), self.down if value < 0 else self.up)

    def interval(self, low: float, high: float) -> str:
        """A signed interval in words, said once when both ends lie on one side."""
        if high <= 0:
            return self._said(f"{self.amount(high)} to {self.amount(low)}", self.down)
        if low >= 0:
            return self._said(f"{self.amount(low)} to {self.amount(high)}", self.up)
        if self.down == "fewer":
            return f"{self.amount(low)} fewer to {self.amount(high)} more {self.unit}"
        return f"{self.difference(low)} to {self.difference(high)}"

    def value(self, mean: float | None) -> str:
        if self.value_format is not None:
            return self.value_format(mean)
        return "–" if mean is None else f"{mean:.3g}"


def difference_words(unit: str) -> tuple[str, str]:
    """The words for a lower and a higher value of a metric in ``unit``.

    >>> difference_words("s"), difference_words("lookups per message")
    (('shorter', 'longer'), ('fewer', 'more'))
    """
    if unit == "s":
        return "shorter", "longer"
    if unit == "turns" or "per " in f"{unit} ":
        return "fewer", "more"
    return "lower", "higher"


def metric_in_words(entry: Mapping[str, Any]) -> str:
    """A metric's name inside a sentence: lower case, but for a name in capitals.

    >>> metric_in_words({"name": "Completion"}), metric_in_words({"name": "UMUX LITE score"})
    ('completion', 'UMUX LITE score')
    """
    name = str(entry.get("name") or entry.get("metric") or "the metric")
    first = name.split(" ", 1)[0]
    return name if len(first) > 1 and first.isupper() else name[:1].lower() + name[1:]


def _finite(*values: Any) -> bool:
    return all(isinstance(v, int | float) and math.isfinite(v) for v in values)


def _from_side(entry: Mapping[str, Any], variant: str) -> tuple[float, float, float]:
    """The entry's difference and interval seen from ``variant`` (``variant − other``)."""
    effect = float(entry["effect"])
    low, high = (float(v) for v in entry["ci95"])
    if variant == list(entry["compared"])[1]:
        return effect, low, high
    return -effect, -high, -low


def _other(pair: Sequence[str], variant: str) -> str:
    return pair[0] if variant == pair[1] else pair[1]


def verdict_text(experiment: Mapping[str, Any]) -> VerdictText:
    """The verdict of one ``experiments[]`` entry in words (see the module docstring)."""
    verdict = str(experiment.get("verdict") or "")
    metrics = [m for m in experiment.get("metrics") or [] if isinstance(m, Mapping)]
    primary = next((m for m in metrics if m.get("role") == "primary"), None)
    if primary is None:
        return VerdictText(HEADLINE_TOO_FEW, f"{HEADLINE_TOO_FEW}: no metric could be "
                           "measured.", "", "neutral")
    name = metric_in_words(primary)
    if primary.get("no_variance"):
        return VerdictText(HEADLINE_TOO_FEW, f"{HEADLINE_TOO_FEW} to compare {name}: it "
                           "is the same for every tester so far, so it cannot be tested.",
                           "", "neutral")
    pair = [str(v) for v in primary.get("compared") or []]
    if len(pair) != 2 or not _finite(primary.get("effect"), *(primary.get("ci95") or [None])):
        return VerdictText(HEADLINE_TOO_FEW, f"{HEADLINE_TOO_FEW} to compare {name}: "
                           "not enough values for an interval.", "", "neutral")
    control, treatment = pair
    units = _Units.of(primary)
    least = units.size(float(experiment.get("min_effect") or math.nan))
    called = _caller(experiment)
    winner = verdict.removesuffix(" better") if verdict.endswith(" better") else None
    small = winner is not None and primary.get("test") == "always-valid" and \
        abs(float(primary["effect"])) < float(experiment.get("min_effect") or 0.0)
    if winner is not None:
        loser = _other(pair, winner)
        value, low, high = _from_side(primary, winner)
        compared = (f"{units.difference(value)} with {called(winner)} than with "
                    f"{called(loser)} (95% interval: {units.interval(low, high)})")
        if small:
            headline = HEADLINE_SMALL
            sentence = (f"{headline} in {name}: only {compared}, a real difference but "
                        f"smaller than the {least} worth acting on.")
        else:
            headline = f"{winner} is better"
            sentence = f"{headline} on {name}: {compared}."
    else:
        effect, low, high = _from_side(primary, treatment)
        interval = f"95% interval: {units.interval(low, high)}"
        if verdict == VERDICT_NO_DIFFERENCE:
            headline = HEADLINE_SAME
            sentence = (f"{headline} in {name} between {called(control)} and "
                        f"{called(treatment)}: {units.difference(effect)} with {treatment} "
                        f"({interval}), inside ±{least}, the smallest difference worth "
                        "acting on.")
        else:
            headline = HEADLINE_TOO_FEW
            needed = experiment.get("n_needed")
            sentence = (f"{headline} to compare {name}: {units.difference(effect)} with "
                        f"{called(treatment)} than with {called(control)} so far "
                        f"({interval}). " + (
                            f"About {needed} testers per variant would find a difference "
                            f"of {least} 8 times in 10." if needed else
                            "The values so far do not say how many testers would be "
                            "needed."))
    acting = winner if winner is not None and not small else None
    caution = _caution(metrics, pair, acting)
    tone: Tone = "caution" if caution else "better" if acting else "neutral"
    return VerdictText(headline, sentence, caution, tone)


def _caller(experiment: Mapping[str, Any]) -> Callable[[str], str]:
    """How a sentence calls a variant: a message experiment's with the text it shows."""
    shows = experiment.get("shows") or {}
    message = str(experiment.get("target") or "").startswith("message:")

    def called(variant: str) -> str:
        text = shows.get(variant) if message else None
        return f"{variant} (“{text}”)" if text else variant
    return called


def _caution(metrics: Sequence[Mapping[str, Any]], pair: Sequence[str],
             acting: str | None) -> str:
    """The "But …" sentence: guardrails that disagree with the verdict (module docstring).
    ``acting``: the variant the verdict says to adopt (None: nothing to adopt).

    >>> guard = {"metric": "completion", "name": "Completion", "guardrail": True,
    ...     "direction": "higher", "compared": ["A", "B"], "effect": -0.2,
    ...     "ci95": [-0.35, -0.05], "min_effect": 0.1, "worse": "B",
    ...     "variants": {"A": {"mean": 0.9}, "B": {"mean": 0.7}}}
    >>> print(_caution([guard], ["A", "B"], None))
    But B is worse on completion (20.0 pp lower than A: 70.0% against 90.0%; 95% interval: 5.0 to 35.0 pp lower).
    >>> _caution([guard], ["A", "B"], "A")  # the verdict's loser: it agrees
    ''
    """
    groups: dict[str, list[str]] = {}
    for entry in metrics:
        if entry.get("role") == "primary" or not entry.get("guardrail"):
            continue
        worse = entry.get("worse")
        if worse is not None and acting in (None, worse):  # not the verdict's loser
            lead = f"{worse} is worse"
        elif worse is None and acting is not None and _leans_against(entry, pair, acting):
            lead = f"{acting} may be worse, though not yet beyond chance with every " \
                "metric counted,"
            worse = acting
        else:
            continue
        groups.setdefault(lead, []).append(
            f"{metric_in_words(entry)} ({_guardrail_detail(entry, str(worse))})")
    if not groups:
        return ""
    return "But " + "; and ".join(f"{lead} on " + " and on ".join(details)
                                  for lead, details in groups.items()) + "."


def _guardrail_detail(entry: Mapping[str, Any], variant: str) -> str:
    """``'14.3 pp lower than A: 85.7% against 100.0%; 95% interval: …'``."""
    units = _Units.of(entry)
    other = _other([str(v) for v in entry["compared"]], variant)
    value, low, high = _from_side(entry, variant)
    means = entry.get("variants") or {}

    def mean(name: str) -> str:
        return units.value((means.get(name) or {}).get("mean"))
    return (f"{units.difference(value)} than {other}: {mean(variant)} against "
            f"{mean(other)}; 95% interval: {units.interval(low, high)}")


def _leans_against(entry: Mapping[str, Any], pair: Sequence[str], winner: str) -> bool:
    """The better variant's estimate on this guardrail is worse by at least the
    guardrail's smallest difference worth acting on (as shown, rounded)."""
    compared = [str(v) for v in entry.get("compared") or []]
    if entry.get("no_variance") or set(compared) != set(pair) or \
            entry.get("direction") not in ("lower", "higher") or \
            not _finite(entry.get("effect"), entry.get("min_effect"),
                        *(entry.get("ci95") or [None])):
        return False
    value = _from_side(entry, winner)[0]
    harmful = value > 0 if entry["direction"] == "lower" else value < 0
    units = _Units.of(entry)
    return harmful and float(units.amount(value)) >= float(units.amount(entry["min_effect"]))
