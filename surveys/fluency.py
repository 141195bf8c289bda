"""The times-table fluency probe: its facts, parallel forms, stored answers and scores.

A **fluency probe** (survey item type ``fluency_probe``) is a short timed set of
multiplication facts: a child answers as many as they can in ``seconds`` (default 120),
or a fixed set of ``count`` facts without a time limit. It is given before play (the
pre form) and after play (the post form) on **parallel forms**, so no child sees the
same fact twice:

- **Facts**: every product ``a × b`` with ``min_factor ≤ a ≤ b ≤ max_factor`` (a fact
  and its turnaround ``b × a`` are one fact, keyed smaller factor first: ``"7x8"``).
- **Difficulty** (used only to balance the forms; a published ordering, not this lab's
  data): the *problem-size effect* -- larger products are answered more slowly and less
  accurately (Campbell & Graham 1985; Zbrodoff & Logan 2005) -- with its two well-known
  exceptions, *tie* facts (``a = b``) and facts with a factor of 2, 5 or 10, which are
  easier than their size (LeFevre et al. 1996): the score is the product, halved for
  those. :func:`difficulty`.
- **Forms**: the facts ranked by difficulty are taken two at a time; one of each pair
  goes to form A and the other to form B, the first of the pair alternating (ABBA…).
  The pairs then follow one fixed shuffled order, the same in both forms, so the
  ``k``-th question of A and of B are of next-to-equal difficulty at every ``k``: a slow
  child who reaches 10 questions meets equally hard ones on either form. A fact with no
  partner (an odd number of facts) is left out. Which way round a fact is shown
  (``6 × 7`` or ``7 × 6``) is fixed per position too. :func:`forms`.
- **Which form**: ``form: A`` or ``B`` as the designer sets it, or ``auto``: the tester's
  code picks A or B for the pre form and the other one for the post form
  (:func:`form_for`), so half the testers take A first (counterbalanced).

Every answer is stored with its correctness and its time, one text per question shown,
in the order shown (the item's answer is the list):

- ``"6x7=42;ok;2310"``: the fact as shown, the answer given, ``ok`` or ``wrong``, and the
  milliseconds from the question appearing to the answer being entered;
- ``"6x7=;none;1800"``: the question on screen when the time ran out (no answer).

Scores (:func:`score`): *answered* and *correct* questions, *accuracy* = correct ÷
answered, *time* = the sum of every question's milliseconds (the probe's length), and
**correct facts per minute** = correct × 60 000 ÷ time.

>>> form_a, form_b = forms(2, 9)["A"], forms(2, 9)["B"]
>>> len(form_a), len(form_b), {fact_key(*f) for f in form_a} & {fact_key(*f) for f in form_b}
(18, 18, set())
>>> entry = ProbeEntry(6, 7, 42, 2310)
>>> entry.encode(), parse_entry("6x7=41;wrong;900").correct
('6x7=42;ok;2310', False)
>>> s = score(["6x7=42;ok;30000", "8x9=71;wrong;20000", "3x4=;none;10000"])
>>> s.answered, s.correct, s.accuracy, s.correct_per_minute
(2, 1, 0.5, 1.0)
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

Form = Literal["A", "B"]
FORMS: Final[tuple[Form, Form]] = ("A", "B")
#: Factors a probe may use (a 12 × 12 table at most).
LOWEST_FACTOR: Final = 1
HIGHEST_FACTOR: Final = 12
#: Longest time one question may be recorded with (a tab left open: 24.8 days).
MAX_MS: Final = 2**31 - 1
#: The answers a child can type (three digits: 12 × 12 = 144).
MAX_ANSWER: Final = 999
_EASY_FACTORS: Final = frozenset({2, 5, 10})
ENTRY_PATTERN: Final = re.compile(r"^(\d{1,2})x(\d{1,2})=(\d{0,3});(ok|wrong|none);(\d{1,10})$")


class ProbeAnswerError(ValueError):
    """A probe answer (a stored entry, or what a browser sent) that is not well formed."""


def fact_key(a: int, b: int) -> str:
    """A fact's key, smaller factor first (``7 × 8`` and ``8 × 7`` are one fact).

    >>> fact_key(8, 7)
    '7x8'
    """
    low, high = sorted((a, b))
    return f"{low}x{high}"


def difficulty(a: int, b: int) -> float:
    """The published difficulty ordering of a fact (module docstring): its product, halved
    for a tie (``a = b``) or a factor of 2, 5 or 10.

    >>> difficulty(7, 8), difficulty(7, 7), difficulty(5, 9), difficulty(8, 9)
    (56.0, 24.5, 22.5, 72.0)
    """
    product = float(a * b)
    easy = a == b or a in _EASY_FACTORS or b in _EASY_FACTORS
    return product / 2 if easy else product


def facts(min_factor: int, max_factor: int) -> list[tuple[int, int]]:
    """Every fact ``(a, b)`` with ``min_factor ≤ a ≤ b ≤ max_factor``.

    >>> len(facts(2, 9)), facts(2, 3)
    (36, [(2, 2), (2, 3), (3, 3)])
    """
    return [(a, b) for a in range(min_factor, max_factor + 1)
            for b in range(a, max_factor + 1)]


def forms(min_factor: int, max_factor: int) -> dict[Form, list[tuple[int, int]]]:
    """The two parallel forms of the facts in ``min_factor..max_factor``: each a list of
    questions ``(a, b)`` in the order shown (module docstring, "Forms")."""
    ranked = sorted(facts(min_factor, max_factor), key=lambda f: (difficulty(*f), f))
    pairs = [(ranked[i], ranked[i + 1]) for i in range(0, len(ranked) - 1, 2)]
    # ABBA: the easier of a pair goes to A, then to B, so neither form is always harder.
    split = [(p if n % 2 == 0 else (p[1], p[0])) for n, p in enumerate(pairs)]
    order = list(range(len(split)))
    shuffler = random.Random(f"fluency-forms:{min_factor}:{max_factor}")
    shuffler.shuffle(order)
    turned = [shuffler.random() < 0.5 for _ in order]
    result: dict[Form, list[tuple[int, int]]] = {"A": [], "B": []}
    for position, index in enumerate(order):
        for form, (a, b) in zip(FORMS, split[index], strict=True):
            result[form].append((b, a) if turned[position] else (a, b))
    return result


def form_for(setting: str, phase: str, seed: int | str) -> Form:
    """The form a tester takes: ``setting`` ``A`` or ``B`` as it is; ``auto``: A or B by
    the tester's code (``seed``) in the pre form, the other one in the post form.

    >>> form_for("B", "pre", 1)
    'B'
    >>> {form_for("auto", "pre", code) != form_for("auto", "post", code) for code in "abcdef"}
    {True}
    """
    if setting in FORMS:
        return setting
    digest = hashlib.sha256(f"fluency-form:{seed}".encode()).digest()
    first: Form = FORMS[digest[0] % 2]
    return first if phase != "post" else FORMS[1 - FORMS.index(first)]


def questions(min_factor: int, max_factor: int, form: Form,
              count: int | None = None) -> list[tuple[int, int]]:
    """The questions of ``form``, the first ``count`` of them when given.

    >>> questions(2, 9, "A", 3) == forms(2, 9)["A"][:3]
    True
    """
    shown = forms(min_factor, max_factor)[form]
    return shown if count is None else shown[:count]


@dataclass(frozen=True)
class ProbeEntry:
    """One question shown: ``a × b`` as shown, the answer given (None: the time ran out
    before an answer), and the ms from the question appearing to the answer."""

    a: int
    b: int
    given: int | None
    ms: int

    @property
    def answered(self) -> bool:
        return self.given is not None

    @property
    def correct(self) -> bool:
        return self.given == self.a * self.b

    @property
    def fact(self) -> str:
        return fact_key(self.a, self.b)

    def encode(self) -> str:
        """The stored text (module docstring)."""
        given = "" if self.given is None else str(self.given)
        verdict = "none" if self.given is None else "ok" if self.correct else "wrong"
        return f"{self.a}x{self.b}={given};{verdict};{self.ms}"


def parse_entry(text: Any) -> ProbeEntry:
    """A stored entry read back; :class:`ProbeAnswerError` when it is not one, or when
    its ``ok``/``wrong`` contradicts the arithmetic.

    >>> parse_entry("6x7=41;ok;5")
    Traceback (most recent call last):
    ...
    surveys.fluency.ProbeAnswerError: '6x7=41;ok;5': 6 × 7 is 42, so 41 is not ok
    """
    match = ENTRY_PATTERN.match(text) if isinstance(text, str) else None
    if match is None:
        raise ProbeAnswerError(f"{str(text)[:40]!r} is not a probe answer (like "
                               "'6x7=42;ok;2310')")
    a, b, given, verdict, ms = match.groups()
    entry = ProbeEntry(int(a), int(b), int(given) if given else None, int(ms))
    if not (LOWEST_FACTOR <= entry.a <= HIGHEST_FACTOR and LOWEST_FACTOR <= entry.b <= HIGHEST_FACTOR):
        raise ProbeAnswerError(f"{text!r}: factors go from {LOWEST_FACTOR} to {HIGHEST_FACTOR}")
    if entry.ms > MAX_MS:
        raise ProbeAnswerError(f"{text!r}: the time is too long")
    expected = "none" if entry.given is None else "ok" if entry.correct else "wrong"
    if verdict != expected:
        raise ProbeAnswerError(f"{text!r}: {entry.a} × {entry.b} is {entry.a * entry.b}, so "
                               f"{entry.given if entry.given is not None else 'no answer'} "
                               f"is not {verdict}")
    return entry


def answer_problem(value: Any, min_factor: int = LOWEST_FACTOR,
                   max_factor: int = HIGHEST_FACTOR) -> str | None:
    """Why ``value`` is not a probe's answer (None when it is): a list of entries, each
    well formed, within the factors, only the last without an answer.

    >>> answer_problem(["6x7=42;ok;10", "2x3=;none;5"]) is None
    True
    >>> answer_problem(["2x3=;none;5", "6x7=42;ok;10"])
    'Only the last question can be left without an answer (the time ran out on it).'
    """
    if not isinstance(value, list) or not value:
        return "A probe's answer is the list of its questions' answers."
    try:
        entries = [parse_entry(text) for text in value]
    except ProbeAnswerError as error:
        return str(error)
    if any(not entry.answered for entry in entries[:-1]):
        return "Only the last question can be left without an answer (the time ran out on it)."
    outside = [e for e in entries if not (min_factor <= min(e.a, e.b) and max(e.a, e.b) <= max_factor)]
    if outside:
        return (f"{outside[0].a} × {outside[0].b} is outside this probe's facts "
                f"({min_factor} to {max_factor}).")
    return None


@dataclass(frozen=True)
class ProbeScore:
    """A probe's scores (module docstring); ``accuracy`` None with nothing answered,
    ``correct_per_minute`` None with no time."""

    answered: int
    correct: int
    ms: int
    accuracy: float | None
    correct_per_minute: float | None


def score(value: Sequence[Any]) -> ProbeScore:
    """Scores of one probe's stored answer (entries that do not parse are left out)."""
    entries = []
    for text in value:
        try:
            entries.append(parse_entry(text))
        except ProbeAnswerError:
            continue
    answered = sum(entry.answered for entry in entries)
    correct = sum(entry.correct for entry in entries)
    ms = sum(entry.ms for entry in entries)
    return ProbeScore(answered, correct, ms, correct / answered if answered else None,
                      correct * 60_000 / ms if ms > 0 else None)


def entries_from_browser(payload: Any, shown: Sequence[tuple[int, int]],
                         seconds: int | None) -> list[str]:
    """The stored answer from what the probe's page sent (``{"answers": [{"i", "given",
    "ms"}, …]}``: the questions in order from the first, each with the answer typed or
    null and its ms). Checked against the questions it was shown (``shown``); a time past
    the limit is kept as sent (the browser's clock decides), a timed probe's answers
    must not add up to more than twice its limit. :class:`ProbeAnswerError` otherwise.

    >>> entries_from_browser({"answers": [{"i": 0, "given": 42, "ms": 2310}]}, [(6, 7)], 60)
    ['6x7=42;ok;2310']
    >>> entries_from_browser({"answers": [{"i": 1, "given": 4, "ms": 1}]}, [(6, 7)], 60)
    Traceback (most recent call last):
    ...
    surveys.fluency.ProbeAnswerError: answer 1 is for question 2, expected question 1
    """
    raw = payload.get("answers") if isinstance(payload, Mapping) else None
    if not isinstance(raw, list) or not raw:
        raise ProbeAnswerError("no answers were sent")
    if len(raw) > len(shown):
        raise ProbeAnswerError(f"{len(raw)} answers for {len(shown)} questions")
    entries = []
    for number, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise ProbeAnswerError(f"answer {number + 1} is not an object")
        index, given, ms = item.get("i"), item.get("given"), item.get("ms")
        if index != number or isinstance(index, bool):
            raise ProbeAnswerError(f"answer {number + 1} is for question "
                                   f"{index + 1 if isinstance(index, int) else index}, "
                                   f"expected question {number + 1}")
        if given is not None and (isinstance(given, bool) or not isinstance(given, int)
                                  or not 0 <= given <= MAX_ANSWER):
            raise ProbeAnswerError(f"answer {number + 1} must be a number from 0 to "
                                   f"{MAX_ANSWER} or null")
        if isinstance(ms, bool) or not isinstance(ms, int | float) or not math.isfinite(ms) \
                or not 0 <= ms <= MAX_MS:
            raise ProbeAnswerError(f"answer {number + 1} needs its time in ms")
        if given is None and number != len(raw) - 1:
            raise ProbeAnswerError("only the last question can be left without an answer")
        entries.append(ProbeEntry(*shown[number], given, int(round(ms))))
    if seconds is not None and sum(e.ms for e in entries) > 2 * seconds * 1000:
        raise ProbeAnswerError(f"the answers took longer than twice the {seconds} s limit")
    return [entry.encode() for entry in entries]


def simulated_entries(shown: Sequence[tuple[int, int]], seconds: int | None,
                      rng: random.Random, skill: float, pace: float,
                      practised: float = 0.0) -> list[str]:
    """A plausible child's answers, for demo data only (never for real testers).

    ``skill`` 0..1 (times tables known), ``pace`` (a multiplier of every time),
    ``practised`` 0..1 (how much of the way to a fluent answer play has brought each
    fact: after play it is higher). A fact's chance of a right answer and its time follow
    its difficulty (:func:`difficulty`, scaled to 0..1 over 2..12): a fluent child
    answers an easy fact in about 1.5 s and a hard one in 3 s; a weak one takes up to
    four times longer and slips on hard facts up to half the time.

    >>> shown = questions(2, 9, "A")
    >>> weak = score(simulated_entries(shown, 60, random.Random(1), 0.2, 1.0))
    >>> strong = score(simulated_entries(shown, 60, random.Random(1), 0.9, 1.0))
    >>> weak.correct_per_minute < strong.correct_per_minute
    True
    """
    known = min(1.0, max(0.0, skill + (1 - skill) * practised))
    limit = None if seconds is None else seconds * 1000
    used = 0
    entries: list[str] = []
    for a, b in shown:
        hard = min(1.0, difficulty(a, b) / 72.0)
        mean_ms = (1500 + 1500 * hard) * (1 + 3 * (1 - known) * hard) * pace
        ms = int(rng.lognormvariate(math.log(mean_ms), 0.35))
        right = rng.random() >= 0.5 * (1 - known) * (0.3 + hard) + 0.02
        given = a * b if right else a * b + rng.choice([-b, -a, a, b, -1, 1, 10, -10])
        given = min(MAX_ANSWER, max(0, given))
        if limit is not None and used + ms > limit:
            entries.append(ProbeEntry(a, b, None, max(1, limit - used)).encode())
            break
        used += ms
        entries.append(ProbeEntry(a, b, given, ms).encode())
    return entries

