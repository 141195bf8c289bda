"""Answer validation, conditions, piping and hostile text (pure functions)."""

from __future__ import annotations

import random

import pytest

from surveys import load_survey, parse_survey, pipe, validate_answer, visible_answers
from surveys.logic import escape_markdown, evaluate
from surveys.model import (
    AnyOf,
    Condition,
    LongText,
    MultipleChoice,
    NumberItem,
    Option,
    Ranking,
    ShortText,
    Slider,
)
from surveys.simulate import plausible_answers

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "**bold** [link](http://evil) :red[red] $x^2$ # heading",
    "\u202egnp.exe\u200f right-to-left",
    "😄🎲🔥 emoji",
]


def _opts(n: int) -> list[Option]:
    return [Option(value=f"o{i}", label=f"O{i}") for i in range(n)]


def test_zero_is_an_answer_and_required_blocks_empty() -> None:
    num = NumberItem(id="n", type="number", min=0, max=10)
    assert validate_answer(num, 0) is None
    assert validate_answer(num, None) == "This question needs an answer."
    assert validate_answer(num.model_copy(update={"required": False}), None) is None


@pytest.mark.parametrize(
    ("item", "value", "message"),
    [(NumberItem(id="n", type="number", min=0, max=10), 11, "from 0 to 10"),
     (NumberItem(id="n", type="number", min=0, max=10), 2.5, "whole number"),
     (NumberItem(id="n", type="number", min=0, max=10), "3", "Enter a number"),
     (NumberItem(id="n", type="number", min=0, max=10), True, "Enter a number"),
     (NumberItem(id="n", type="number", min=0), float("nan"), "Enter a number"),
     (ShortText(id="t", type="short_text", max_length=5), "123456", "Too long: 6 characters, at most 5"),
     (ShortText(id="t", type="short_text"), 42, "Enter text"),
     (ShortText(id="t", type="short_text"), "a\x00b", "NUL"),
     (MultipleChoice(id="m", type="multiple_choice", options=_opts(4), max_picks=2), ["o0", "o1", "o2"], "at most 2"),
     (MultipleChoice(id="m", type="multiple_choice", options=_opts(4), min_picks=2), ["o0"], "at least 2"),
     (MultipleChoice(id="m", type="multiple_choice", options=_opts(4)), ["zz"], "from the options"),
     (Ranking(id="r", type="ranking", options=_opts(3)), ["o0", "o1"], "all 3"),
     (Slider(id="s", type="slider", min=0, max=100), 101, "from 0 to 100")],
)
def test_refused_answers_get_a_message(item: object, value: object, message: str) -> None:
    got = validate_answer(item, value)
    assert got is not None and message in got


def test_megabyte_text_refused_by_limit() -> None:
    long = LongText(id="t", type="long_text", max_length=2000)
    msg = validate_answer(long, "x" * 1_000_000)
    assert msg is not None and "1000000 characters" in msg


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_accepted_verbatim_as_data(text: str) -> None:
    assert validate_answer(LongText(id="t", type="long_text"), text) is None


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_has_no_active_markdown(text: str) -> None:
    escaped = escape_markdown(text)
    for ch in "*[]():$#<>":
        assert f"{ch}" not in escaped.replace(f"\\{ch}", "")


def test_conditions() -> None:
    answers = {"age": 0, "role": "child", "likes": ["a", "b"]}
    assert evaluate(Condition(item="age", equals=0), answers)  # 0 is not "missing"
    assert evaluate(Condition(item="age", answered=True), answers)
    assert evaluate(Condition(item="ghost", answered=False), answers)
    assert evaluate(Condition(item="likes", contains="b"), answers)
    assert evaluate(Condition.model_validate({"item": "role", "in": ["teen", "child"]}), answers)
    assert not evaluate(Condition(item="role", gte=3), answers)
    assert evaluate(AnyOf(any=[Condition(item="age", gte=5), Condition(item="role", not_equals="adult")]), answers)


def test_piping_answers_by_label_and_study_values() -> None:
    d = load_survey("vapoosh_pre")
    text = pipe("You are {answer:demo.role} in {study:site}.", d, {"demo.role": "child"}, {"site": "Lab"},
                markdown=False)
    assert text == "You are A child player in Lab."
    assert pipe("{study:missing}!", d, {}, {}, markdown=False) == "!"
    hostile = pipe("Hi {study:x}", d, {}, {"x": "<b>**x**</b>"})
    assert hostile == "Hi \\<b\\>\\*\\*x\\*\\*\\</b\\>"


def test_visible_answers_drops_hidden_and_unknown() -> None:
    d = load_survey("vapoosh_pre")
    answers = {"demo.role": "adult", "expect.fun_0_10": 0, "expect.smileyometer_pre": 5, "bogus": 1,
               "math.child_confidence_1": 3}
    assert visible_answers(d, answers) == {"demo.role": "adult", "expect.fun_0_10": 0}


@pytest.mark.parametrize("sid", ["vapoosh_pre", "vapoosh_pre_adult", "vapoosh_pre_child", "vapoosh_post_short", "vapoosh_post_long",
                                 "vapoosh_post_child"])
def test_simulated_answers_are_valid_and_respect_conditions(sid: str) -> None:
    from surveys.logic import answerable_units

    d = load_survey(sid)
    units = {aid: it for _, item in d.items() for aid, it in answerable_units(item)}
    for seed in range(20):
        answers = plausible_answers(d, random.Random(seed), {"enjoyment": seed / 19, "confusion": 0.5})
        assert visible_answers(d, answers) == answers  # nothing for hidden items
        for aid, value in answers.items():
            assert validate_answer(units[aid], value) is None, (aid, value)
        for aid, it in units.items():  # every visible required unit is answered
            if it.required and aid not in answers:
                assert aid not in visible_answers(d, dict.fromkeys(units, 1) | answers)


def test_simulation_tilt_moves_scores() -> None:
    from surveys import score_definition_answers

    d = load_survey("vapoosh_post_long")
    def mean_of(profile: dict[str, float], key: str, scale: str | None = None) -> float:
        vals: list[float] = []
        for seed in range(30):
            s = score_definition_answers(d, plausible_answers(d, random.Random(seed), profile))[key]
            value = s.scales[scale] if scale else s.score
            assert value is not None
            vals.append(value)
        return sum(vals) / len(vals)
    assert mean_of({"enjoyment": 0.9}, "pxi", "enjoyment") > mean_of({"enjoyment": 0.1}, "pxi", "enjoyment") + 2
    assert mean_of({"enjoyment": 0.9}, "sus") > mean_of({"enjoyment": 0.1}, "sus") + 30
    assert mean_of({"confusion": 0.9}, "raw_tlx") > mean_of({"confusion": 0.1}, "raw_tlx") + 20


def test_simulation_is_deterministic_per_seed() -> None:
    d = load_survey("vapoosh_post_short")
    assert plausible_answers(d, random.Random(3), {}) == plausible_answers(d, random.Random(3), {})


def test_every_item_type_definition_simulates_validly() -> None:
    from pathlib import Path

    from surveys.logic import answerable_units

    d = load_survey(Path(__file__).parent / "apps" / "every_type.yaml")
    assert {it.type for _, it in d.items()} == {
        "short_text", "single_choice", "likert", "info", "face_scale", "rating_0_10", "yes_maybe_no",
        "multiple_choice", "number", "slider", "ranking", "matrix", "long_text"}
    units = {aid: it for _, item in d.items() for aid, it in answerable_units(item)}
    for seed in range(30):
        answers = plausible_answers(d, random.Random(seed), {})
        assert ("kid_more" in answers) == (answers["role"] == "child")
        assert ("adult_only" in answers) == (answers["role"] == "adult")
        assert all(validate_answer(units[a], v) is None for a, v in answers.items())


def test_parse_survey_from_text() -> None:
    d = parse_survey("id: x\nversion: '1'\ntitle: X\npages: [{id: p, items: [{id: a, type: yes_maybe_no}]}]")
    assert d.answer_ids() == ["a"]


def test_validate_answers_for_imported_data() -> None:
    from surveys import validate_answers

    d = load_survey("vapoosh_pre")
    good = {"demo.role": "adult", "demo.age_band": "25–34"}
    assert validate_answers(d, good, "about") == {}
    bad = validate_answers(d, {"demo.role": "wizard", "demo.age_band": 30, "evil": "<script>"}, "about")
    assert bad == {"demo.role": "Choose one of the options.", "demo.age_band": "Choose one of the options.",
                   "evil": "Not an item of this survey."}
    # hidden pages are not required: an adult never sees the children's maths page
    whole = validate_answers(d, good)
    assert "math.child_confidence_1" not in whole and "math.confidence_1" in whole
