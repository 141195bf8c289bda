"""Validated instruments: wording, licence notices, norms and scoring (pure functions).

Answers come in the instrument's published item order, in the instrument's own coding
(``None`` = missing; ``0`` is an answer, never missing):

======================  =====  ======================================================
id                      items  coding
======================  =====  ======================================================
``sus``                 10     1..5 (Strongly disagree .. Strongly agree)
``umux_lite``           2      1..7
``minipxi``             11     -3..+3, order AA CH EC GR PF AUT CUR IMM MAS MEA ENJ
``pxi``                 33     -3..+3, order as :data:`PXI_ITEMS`
``ueq_s``               8      1..7 raw as displayed (negative term on the left)
``raw_tlx``             6      0..100 (Performance anchored Perfect=0 .. Failure=100)
``recommend``           1      0..10
``smileyometer``        1      1..5 (Awful .. Brilliant)
``again_again``         1      "yes" / "maybe" / "no" (or 2 / 1 / 0)
======================  =====  ======================================================

>>> score("sus", [5, 1, 5, 1, 5, 1, 5, 1, 5, 1]).score
100.0
>>> score("sus", [5] * 10).score   # all-agree is 50, not 100
50.0
>>> score("recommend", [0]).grade  # 0 is an answer
'detractor'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_EPS = 1e-9


class InstrumentAnswerError(ValueError):
    """Answers that cannot be scored (wrong count, type or range)."""


@dataclass(frozen=True)
class ScoreResult:
    """One respondent's (or, for the ``*_summary`` functions, one group's) scores.

    ``scales`` holds only the scales that could be computed; ``notes`` says which
    missing-answer rule applied and anything left out.
    """

    instrument: str
    score: float | None
    scales: Mapping[str, float] = field(default_factory=dict)
    grade: str | None = None
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"instrument": self.instrument, "score": self.score, "scales": dict(self.scales),
                "grade": self.grade, "notes": list(self.notes)}


@dataclass(frozen=True)
class InstrumentSpec:
    """What the dashboard shows about an instrument, and how its items look."""

    id: str
    name: str
    items: tuple[str, ...]
    item_codes: tuple[str, ...]
    minimum: float
    maximum: float
    integer: bool
    reverse: frozenset[int]  # 1-based items where a high answer means a worse experience
    citation: str
    licence: str
    attribution: str
    norms: str
    scorer: Callable[..., ScoreResult]
    shuffle_allowed: bool = False  # the authors present items in random order (PXI)
    #: How a score is made when an item is left unanswered (empty: no rule stated).
    missing: str = ""

    @property
    def n_items(self) -> int:
        return len(self.items)


# ------------------------------------------------------------------ helpers
def _is_missing(v: Any) -> bool:
    return v is None


def _check(spec_id: str, answers: Sequence[Any], n: int, lo: float, hi: float, integer: bool) -> list[float | None]:
    if isinstance(answers, str | bytes) or not isinstance(answers, Sequence):
        raise InstrumentAnswerError(f"{spec_id}: answers must be a list of {n}")
    if len(answers) != n:
        raise InstrumentAnswerError(f"{spec_id}: expected {n} answers, got {len(answers)}")
    out: list[float | None] = []
    for i, v in enumerate(answers, start=1):
        if _is_missing(v):
            out.append(None)
            continue
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise InstrumentAnswerError(f"{spec_id}: item {i}: {v!r} is not a number")
        if integer and not float(v).is_integer():
            raise InstrumentAnswerError(f"{spec_id}: item {i}: {v!r} is not a whole number")
        if not lo <= v <= hi:
            raise InstrumentAnswerError(f"{spec_id}: item {i}: {v!r} is outside {lo:g}..{hi:g}")
        out.append(float(v))
    return out


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


# ------------------------------------------------------------------ SUS
SUS_ITEMS = (
    "I think that I would like to use this game frequently.",
    "I found the game unnecessarily complex.",
    "I thought the game was easy to use.",
    "I think that I would need the support of a technical person to be able to use this game.",
    "I found the various functions in this game were well integrated.",
    "I thought there was too much inconsistency in this game.",
    "I would imagine that most people would learn to use this game very quickly.",
    "I found the game very cumbersome to use.",
    "I felt very confident using the game.",
    "I needed to learn a lot of things before I could get going with this game.",
)

SUS_GRADES: tuple[tuple[float, str], ...] = (
    (84.1, "A+"), (80.8, "A"), (78.9, "A-"), (77.2, "B+"), (74.1, "B"), (72.6, "B-"),
    (71.1, "C+"), (65.0, "C"), (62.7, "C-"), (51.7, "D"), (0.0, "F"),
)


def sus_grade(value: float) -> str:
    """Sauro–Lewis curved grade, using the published lower bounds (the printed ranges
    have gaps: 80.75 is A-, 71.05 is C).

    >>> sus_grade(84.1), sus_grade(84.0), sus_grade(80.75), sus_grade(71.05), sus_grade(51.6)
    ('A+', 'A', 'A-', 'C', 'F')
    """
    for bound, grade in SUS_GRADES:
        if value >= bound - _EPS:
            return grade
    return "F"


def sus_acceptability(value: float) -> str:
    """MeasuringU mapping: <51.7 not acceptable, 51.7–71.0 marginal, ≥71.1 acceptable."""
    if value >= 71.1 - _EPS:
        return "acceptable"
    if value >= 51.7 - _EPS:
        return "marginal"
    return "not acceptable"


def score_sus(answers: Sequence[Any], *, missing: str = "brooke_center") -> ScoreResult:
    """SUS 0–100. Odd items x−1, even items 5−x, sum × 2.5.

    ``missing="brooke_center"`` (default, Brooke 1996): a missing item counts as the
    centre point 3. ``missing="prorate"``: sum × 100 / (4 × answered).

    >>> score_sus([5, 2, 4, 2, 4, 2, 4, 2, 4, None]).score
    75.0
    >>> round(score_sus([5, 2, 4, 2, 4, 2, 4, 2, 4, None], missing="prorate").score, 2)
    77.78
    """
    vals = _check("sus", answers, 10, 1, 5, True)
    if missing not in ("brooke_center", "prorate"):
        raise InstrumentAnswerError(f"sus: unknown missing rule {missing!r}")
    answered = [(i, v) for i, v in enumerate(vals, start=1) if v is not None]
    if not answered:
        return ScoreResult("sus", None, {}, None, ("no items answered",))
    notes: list[str] = []
    n_missing = 10 - len(answered)
    if missing == "brooke_center":
        contributions = [(v - 1 if i % 2 else 5 - v) if v is not None else 2.0
                         for i, v in enumerate(vals, start=1)]
        total = 2.5 * sum(contributions)
        if n_missing:
            notes.append(f"{n_missing} missing item(s) scored as the centre point (Brooke 1996)")
    else:
        s = sum(v - 1 if i % 2 else 5 - v for i, v in answered)
        total = s * 100 / (4 * len(answered))
        if n_missing:
            notes.append(f"prorated over {len(answered)} answered items")
    notes.append(f"acceptability: {sus_acceptability(total)}")
    return ScoreResult("sus", total, {"sus": total}, sus_grade(total), tuple(notes))


# ------------------------------------------------------------------ UMUX-Lite
UMUX_LITE_ITEMS = (
    "This game's capabilities meet my requirements.",
    "This game is easy to use.",
)


def score_umux_lite(answers: Sequence[Any], *, points: int = 7) -> ScoreResult:
    """Mean over both items of (x−1)/(k−1)×100; for 7 points ((x1+x2)−2)×100/12.

    Both items are needed. The legacy SUS regression (0.65×score+22.9) is reported as
    ``sus_equivalent_legacy`` for the 7-point form only.

    >>> score_umux_lite([7, 7]).score, score_umux_lite([1, 1]).score
    (100.0, 0.0)
    """
    vals = _check("umux_lite", answers, 2, 1, points, True)
    if any(v is None for v in vals):
        return ScoreResult("umux_lite", None, {}, None, ("both items are needed",))
    s = statistics.fmean([(v - 1) / (points - 1) * 100 for v in vals if v is not None])
    scales = {"umux_lite": s}
    notes = []
    if points == 7:
        scales["sus_equivalent_legacy"] = 0.65 * s + 22.9
        notes.append("sus_equivalent_legacy is the 2013 regression; prefer the raw score")
    return ScoreResult("umux_lite", s, scales, None, tuple(notes))


# ------------------------------------------------------------------ PXI / miniPXI
PXI_CONSTRUCTS: tuple[tuple[str, str], ...] = (
    ("AA", "audiovisual_appeal"), ("CH", "challenge"), ("EC", "ease_of_control"),
    ("GR", "goals_and_rules"), ("PF", "progress_feedback"), ("AUT", "autonomy"),
    ("CUR", "curiosity"), ("IMM", "immersion"), ("MAS", "mastery"), ("MEA", "meaning"),
    ("ENJ", "enjoyment"),
)
FUNCTIONAL = ("audiovisual_appeal", "challenge", "ease_of_control", "goals_and_rules", "progress_feedback")
PSYCHOSOCIAL = ("autonomy", "curiosity", "immersion", "mastery", "meaning")

PXI_ITEMS: tuple[tuple[str, str], ...] = (
    ("AA_1", "I enjoyed the way the game was styled."),
    ("AA_2", "I liked the look and feel of the game."),
    ("AA_3", "I appreciated the aesthetics of the game."),
    ("CH_1", "The game was not too easy and not too hard to play."),
    ("CH_2", "The game was challenging but not too challenging."),
    ("CH_3", "The challenges in the game were at the right level of difficulty for me."),
    ("EC_1", "It was easy to know how to perform actions in the game."),
    ("EC_2", "The actions to control the game were clear to me."),
    ("EC_3", "I thought the game was easy to control."),
    ("GR_1", "I grasped the overall goal of the game."),
    ("GR_2", "The goals of the game were clear to me."),
    ("GR_3", "I understood the objectives of the game."),
    ("PF_1", "The game informed me of my progress in the game."),
    ("PF_2", "I could easily assess how I was performing in the game."),
    ("PF_3", "The game gave clear feedback on my progress towards the goals."),
    ("AUT_1", "I felt free to play the game in my own way."),
    ("AUT_2", "I felt like I had choices regarding how I wanted to play this game."),
    ("AUT_3", "I felt a sense of freedom about how I wanted to play this game."),
    ("CUR_1", "I wanted to explore how the game evolved."),
    ("CUR_2", "I wanted to find out how the game progressed."),
    ("CUR_3", "I felt eager to discover how the game continued."),
    ("IMM_1", "I was no longer aware of my surroundings while I was playing."),
    ("IMM_2", "I was immersed in the game."),
    ("IMM_3", "I was fully focused on the game."),
    ("MAS_1", "I felt I was good at playing this game."),
    ("MAS_2", "I felt capable while playing the game."),
    ("MAS_3", "I felt a sense of mastery playing this game."),
    ("MEA_1", "Playing the game was meaningful to me."),
    ("MEA_2", "The game felt relevant to me."),
    ("MEA_3", "Playing this game was valuable to me."),
    ("ENJ_1", "I liked playing the game."),
    ("ENJ_2", "The game was entertaining."),
    ("ENJ_3", "I had a good time playing this game."),
)
MINIPXI_CODES = ("AA_2", "CH_1", "EC_1", "GR_2", "PF_3", "AUT_1", "CUR_1", "IMM_3", "MAS_1", "MEA_1", "ENJ_3")
_PXI_TEXT = dict(PXI_ITEMS)
PXI_LABELS = ("Strongly disagree", "Disagree", "Somewhat disagree", "Neither agree nor disagree",
              "Somewhat agree", "Agree", "Strongly agree")


def _construct_name(code: str) -> str:
    prefix = code.split("_")[0]
    return dict(PXI_CONSTRUCTS)[prefix]


def _groups(scales: dict[str, float]) -> dict[str, float]:
    out = {}
    for name, members in (("functional", FUNCTIONAL), ("psychosocial", PSYCHOSOCIAL)):
        if all(m in scales for m in members):
            out[name] = statistics.fmean(scales[m] for m in members)
    return out


def score_minipxi(answers: Sequence[Any]) -> ScoreResult:
    """Each construct is its single item (−3..+3); no total, no reverse coding.

    >>> score_minipxi([0] * 11).scales["enjoyment"]
    0.0
    """
    vals = _check("minipxi", answers, 11, -3, 3, True)
    scales = {_construct_name(code): v for code, v in zip(MINIPXI_CODES, vals, strict=True) if v is not None}
    notes = ["no total score by design; progress_feedback and goals_and_rules are weak single items"]
    missing = [_construct_name(c) for c, v in zip(MINIPXI_CODES, vals, strict=True) if v is None]
    if missing:
        notes.append("missing: " + ", ".join(missing))
    return ScoreResult("minipxi", None, scales | _groups(scales), None, tuple(notes))


def score_pxi(answers: Sequence[Any], *, min_items: int = 2) -> ScoreResult:
    """Construct = mean of its 3 items (−3..+3), computed when at least ``min_items``
    of the 3 are answered (project policy; the authors give none). ``functional`` and
    ``psychosocial`` are the means of their five constructs when all five exist.

    >>> score_pxi([1, 2, 3] + [0] * 30).scales["audiovisual_appeal"]
    2.0
    """
    vals = _check("pxi", answers, 33, -3, 3, True)
    if not 1 <= min_items <= 3:
        raise InstrumentAnswerError("pxi: min_items must be 1..3")
    scales: dict[str, float] = {}
    notes = [f"construct needs {min_items} of 3 items; no total score by design"]
    for k, (_, name) in enumerate(PXI_CONSTRUCTS):
        chunk = vals[3 * k: 3 * k + 3]
        present = [v for v in chunk if v is not None]
        if len(present) >= min_items:
            scales[name] = statistics.fmean(present)
        elif len(present) < 3:
            notes.append(f"{name}: too few items answered ({len(present)} of 3)")
    return ScoreResult("pxi", None, scales | _groups(scales), None, tuple(notes))


# ------------------------------------------------------------------ UEQ-S
UEQ_S_PAIRS: tuple[tuple[str, str], ...] = (
    ("obstructive", "supportive"), ("complicated", "easy"), ("inefficient", "efficient"),
    ("confusing", "clear"), ("boring", "exciting"), ("not interesting", "interesting"),
    ("conventional", "inventive"), ("usual", "leading edge"),
)
# full-UEQ item numbers of the UEQ-S items, and whether the full UEQ puts the positive term left
UEQ26_FOR_UEQ_S: tuple[tuple[int, bool], ...] = (
    (11, False), (13, False), (20, False), (21, True), (6, False), (7, False), (10, True), (15, False),
)


def score_ueq_s(answers: Sequence[Any], *, min_items_per_scale: int = 2) -> ScoreResult:
    """Raw 1..7 → x−4. Pragmatic = mean of items 1–4, hedonic = 5–8, overall = mean of
    the two. A scale needs ``min_items_per_scale`` of its 4 items (project policy:
    the handbook asks for every line).

    >>> score_ueq_s([7, 7, 7, 7, 1, 1, 1, 1]).scales
    {'pragmatic': 3.0, 'hedonic': -3.0, 'overall': 0.0}
    """
    vals = _check("ueq_s", answers, 8, 1, 7, True)
    t = [None if v is None else v - 4 for v in vals]
    scales: dict[str, float] = {}
    notes: list[str] = []
    for name, chunk in (("pragmatic", t[:4]), ("hedonic", t[4:])):
        present = [v for v in chunk if v is not None]
        if len(present) >= min_items_per_scale:
            scales[name] = statistics.fmean(present)
            if len(present) < 4:
                notes.append(f"{name}: mean of {len(present)} answered items")
        else:
            notes.append(f"{name}: too few items answered")
    overall = None
    if "pragmatic" in scales and "hedonic" in scales:
        overall = (scales["pragmatic"] + scales["hedonic"]) / 2
        scales["overall"] = overall
    band = None if overall is None else ueq_band(overall)
    return ScoreResult("ueq_s", overall, scales, band, tuple(notes))


#: UEQ-S with a missing item, in words (what :func:`score_ueq_s` does).
UEQ_S_MISSING = (
    "The UEQ handbook asks for an answer on every line and states no rule for a missing "
    "one (Schrepp 2023, v11). Here a scale (pragmatic: items 1–4; hedonic: items 5–8) is "
    "the mean of the items answered when at least 2 of its 4 are, and is left out "
    "otherwise; the overall score needs both scales.")


def ueq_band(mean: float) -> str:
    """Handbook reading of a scale mean: >0.8 positive, <−0.8 negative, else neutral."""
    if mean > 0.8:
        return "positive"
    if mean < -0.8:
        return "negative"
    return "neutral"


def ueq_s_from_ueq26(ueq26: Sequence[Any]) -> list[float | None]:
    """Extract UEQ-S raw answers (1..7, negative left) from full 26-item UEQ raw data,
    flipping items 10 and 21, which the full UEQ prints positive-left.

    >>> ueq_s_from_ueq26([4] * 9 + [1] + [4] * 10 + [7, 1] + [4] * 4)
    [4.0, 4.0, 4.0, 1.0, 4.0, 4.0, 7.0, 4.0]
    """
    vals = _check("ueq", ueq26, 26, 1, 7, True)
    out: list[float | None] = []
    for number, positive_left in UEQ26_FOR_UEQ_S:
        v = vals[number - 1]
        out.append(None if v is None else (8 - v if positive_left else v))
    return out


# ------------------------------------------------------------------ raw TLX
TLX_DIMENSIONS: tuple[tuple[str, str, str, str], ...] = (
    ("mental", "How mentally demanding was the task?", "Very low", "Very high"),
    ("physical", "How physically demanding was the task?", "Very low", "Very high"),
    ("temporal", "How hurried or rushed was the pace of the task?", "Very low", "Very high"),
    ("performance", "How successful were you in accomplishing what you were asked to do?", "Perfect", "Failure"),
    ("effort", "How hard did you have to work to accomplish your level of performance?", "Very low", "Very high"),
    ("frustration", "How insecure, discouraged, irritated, stressed, and annoyed were you?", "Very low", "Very high"),
)


def tlx_from_ticks(tick: int) -> float:
    """A 1..21 tick mark to the 0..100 rating.

    >>> tlx_from_ticks(1), tlx_from_ticks(21)
    (0.0, 100.0)
    """
    return float((tick - 1) * 5)


def score_raw_tlx(answers: Sequence[Any]) -> ScoreResult:
    """RTLX = unweighted mean of the six 0..100 ratings. Performance is *not*
    reversed (its anchors already run Perfect=0 .. Failure=100). Missing dimensions
    are dropped and the result is labelled a modified RTLX.

    >>> score_raw_tlx([0, 0, 0, 0, 0, 60]).score
    10.0
    """
    vals = _check("raw_tlx", answers, 6, 0, 100, False)
    scales = {d[0]: v for d, v in zip(TLX_DIMENSIONS, vals, strict=True) if v is not None}
    if not scales:
        return ScoreResult("raw_tlx", None, {}, None, ("no items answered",))
    total = statistics.fmean(scales.values())
    scales["rtlx"] = total
    notes = ["compare variants or groups; the 0–9/10–29/… bands are not norms"]
    if len(scales) - 1 < 6:
        notes.append(f"modified RTLX over {len(scales) - 1} of 6 dimensions")
    return ScoreResult("raw_tlx", total, scales, None, tuple(notes))


# ------------------------------------------------------------------ recommend (LTR)
RECOMMEND_TEXT = "How likely is it that you would recommend this game to a friend or family member?"


def recommend_category(value: float) -> str:
    """≥9 promoter, 7–8 passive, ≤6 detractor."""
    if value >= 9:
        return "promoter"
    if value >= 7:
        return "passive"
    return "detractor"


def score_recommend(answers: Sequence[Any]) -> ScoreResult:
    """One respondent's likelihood to recommend: score = the 0..10 answer, grade =
    promoter / passive / detractor. The NPS-style score exists only for a group:
    :func:`recommend_summary`."""
    vals = _check("recommend", answers, 1, 0, 10, True)
    v = vals[0]
    if v is None:
        return ScoreResult("recommend", None, {}, None, ("not answered",))
    return ScoreResult("recommend", v, {"ltr": v}, recommend_category(v))


def nps_style_band(value: float) -> str:
    """Bain's reading, tested from the highest threshold down (the uxscores bug
    tested ``> 0`` first).

    >>> [nps_style_band(x) for x in (81, 51, 21, 1, 0)]
    ['world-class', 'excellent', 'favourable', 'good', 'not yet good']
    """
    for bound, label in ((80, "world-class"), (50, "excellent"), (20, "favourable"), (0, "good")):
        if value > bound:
            return label
    return "not yet good"


def recommend_summary(values: Sequence[Any]) -> ScoreResult:
    """Group statistics: score = NPS-style score (%promoters − %detractors, points);
    scales: ``ltr_mean``, ``promoters_pct``, ``passives_pct``, ``detractors_pct``, ``n``.
    Missing answers leave the denominator.

    >>> recommend_summary([10, 9, 8, 0, None]).score
    25.0
    """
    present = [v for v in _check("recommend", values, len(values), 0, 10, True) if v is not None]
    if not present:
        return ScoreResult("recommend", None, {"n": 0.0}, None, ("no answers",))
    n = len(present)
    pro = 100 * sum(v >= 9 for v in present) / n
    det = 100 * sum(v <= 6 for v in present) / n
    nps = pro - det
    scales = {"ltr_mean": statistics.fmean(present), "promoters_pct": pro,
              "passives_pct": 100 - pro - det, "detractors_pct": det, "n": float(n)}
    notes = ("NPS-style score: percentage points; wide intervals for small groups",)
    return ScoreResult("recommend", nps, scales, nps_style_band(nps), notes)


# ------------------------------------------------------------------ children
def score_smileyometer(answers: Sequence[Any]) -> ScoreResult:
    """One face 1..5; grade is its label (Awful .. Brilliant)."""
    vals = _check("smileyometer", answers, 1, 1, 5, True)
    v = vals[0]
    if v is None:
        return ScoreResult("smileyometer", None, {}, None, ("not answered",))
    labels = ("Awful", "Not very good", "Good", "Really good", "Brilliant")
    return ScoreResult("smileyometer", v, {"smileyometer": v}, labels[int(v) - 1])


def smileyometer_summary(values: Sequence[Any]) -> ScoreResult:
    """Group view that respects the ceiling effect: distribution, median, top-box %.

    >>> smileyometer_summary([5, 5, 4, None]).scales["top_box_pct"]
    66.66666666666667
    """
    present = [v for v in _check("smileyometer", values, len(values), 1, 5, True) if v is not None]
    if not present:
        return ScoreResult("smileyometer", None, {"n": 0.0}, None, ("no answers",))
    n = len(present)
    scales = {f"pct_{k}": 100 * sum(v == k for v in present) / n for k in range(1, 6)}
    scales |= {"median": float(statistics.median(present)), "mean": statistics.fmean(present),
               "top_box_pct": scales["pct_5"], "n": float(n)}
    return ScoreResult("smileyometer", float(statistics.median(present)), scales, None,
                       ("children pick the top face a lot: read the distribution, not only the mean",))


_AGAIN_CODES = {"yes": 2.0, "maybe": 1.0, "no": 0.0}


def _again_code(v: Any) -> float | None:
    if v is None:
        return None
    if isinstance(v, str) and v.lower() in _AGAIN_CODES:
        return _AGAIN_CODES[v.lower()]
    if not isinstance(v, bool) and isinstance(v, int | float) and v in (0, 1, 2):
        return float(v)
    raise InstrumentAnswerError(f"again_again: {v!r} is not yes/maybe/no (or 2/1/0)")


def score_again_again(answers: Sequence[Any]) -> ScoreResult:
    """yes = 2, maybe = 1, no = 0.

    >>> score_again_again(["no"]).score
    0.0
    """
    if isinstance(answers, str) or not isinstance(answers, Sequence) or len(answers) != 1:
        raise InstrumentAnswerError("again_again: expected 1 answer")
    v = _again_code(answers[0])
    if v is None:
        return ScoreResult("again_again", None, {}, None, ("not answered",))
    return ScoreResult("again_again", v, {"again_again": v}, {2.0: "yes", 1.0: "maybe", 0.0: "no"}[v])


def again_again_summary(values: Sequence[Any]) -> ScoreResult:
    """Counts as percentages and the mean code (yes 2, maybe 1, no 0)."""
    codes = [c for c in (_again_code(v) for v in values) if c is not None]
    if not codes:
        return ScoreResult("again_again", None, {"n": 0.0}, None, ("no answers",))
    n = len(codes)
    scales = {"yes_pct": 100 * codes.count(2.0) / n, "maybe_pct": 100 * codes.count(1.0) / n,
              "no_pct": 100 * codes.count(0.0) / n, "mean_code": statistics.fmean(codes), "n": float(n)}
    return ScoreResult("again_again", scales["mean_code"], scales)


# ------------------------------------------------------------------ registry
_SUS_NOTICE = "SUS © Digital Equipment Corporation, 1986. Brooke, J. (1996). SUS: a 'quick and dirty' usability scale."
_PXI_NOTICE = ("Player Experience Inventory: Vanden Abeele, V., Spiel, K., Nacke, L., Johnson, D., & Gerling, K. "
               "(2020). IJHCS 135, 102370. doi:10.1016/j.ijhcs.2019.102370 (CC BY 4.0). Items unmodified.")
_MINIPXI_NOTICE = ("miniPXI: Haider, A., Harteveld, C., Johnson, D., … Vanden Abeele, V. (2022). PACM HCI 6 "
                   "(CHI PLAY) 244. doi:10.1145/3549507. Items from the PXI (Vanden Abeele et al. 2020, CC BY 4.0).")
_UEQ_NOTICE = ("UEQ-S: Schrepp, M., Hinderks, A., & Thomaschewski, J. (2017). IJIMAI 4(6). "
               "UEQ distributed free of charge at ueq-online.org. Items must not be changed.")

INSTRUMENTS: dict[str, InstrumentSpec] = {}


def _register(spec: InstrumentSpec) -> None:
    INSTRUMENTS[spec.id] = spec


_register(InstrumentSpec(
    "sus", "System Usability Scale (SUS)", SUS_ITEMS, tuple(f"SUS_{i}" for i in range(1, 11)), 1, 5, True,
    frozenset({2, 4, 6, 8, 10}), "Brooke (1996); Sauro & Lewis (2016) curved grading scale",
    "Free to use with attribution (Brooke 2013: made freely available).", _SUS_NOTICE,
    "Average ≈ 68 (SD ≈ 12.5). Not a percentage. Curved grades (lower bounds): A+ ≥84.1, A ≥80.8, "
    "A− ≥78.9, B+ ≥77.2, B ≥74.1, B− ≥72.6, C+ ≥71.1, C ≥65.0, C− ≥62.7, D ≥51.7, F below.",
    score_sus))
_register(InstrumentSpec(
    "umux_lite", "UMUX-Lite", UMUX_LITE_ITEMS, ("UMUX_1", "UMUX_2"), 1, 7, True, frozenset(),
    "Lewis, Utesch & Maher (2013), CHI; Finstad (2010)",
    "Published in academic papers; no explicit open licence. Cite the source.",
    "UMUX-Lite: Lewis, J. R., Utesch, B. S., & Maher, D. E. (2013). CHI '13. 'system' replaced by 'game'.",
    "0–100; compare with SUS norms (68 average) only with care. Legacy SUS estimate 0.65×score+22.9.",
    score_umux_lite))
_register(InstrumentSpec(
    "minipxi", "miniPXI", tuple(_PXI_TEXT[c] for c in MINIPXI_CODES), MINIPXI_CODES, -3, 3, True, frozenset(),
    "Haider et al. (2022), PACM HCI 6 CHI PLAY 244", "PXI wording, CC BY 4.0 with attribution.", _MINIPXI_NOTICE,
    "No published cut-offs; −3..+3 per construct, 0 = neutral. Compare iterations of the same game.",
    score_minipxi, shuffle_allowed=True))
_register(InstrumentSpec(
    "pxi", "Player Experience Inventory (PXI)", tuple(t for _, t in PXI_ITEMS), tuple(c for c, _ in PXI_ITEMS),
    -3, 3, True, frozenset(), "Vanden Abeele et al. (2020), IJHCS 135, 102370",
    "CC BY 4.0 with attribution; keep items unmodified.", _PXI_NOTICE,
    "No published cut-offs (PXI Bench has genre benchmarks). −3..+3 per construct.", score_pxi,
    shuffle_allowed=True))
_register(InstrumentSpec(
    "ueq_s", "UEQ-S (short User Experience Questionnaire)", tuple(f"{a} – {b}" for a, b in UEQ_S_PAIRS),
    tuple(f"UEQS_{i}" for i in range(1, 9)), 1, 7, True, frozenset(),
    "Schrepp, Hinderks & Thomaschewski (2017), IJIMAI 4(6)",
    "Free of charge from ueq-online.org; no OSI/CC licence found; do not change items.", _UEQ_NOTICE,
    "Scale means > 0.8 positive, < −0.8 negative, between neutral; beyond ±2 rare. Benchmarks apply to "
    "sample means.", score_ueq_s, missing=UEQ_S_MISSING))
_register(InstrumentSpec(
    "raw_tlx", "NASA-TLX (raw)", tuple(d[1] for d in TLX_DIMENSIONS), tuple(d[0] for d in TLX_DIMENSIONS),
    0, 100, False, frozenset(range(1, 7)), "Hart & Staveland (1988); Hart (2006); Grier (2015)",
    "NASA: 'open source', no permission needed.", "NASA Task Load Index (Hart & Staveland 1988), raw (unweighted) form.",
    "No norms here: use comparatively (variant A vs B, children vs adults). Higher = more workload.",
    score_raw_tlx))
_register(InstrumentSpec(
    "recommend", "Likelihood to recommend (0–10)", (RECOMMEND_TEXT,), ("LTR",), 0, 10, True, frozenset(),
    "Reichheld (2003)", "Method free to use; the names are trademarks.",
    "Net Promoter®, NPS® are registered trademarks of Bain & Company, Inc., NICE Systems, Inc., and Fred "
    "Reichheld. This tool reports an 'NPS-style score' and the mean likelihood to recommend.",
    "NPS-style score (group only): > 0 good, > 20 favourable, > 50 excellent, > 80 world-class (Bain).",
    score_recommend))
_register(InstrumentSpec(
    "smileyometer", "Smileyometer (Fun Toolkit)", ("How good was it?",), ("SMILEY",), 1, 5, True, frozenset(),
    "Read, MacFarlane & Casey (2002); Read & MacFarlane (2006)", "Published method; faces drawn by this project.",
    "Smileyometer from the Fun Toolkit (Read, MacFarlane & Casey 2002; Read & MacFarlane 2006).",
    "Ceiling effects are common: report distribution, median and top-box %. Do not compare with adult Likert scores.",
    score_smileyometer))
_register(InstrumentSpec(
    "again_again", "Again-Again (Fun Toolkit)", ("Would you like to play it again?",), ("AGAIN",), 0, 2, True,
    frozenset(), "Read & MacFarlane (2006)", "Published method.",
    "Again-Again table from the Fun Toolkit (Read & MacFarlane 2006).",
    "Report counts, % yes and the mean code (yes 2, maybe 1, no 0).", score_again_again))


def score(instrument_id: str, answers: Sequence[Any], **options: Any) -> ScoreResult:
    """Score one respondent. ``options`` go to the scorer (e.g. ``missing="prorate"``
    for SUS, ``min_items`` for PXI)."""
    spec = INSTRUMENTS.get(instrument_id)
    if spec is None:
        raise InstrumentAnswerError(f"unknown instrument {instrument_id!r} (known: {', '.join(INSTRUMENTS)})")
    try:
        return spec.scorer(answers, **options)
    except TypeError as exc:
        raise InstrumentAnswerError(f"{instrument_id}: {exc}") from None


@dataclass(frozen=True)
class InstrumentInfo:
    id: str
    name: str
    citation: str
    licence: str
    attribution: str
    norms: str
    missing: str = ""


def instrument_info(instrument_id: str) -> InstrumentInfo:
    """Text for the dashboard: citation, licence, attribution notice, norms and the
    missing-item rule.

    >>> instrument_info("ueq_s").missing.startswith("The UEQ handbook asks")
    True
    """
    s = INSTRUMENTS[instrument_id]
    return InstrumentInfo(s.id, s.name, s.citation, s.licence, s.attribution, s.norms,
                          s.missing)


def item_polarity(instrument_id: str, index: int) -> int:
    """+1 when a higher answer means a better experience, −1 when worse (SUS even
    items, TLX). Used to tilt simulated answers."""
    return -1 if index in INSTRUMENTS[instrument_id].reverse else 1


# ------------------------------------------------------------------ definitions
def _instrument_answers(definition: Any, answers: Mapping[str, Any]) -> dict[str, list[Any]]:
    from surveys.logic import answerable_units

    found: dict[str, list[Any]] = {}
    for _, item in definition.items():
        units = [(r.id, r) for r in item.rows] if hasattr(item, "rows") else [(u[0], item) for u in answerable_units(item)]
        for aid, unit in units:
            if unit.instrument is None or unit.index is None:
                continue
            spec = INSTRUMENTS[unit.instrument]
            slot = found.setdefault(unit.instrument, [None] * spec.n_items)
            slot[unit.index - 1] = answers.get(aid)
    return found


def score_definition_answers(definition: Any, answers: Mapping[str, Any]) -> dict[str, ScoreResult]:
    """Score every instrument tagged in ``definition`` (items or matrix rows carrying
    ``instrument`` + ``index``) from ``{answer_id: value}``. Untagged positions of a
    partly included instrument count as missing. A definition with the full PXI and
    no miniPXI also gets a ``minipxi`` result taken from the PXI's miniPXI items.
    """
    found = _instrument_answers(definition, answers)
    results = {iid: score(iid, vals) for iid, vals in found.items()}
    if "pxi" in found and "minipxi" not in found:
        # the miniPXI items are a subset of the PXI: derive it rather than ask twice
        codes = [c for c, _ in PXI_ITEMS]
        mini = score("minipxi", [found["pxi"][codes.index(c)] for c in MINIPXI_CODES])
        results["minipxi"] = ScoreResult("minipxi", mini.score, mini.scales, mini.grade,
                                         (*mini.notes, "derived from the full PXI answers"))
    return results


def quiz_results(definition: Any, answers: Mapping[str, Any]) -> dict[str, bool | None]:
    """Right/wrong per quiz item (items with ``correct``); ``None`` when unanswered.

    A multiple-choice quiz is right only with exactly the correct set.
    """
    out: dict[str, bool | None] = {}
    for _, item in definition.items():
        correct = getattr(item, "correct", None)
        if correct is None:
            continue
        value = answers.get(item.id)
        if value is None or value == []:
            out[item.id] = None
        elif isinstance(correct, list):
            out[item.id] = isinstance(value, list) and sorted(map(str, value)) == sorted(map(str, correct))
        else:
            out[item.id] = value == correct
    return out
