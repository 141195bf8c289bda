"""Survey definition model: pages, items, conditions (pydantic).

A definition is plain data, usually written in YAML::

    id: demo
    version: "1.0"
    title: Demo
    pages:
      - id: p1
        items:
          - {id: fun, type: face_scale, text: "How was it?"}

Every answerable unit has a survey-unique id: each item, and each row of a
``matrix`` item (a matrix itself holds no value). Answers are a flat mapping
``{answer_id: value}``; that is also what the telemetry ``response`` record stores.

Cross-item rules (unique ids, conditions that point backwards, piping) are checked
in :mod:`surveys.loader`, which knows the file name for error messages.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_.\-]*$"

Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=80)]
Scalar = str | int | float | bool
Answer = Scalar | list[Scalar] | None

FACES: tuple[str, ...] = ("😞", "🙁", "😐", "🙂", "😄")
SMILEYOMETER_LABELS: tuple[str, ...] = ("Awful", "Not very good", "Good", "Really good", "Brilliant")
YES_MAYBE_NO: tuple[str, ...] = ("yes", "maybe", "no")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------- conditions
class Condition(_Strict):
    """Compare one earlier answer. Exactly one operator besides ``item``.

    ``equals`` / ``not_equals`` compare the value; ``in`` checks membership in a
    list; ``contains`` checks that a multiple-choice answer includes a value;
    ``gte`` / ``lte`` compare numbers; ``answered`` tests presence.
    """

    item: Id
    equals: Scalar | None = None
    not_equals: Scalar | None = None
    in_: list[Scalar] | None = Field(default=None, alias="in")
    contains: Scalar | None = None
    gte: float | None = None
    lte: float | None = None
    answered: bool | None = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _one_operator(self) -> Condition:
        ops = [
            name
            for name in ("equals", "not_equals", "in_", "contains", "gte", "lte", "answered")
            if getattr(self, name) is not None
        ]
        if len(ops) != 1:
            raise ValueError(
                f"condition on {self.item!r} needs exactly one operator "
                "(equals, not_equals, in, contains, gte, lte, answered)"
            )
        return self


class AllOf(_Strict):
    all: list[Condition | AllOf | AnyOf] = Field(min_length=1)


class AnyOf(_Strict):
    any: list[Condition | AllOf | AnyOf] = Field(min_length=1)


ShowIf = Condition | AllOf | AnyOf


def condition_items(cond: ShowIf) -> Iterator[str]:
    """The answer ids a condition reads.

    >>> list(condition_items(AnyOf(any=[Condition(item="a", equals=1), Condition(item="b", answered=True)])))
    ['a', 'b']
    """
    if isinstance(cond, Condition):
        yield cond.item
    else:
        for sub in cond.all if isinstance(cond, AllOf) else cond.any:
            yield from condition_items(sub)


# ---------------------------------------------------------------- items
class Option(_Strict):
    value: str | int
    label: str
    pinned: bool = Field(default=False, description="keeps its position when options are shuffled (e.g. \"I don't know\")")


class _ItemBase(_Strict):
    id: Id
    text: str = ""
    help: str | None = None
    required: bool = True
    show_if: ShowIf | None = None
    instrument: str | None = None
    index: int | None = Field(default=None, ge=1, description="1-based position in the instrument's published order")


class _Choices(_ItemBase):
    options: list[Option] = Field(min_length=2)
    randomize: bool = False

    @model_validator(mode="after")
    def _unique_values(self) -> _Choices:
        values = [o.value for o in self.options]
        if len(set(values)) != len(values):
            raise ValueError("option values must be unique")
        return self


class Likert(_ItemBase):
    """``points`` options valued ``start, start+1, …``; ``labels`` are either the two
    ends or one per point."""

    type: Literal["likert"]
    points: int = Field(ge=2, le=21)
    start: int = 1
    labels: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _labels(self) -> Likert:
        if len(self.labels) not in (0, 2, self.points):
            raise ValueError(f"labels must be 2 (the ends) or {self.points} (every point), got {len(self.labels)}")
        return self

    def values(self) -> list[int]:
        return list(range(self.start, self.start + self.points))


class SingleChoice(_Choices):
    type: Literal["single_choice"]
    correct: str | int | None = Field(default=None, description="quiz: the right option value")


class MultipleChoice(_Choices):
    type: Literal["multiple_choice"]
    min_picks: int = Field(default=0, ge=0)
    max_picks: int | None = Field(default=None, ge=1)
    correct: list[str | int] | None = Field(default=None, description="quiz: the exact set of right values")

    @model_validator(mode="after")
    def _picks(self) -> MultipleChoice:
        top = len(self.options) if self.max_picks is None else self.max_picks
        if top > len(self.options) or self.min_picks > top:
            raise ValueError("need min_picks <= max_picks <= number of options")
        return self


#: What a free-text question asks for: ``problem`` (e.g. "What confused you?"): every
#: theme its answers mention is a problem; ``praise`` ("What did you like?"): every theme
#: is something that works, never a problem; ``neutral``: each theme keeps its own sign.
Polarity = Literal["problem", "praise", "neutral"]


class _FreeText(_ItemBase):
    polarity: Polarity = Field(default="neutral", description="what the question asks for: "
                               "problem (answers name troubles), praise (answers name what "
                               "works) or neutral (each theme keeps its own sign)")
    themes: dict[str, list[str]] | None = Field(
        default=None, description="keyword themes for this item's answers: theme name -> "
        "lower-case word stems matched at a word start (default: the lab's built-in themes)")


class ShortText(_FreeText):
    type: Literal["short_text"]
    max_length: int = Field(default=200, ge=1, le=10_000)


class LongText(_FreeText):
    type: Literal["long_text"]
    max_length: int = Field(default=2000, ge=1, le=100_000)


class NumberItem(_ItemBase):
    type: Literal["number"]
    min: float | None = None
    max: float | None = None
    integer: bool = True

    @model_validator(mode="after")
    def _range(self) -> NumberItem:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("min is greater than max")
        return self


class Rating0to10(_ItemBase):
    type: Literal["rating_0_10"]
    low_label: str = "Not at all likely"
    high_label: str = "Extremely likely"


class Slider(_ItemBase):
    """A slider always holds a value (Streamlit has no empty slider): ``default``
    (the midpoint when unset) is what an untouched slider submits."""

    type: Literal["slider"]
    min: float = 0
    max: float = 100
    step: float = Field(default=1, gt=0)
    default: float | None = None
    low_label: str | None = None
    high_label: str | None = None

    @model_validator(mode="after")
    def _range(self) -> Slider:
        if self.min >= self.max:
            raise ValueError("min must be below max")
        if self.default is not None and not self.min <= self.default <= self.max:
            raise ValueError("default is outside min..max")
        return self

    def start_value(self) -> float:
        if self.default is not None:
            return self.default
        steps = round((self.max - self.min) / self.step)
        return self.min + (steps // 2) * self.step


class FaceScale(_ItemBase):
    """Five faces valued 1..5 (the Smileyometer by default)."""

    type: Literal["face_scale"]
    labels: list[str] = Field(default_factory=lambda: list(SMILEYOMETER_LABELS), min_length=5, max_length=5)


class YesMaybeNo(_ItemBase):
    """Values ``"yes"``, ``"maybe"``, ``"no"`` (Again-Again)."""

    type: Literal["yes_maybe_no"]


class MatrixRow(_Strict):
    id: Id
    text: str
    instrument: str | None = None
    index: int | None = Field(default=None, ge=1)
    left: str | None = Field(default=None, description="semantic differential: this row's own left label")
    right: str | None = None


class Matrix(_ItemBase):
    """Likert rows sharing one scale; each row is an answer with its own id. Rendered
    as stacked rows (phone-friendly), never a wide grid."""

    type: Literal["matrix"]
    rows: list[MatrixRow] = Field(min_length=1)
    points: int = Field(ge=2, le=21)
    start: int = 1
    labels: list[str] = Field(default_factory=list)
    randomize: bool = False

    @model_validator(mode="after")
    def _labels(self) -> Matrix:
        if len(self.labels) not in (0, 2, self.points):
            raise ValueError(f"labels must be 2 (the ends) or {self.points} (every point), got {len(self.labels)}")
        return self

    def values(self) -> list[int]:
        return list(range(self.start, self.start + self.points))


class Ranking(_Choices):
    """Order every option; the answer is the list of values, best first."""

    type: Literal["ranking"]


class FluencyProbe(_ItemBase):
    """A timed set of multiplication facts on a number pad (:mod:`surveys.fluency`): the
    child answers as many as they can in ``seconds`` (default 120; None: no limit), from the
    ``count`` first questions of ``form`` (None: all of them). The facts are every
    ``a × b`` with ``min_factor ≤ a ≤ b ≤ max_factor``, split into two parallel forms
    balanced by difficulty; ``auto`` gives a tester one form before play and the other
    after. The answer is one text per question shown (``"6x7=42;ok;2310"``: the answer,
    right or wrong, and its ms). It fills a page of its own (with info blocks at most)."""

    type: Literal["fluency_probe"]
    form: Literal["A", "B", "auto"] = Field(default="auto", description="the parallel form: "
                                           "A, B, or auto (one before play, the other after)")
    seconds: int | None = Field(default=120, ge=10, le=600,
                                description="time limit in seconds (null: answer every question); "
                                "two minutes by default: one minute of answers varies too much "
                                "to compare arms of 20 (analytics/learning_calibration.py)")
    count: int | None = Field(default=None, ge=1, le=39,
                              description="questions in the form (null: all its facts)")
    min_factor: int = Field(default=2, ge=1, le=12)
    max_factor: int = Field(default=9, ge=1, le=12)
    start_label: str = "Start"

    @model_validator(mode="after")
    def _factors(self) -> FluencyProbe:
        if self.min_factor >= self.max_factor:
            raise ValueError("min_factor must be below max_factor")
        if self.seconds is None and self.count is None:
            raise ValueError("an untimed probe (seconds: null) needs a count of questions")
        span = self.max_factor - self.min_factor + 1
        per_form = span * (span + 1) // 2 // 2
        if self.count is not None and self.count > per_form:
            raise ValueError(f"count {self.count} is more than the {per_form} questions of a "
                             f"form of factors {self.min_factor} to {self.max_factor}")
        return self


class InfoBlock(_ItemBase):
    """Text only; holds no answer."""

    type: Literal["info"]
    required: bool = False


Item = Annotated[
    Likert | SingleChoice | MultipleChoice | ShortText | LongText | NumberItem | Rating0to10
    | Slider | FaceScale | YesMaybeNo | Matrix | Ranking | FluencyProbe | InfoBlock,
    Field(discriminator="type"),
]

ITEM_TYPES: tuple[str, ...] = (
    "likert", "single_choice", "multiple_choice", "short_text", "long_text", "number",
    "rating_0_10", "slider", "face_scale", "yes_maybe_no", "matrix", "ranking", "fluency_probe",
    "info",
)


class Page(_Strict):
    id: Id
    title: str = ""
    show_if: ShowIf | None = None
    items: list[Item] = Field(min_length=1)


class SurveyDefinition(_Strict):
    """A versioned questionnaire. ``content_hash`` identifies the exact content a
    response was given against (two edits with the same ``version`` differ here)."""

    id: Id
    version: str = Field(min_length=1)
    title: str
    description: str = ""
    phase: Literal["pre", "post", "other"] = "other"
    audience: Literal["adult", "child", "any"] = "any"
    pages: list[Page] = Field(min_length=1)

    @property
    def content_hash(self) -> str:
        """SHA-256 over the canonical JSON of the whole definition."""
        canonical = json.dumps(self.model_dump(mode="json", by_alias=True), sort_keys=True,
                               ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def items(self) -> Iterator[tuple[Page, Any]]:
        """(page, item) in survey order."""
        for page in self.pages:
            for item in page.items:
                yield page, item

    def answer_ids(self) -> list[str]:
        """Every id that can carry an answer, in survey order (matrix rows, not matrices)."""
        out: list[str] = []
        for _, item in self.items():
            if isinstance(item, Matrix):
                out.extend(r.id for r in item.rows)
            elif not isinstance(item, InfoBlock):
                out.append(item.id)
        return out

    def page(self, page_id: str) -> Page:
        for p in self.pages:
            if p.id == page_id:
                return p
        raise KeyError(page_id)

    def item(self, item_id: str) -> Any:
        for _, it in self.items():
            if it.id == item_id:
                return it
        raise KeyError(item_id)


class SurveyExtension(_Strict):
    """A survey written as a bundled one plus pages (``extends``): what
    :func:`surveys.loader.extended` reads; the published schema accepts it beside a
    whole definition."""

    extends: Id = Field(description="the bundled survey this one adds pages to")
    id: Id
    version: str = Field(min_length=1)
    title: str | None = None
    description: str | None = None
    phase: Literal["pre", "post", "other"] | None = None
    audience: Literal["adult", "child", "any"] | None = None
    pages_before: list[Page] = Field(default_factory=list, description="pages put first")
    pages_after: list[Page] = Field(default_factory=list, description="pages put last")


AllOf.model_rebuild()
AnyOf.model_rebuild()
