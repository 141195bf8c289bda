"""Runtime logic shared by the renderer, the app and the simulator: conditions,
piping, Markdown escaping and answer validation. Pure functions, no Streamlit.

>>> validate_answer(NumberItem(id="n", type="number", min=0, max=10), 11)
'Enter a number from 0 to 10.'
>>> validate_answer(NumberItem(id="n", type="number", min=0, max=10), 0) is None
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from surveys.fluency import answer_problem
from surveys.model import (
    YES_MAYBE_NO,
    AllOf,
    AnyOf,
    Condition,
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
    ShowIf,
    SingleChoice,
    Slider,
    SurveyDefinition,
    YesMaybeNo,
)

PIPE_PATTERN = re.compile(r"\{(answer|study):([A-Za-z0-9_.\-]+)\}")
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&])")


def escape_markdown(text: str) -> str:
    r"""Backslash-escape every character Streamlit's Markdown gives meaning to, so
    user-supplied text shows literally (also defuses ``:red[...]``, ``$math$``, links).

    >>> escape_markdown("**hi** <b>")
    '\\*\\*hi\\*\\* \\<b\\>'
    """
    return _MD_SPECIAL.sub(r"\\\1", text)


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def evaluate(cond: ShowIf | None, answers: Mapping[str, Any]) -> bool:
    """Is an item or page with this ``show_if`` shown, given the answers so far?

    >>> evaluate(Condition(item="age", gte=12), {"age": 12})
    True
    >>> evaluate(Condition(item="age", gte=12), {})
    False
    """
    if cond is None:
        return True
    if isinstance(cond, AllOf):
        return all(evaluate(c, answers) for c in cond.all)
    if isinstance(cond, AnyOf):
        return any(evaluate(c, answers) for c in cond.any)
    assert isinstance(cond, Condition)
    value = answers.get(cond.item)
    if cond.answered is not None:
        present = value is not None and value != "" and value != []
        return present is cond.answered
    if value is None:
        return False
    if cond.equals is not None:
        return bool(value == cond.equals)
    if cond.not_equals is not None:
        return bool(value != cond.not_equals)
    if cond.in_ is not None:
        return value in cond.in_
    if cond.contains is not None:
        return isinstance(value, list) and cond.contains in value
    if not _is_number(value):
        return False
    if cond.gte is not None:
        return bool(value >= cond.gte)
    if cond.lte is not None:
        return bool(value <= cond.lte)
    return False  # pragma: no cover - Condition guarantees one operator


def display_value(item: Any, value: Any) -> str:
    """How an answer reads when piped into later text (option labels, not codes)."""
    if value is None:
        return ""
    options = getattr(item, "options", None)
    if options is not None:
        labels = {o.value: o.label for o in options}
        if isinstance(value, list):
            return ", ".join(str(labels.get(v, v)) for v in value)
        return str(labels.get(value, value))
    if isinstance(item, FaceScale) and isinstance(value, int) and 1 <= value <= 5:
        return item.labels[value - 1]
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def pipe(text: str, definition: SurveyDefinition | None, answers: Mapping[str, Any],
         context: Mapping[str, str], *, markdown: bool = True) -> str:
    """Replace ``{answer:ITEM}`` and ``{study:KEY}``. Author text is escaped too when
    ``markdown`` (so nothing in a label is ever interpreted); unknown keys become "".

    >>> pipe("Hi {study:name}!", None, {}, {"name": "*Bo*"})
    'Hi \\\\*Bo\\\\*\\\\!'
    >>> pipe("Hi {study:name}!", None, {}, {"name": "*Bo*"}, markdown=False)
    'Hi *Bo*!'
    """
    out: list[str] = []
    pos = 0
    for m in PIPE_PATTERN.finditer(text):
        out.append(text[pos:m.start()])
        kind, key = m.group(1), m.group(2)
        if kind == "study":
            out.append(str(context.get(key, "")))
        else:
            item: Any = None
            if definition is not None:
                try:
                    item = definition.item(key)
                except KeyError:
                    item = None
            out.append(display_value(item, answers.get(key)))
        pos = m.end()
    out.append(text[pos:])
    joined = "".join(out)
    return escape_markdown(joined) if markdown else joined


def _check_text(value: Any, max_length: int) -> str | None:
    if not isinstance(value, str):
        return "Enter text."
    if len(value) > max_length:
        return f"Too long: {len(value)} characters, at most {max_length}."
    if "\x00" in value:
        return "The text contains a NUL character, which cannot be stored."
    return None


def _check_scale(value: Any, allowed: list[int]) -> str | None:
    if not _is_number(value) or value not in allowed:
        return f"Choose one of {allowed[0]}..{allowed[-1]}."
    return None


def validate_answer(item: Any, value: Any) -> str | None:
    """The message for a refused answer, or ``None`` when the value is acceptable.

    ``None`` / ``""`` / ``[]`` are "no answer" and only fail for required items.
    Zero is an answer.
    """
    empty = value is None or (isinstance(value, str) and value.strip() == "") or value == []
    if empty:
        return "This question needs an answer." if item.required else None
    if isinstance(item, Likert):
        return _check_scale(value, item.values())
    if isinstance(item, FaceScale):
        return _check_scale(value, [1, 2, 3, 4, 5])
    if isinstance(item, Rating0to10):
        return _check_scale(value, list(range(11)))
    if isinstance(item, YesMaybeNo):
        return None if value in YES_MAYBE_NO else "Choose yes, maybe or no."
    if isinstance(item, SingleChoice):
        return None if value in [o.value for o in item.options] and not isinstance(value, bool) \
            else "Choose one of the options."
    if isinstance(item, MultipleChoice):
        if not isinstance(value, list) or any(v not in [o.value for o in item.options] for v in value):
            return "Choose from the options."
        if len(set(value)) != len(value):
            return "Each option can be picked once."
        top = item.max_picks if item.max_picks is not None else len(item.options)
        if len(value) < item.min_picks:
            return f"Pick at least {item.min_picks}."
        if len(value) > top:
            return f"Pick at most {top}."
        return None
    if isinstance(item, Ranking):
        values = [o.value for o in item.options]
        if not isinstance(value, list) or sorted(map(str, value)) != sorted(map(str, values)) \
                or len(value) != len(values):
            return f"Put all {len(values)} options in order."
        return None
    if isinstance(item, ShortText | LongText):
        return _check_text(value, item.max_length)
    if isinstance(item, NumberItem):
        if not _is_number(value) or (isinstance(value, float) and not math.isfinite(value)):
            return "Enter a number."
        if item.integer and not float(value).is_integer():
            return "Enter a whole number."
        if (item.min is not None and value < item.min) or (item.max is not None and value > item.max):
            lo = "" if item.min is None else _fmt(item.min)
            hi = "" if item.max is None else _fmt(item.max)
            if lo and hi:
                return f"Enter a number from {lo} to {hi}."
            return f"Enter a number of at least {lo}." if lo else f"Enter a number of at most {hi}."
        return None
    if isinstance(item, Slider):
        if not _is_number(value) or not item.min <= value <= item.max:
            return f"Choose a value from {_fmt(item.min)} to {_fmt(item.max)}."
        return None
    if isinstance(item, FluencyProbe):
        return answer_problem(value, item.min_factor, item.max_factor)
    if isinstance(item, InfoBlock | Matrix):
        return "This item takes no answer."
    return "Unknown item type."  # pragma: no cover


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def matrix_row_item(matrix: Matrix, row_id: str) -> Likert:
    """A matrix row seen as a Likert item (for validation and scoring)."""
    row = next(r for r in matrix.rows if r.id == row_id)
    return Likert(id=row.id, type="likert", text=row.text, points=matrix.points, start=matrix.start,
                  required=matrix.required, labels=list(matrix.labels))


def answerable_units(item: Any) -> list[tuple[str, Any]]:
    """(answer id, item-like) pairs an item contributes: rows for a matrix, none for info."""
    if isinstance(item, Matrix):
        return [(r.id, matrix_row_item(item, r.id)) for r in item.rows]
    if isinstance(item, InfoBlock):
        return []
    return [(item.id, item)]


def visible_answers(definition: SurveyDefinition, answers: Mapping[str, Any]) -> dict[str, Any]:
    """Drop answers whose item or page is hidden under the other answers (stale
    answers after an edit of an earlier page, or injected keys)."""
    kept: dict[str, Any] = {}
    for page in definition.pages:
        if not evaluate(page.show_if, answers):
            continue
        for item in page.items:
            if not evaluate(item.show_if, answers):
                continue
            for aid, _ in answerable_units(item):
                if aid in answers:
                    kept[aid] = answers[aid]
    return kept


def validate_answers(definition: SurveyDefinition, answers: Mapping[str, Any],
                     page_id: str | None = None) -> dict[str, str]:
    """Problems per answer id (empty when all is well), for answers arriving from
    anywhere but the renderer (an import, an API). Checks every visible unit of the
    survey, or of one page, and flags ids the definition does not know.

    >>> from surveys.loader import EXAMPLE_SURVEY, load_survey
    >>> problems = validate_answers(load_survey(EXAMPLE_SURVEY), {"child.smileyometer": 9, "x": 1})
    >>> problems["child.smileyometer"], problems["child.again"], problems["x"]
    ('Choose one of 1..5.', 'This question needs an answer.', 'Not an item of this survey.')
    """
    problems: dict[str, str] = {}
    known: set[str] = set()
    for page in definition.pages:
        for item in page.items:
            for aid, unit in answerable_units(item):
                known.add(aid)
                if page_id is not None and page.id != page_id:
                    continue
                if not evaluate(page.show_if, answers) or not evaluate(item.show_if, answers):
                    continue
                message = validate_answer(unit, answers.get(aid))
                if message is not None:
                    problems[aid] = message
    for aid in answers:
        if aid not in known:
            problems[aid] = "Not an item of this survey."
    return problems
