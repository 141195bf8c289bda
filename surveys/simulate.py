"""Plausible simulated answers for demo data (never for real participants).

``profile`` tilts the answers, each knob in 0..1 (0.5 = neutral):

- ``enjoyment``: higher → more positive experience items (PXI, UMUX-Lite, SUS, UEQ-S,
  recommend, faces, yes/maybe/no); items whose high value means a worse experience
  (SUS even items, TLX) are flipped via :func:`surveys.instruments.item_polarity`.
- ``confusion``: higher → more wrong quiz answers, more workload (TLX) and more often
  a "What confused you?" text.
- ``skip``: chance of leaving an optional item empty (default 0.3).
- ``maths`` (how well the tester knows the times tables, default 0.6), ``pace`` (a
  multiplier of every time, default 1) and ``practised`` (how far play has brought each
  fact towards fluent, in a post form; default 0.25): a fluency probe's answers
  (:func:`surveys.fluency.simulated_entries`) on the form the tester's ``seed`` gives.

>>> import random
>>> from surveys.loader import EXAMPLE_SURVEY, load_survey
>>> d = load_survey(EXAMPLE_SURVEY)
>>> a = plausible_answers(d, random.Random(1), {"enjoyment": 0.9})
>>> from surveys.logic import validate_answer
>>> all(validate_answer(d.item(i), v) is None for i, v in a.items() if i in {x.id for _, x in d.items()})
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from surveys import fluency
from surveys.instruments import item_polarity
from surveys.logic import evaluate
from surveys.model import (
    YES_MAYBE_NO,
    Answer,
    FaceScale,
    FluencyProbe,
    InfoBlock,
    Likert,
    LongText,
    Matrix,
    MultipleChoice,
    NumberItem,
    Ranking,
    Rating0to10,
    ShortText,
    SingleChoice,
    Slider,
    SurveyDefinition,
    YesMaybeNo,
)

_LIKED = ["Rolling the dice", "Capturing a counter", "Finding the number on the board was fun",
          "Playing together", "The brown counters", "Winning with a square"]
_CONFUSED = ["When the next player misses a turn", "Which tile to pick when both are free",
             "Brown counters", "The suicide rule", "Whether I could capture", "Finding the row and column"]


def _tilted(rng: random.Random, values: list[Any], tilt: float) -> Any:
    """Pick from an ordered list, centred on ``tilt`` (0 = first, 1 = last)."""
    n = len(values)
    centre = tilt * (n - 1)
    pos = round(min(n - 1, max(0, rng.gauss(centre, max(0.6, n / 5)))))
    return values[pos]


def _unit_tilt(unit: Any, enjoyment: float, confusion: float) -> float:
    instrument = getattr(unit, "instrument", None)
    if instrument == "raw_tlx":
        return min(1.0, max(0.0, 0.25 + 0.6 * confusion))
    if instrument is not None and unit.index is not None and item_polarity(instrument, unit.index) < 0:
        return 1 - enjoyment
    return enjoyment


def plausible_answers(definition: SurveyDefinition, rng: random.Random,
                      profile: Mapping[str, float] | None = None,
                      seed: int | str | None = None) -> dict[str, Answer]:
    """Valid answers for every visible item of ``definition`` (``show_if`` respected,
    in page order), tilted by ``profile``. Info blocks get nothing. ``seed``: the
    tester's code, which picks a fluency probe's form as the renderer does (None: one
    drawn from ``rng``)."""
    prof = dict(profile or {})
    enjoyment = float(prof.get("enjoyment", 0.5))
    confusion = float(prof.get("confusion", 0.5))
    skip = float(prof.get("skip", 0.3))
    answers: dict[str, Answer] = {}
    for page in definition.pages:
        if not evaluate(page.show_if, answers):
            continue
        page_answers: dict[str, Answer] = {}
        for item in page.items:
            if isinstance(item, InfoBlock) or not evaluate(item.show_if, answers):
                continue
            wants_to_say = isinstance(item, LongText | ShortText) and "confus" in item.id \
                and rng.random() < confusion
            if not item.required and not isinstance(item, Matrix) and rng.random() < skip and not wants_to_say:
                continue
            if isinstance(item, FluencyProbe):
                page_answers[item.id] = _probe(item, definition.phase, rng, prof, seed)
                continue
            if isinstance(item, Matrix):
                for row in item.rows:
                    page_answers[row.id] = _tilted(rng, item.values(), _unit_tilt(row, enjoyment, confusion))
                continue
            page_answers[item.id] = _one(item, rng, enjoyment, confusion)
        answers.update(page_answers)  # later pages may depend on this one
    return answers


def _probe(item: FluencyProbe, phase: str, rng: random.Random, profile: Mapping[str, float],
           seed: int | str | None) -> list[Any]:
    """A fluency probe's answers on the tester's form (see the module docstring), drawn
    from a stream of the tester's own (``seed``): adding a probe to a form leaves every
    other simulated answer as it was."""
    if seed is not None:
        rng = random.Random(f"fluency:{seed}:{phase}:{item.id}")
    form = fluency.form_for(item.form, phase, seed if seed is not None else rng.randrange(2**32))
    shown = fluency.questions(item.min_factor, item.max_factor, form, item.count)
    practised = float(profile.get("practised", 0.25)) if phase == "post" else 0.0
    return list(fluency.simulated_entries(shown, item.seconds, rng,
                                          float(profile.get("maths", 0.6)),
                                          float(profile.get("pace", 1.0)), practised))


def _one(item: Any, rng: random.Random, enjoyment: float, confusion: float) -> Answer:
    tilt = _unit_tilt(item, enjoyment, confusion)
    if isinstance(item, Likert):
        return int(_tilted(rng, item.values(), tilt))
    if isinstance(item, FaceScale):
        return int(_tilted(rng, [1, 2, 3, 4, 5], tilt))
    if isinstance(item, Rating0to10):
        return int(_tilted(rng, list(range(11)), tilt))
    if isinstance(item, YesMaybeNo):
        return str(_tilted(rng, list(reversed(YES_MAYBE_NO)), tilt))
    if isinstance(item, SingleChoice):
        values = [o.value for o in item.options]
        if item.correct is not None:
            if rng.random() < 1 - 0.8 * confusion:
                return item.correct
            return rng.choice([v for v in values if v != item.correct])
        return rng.choice(values)
    if isinstance(item, MultipleChoice):
        values = [o.value for o in item.options]
        if item.correct is not None and rng.random() < 1 - 0.8 * confusion:
            return list[Any](item.correct)
        top = item.max_picks if item.max_picks is not None else len(values)
        k = rng.randint(max(1, item.min_picks), max(1, top))
        return rng.sample(values, k)
    if isinstance(item, Ranking):
        order: list[Any] = [o.value for o in item.options]
        rng.shuffle(order)
        return order
    if isinstance(item, ShortText | LongText):
        bank = _CONFUSED if "confus" in item.id else _LIKED
        return rng.choice(bank)[: item.max_length]
    if isinstance(item, NumberItem):
        lo = item.min if item.min is not None else 0
        hi = item.max if item.max is not None else lo + 10
        if item.integer:
            return rng.randint(int(-(-lo // 1)), int(hi // 1))
        return round(rng.uniform(lo, hi), 2)
    if isinstance(item, Slider):
        steps = int(round((item.max - item.min) / item.step))
        value = item.min + _tilted(rng, list(range(steps + 1)), tilt) * item.step
        return int(value) if float(value).is_integer() else value
    raise TypeError(f"cannot simulate {type(item).__name__}")  # pragma: no cover
