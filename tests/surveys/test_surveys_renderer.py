"""The Streamlit renderer through AppTest: required items, refusals beside the item,
conditions, piping, hostile text, option shuffling, resume from the store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

DEFINITION = str(Path(__file__).parent / "apps" / "every_type.yaml")
KEY = "t"


def survey_app(definition_path: str, store_path: str, seed: int) -> None:
    import streamlit as st

    from surveys import load_survey
    from surveys.streamlit_renderer import JsonFileStore, render_survey

    done = render_survey(load_survey(definition_path), JsonFileStore(store_path), key="t", rng_seed=seed,
                         context={"site": "Lab *1*"})
    if done:
        st.success("Survey complete")


def session_store_app(definition_path: str) -> None:
    import streamlit as st

    from surveys import load_survey
    from surveys.streamlit_renderer import SessionStateStore, render_survey

    store = SessionStateStore("demo")
    if render_survey(load_survey(definition_path), store, key="s"):
        st.success("done")
        st.json(store.load().answers)


def _app(tmp_path: Path, seed: int = 1) -> AppTest:
    at = AppTest.from_function(survey_app, args=(DEFINITION, str(tmp_path / "store.json"), seed),
                               default_timeout=30)
    at.run()
    assert not at.exception
    return at


def _w(kind: Any, page: str, item: str) -> Any:
    return kind(key=f"{KEY}::{page}::{item}")


def _store(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "store.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _submit(at: AppTest) -> None:
    at.button[0].click().run()
    assert not at.exception



def _fill_p1_ok(at: AppTest, name: str = "Bo", role: str = "adult") -> None:
    _w(at.text_input, "p1", "name").set_value(name)
    _w(at.radio, "p1", "role").set_value(role)
    _w(at.radio, "p1", "fun").set_value(1)
    _submit(at)


def _fill_p2_ok(at: AppTest, role: str = "adult") -> None:
    if role == "adult":
        _w(at.radio, "p2", "adult_only").set_value(0)  # 0 is an answer
    else:
        _w(at.radio, "p2", "kid_only").set_value(5)
    _w(at.radio, "p2", "again").set_value("no")
    _w(at.multiselect, "p2", "picks").set_value(["a"])
    _w(at.number_input, "p2", "count").set_value(0)
    _w(at.multiselect, "p2", "rank").set_value(["z", "x", "y"])
    _w(at.radio, "p2", "grid.a").set_value(-3)
    _w(at.radio, "p2", "grid.b").set_value(0)
    _submit(at)


def test_required_items_block_submit_with_messages_beside_them(tmp_path: Path) -> None:
    at = _app(tmp_path)
    assert [r.label for r in at.radio][:2] == ["I am :red[\\*]", "It was fun :red[\\*]"]
    _submit(at)
    messages = [e.value for e in at.error]
    assert messages.count("This question needs an answer.") == 3  # name, role, fun (colour optional)
    assert messages[-1] == "Please check 3 marked questions above."
    assert _store(tmp_path) == {}  # nothing saved
    _w(at.text_input, "p1", "name").set_value("Bo")
    _submit(at)
    assert [e.value for e in at.error].count("This question needs an answer.") == 2


def test_too_long_text_is_capped_and_out_of_range_is_refused(tmp_path: Path) -> None:
    at = _app(tmp_path)
    # the widget carries max_chars: the browser stops typing at the limit and Streamlit
    # caps the value server-side, so an over-long answer never reaches the store
    _w(at.text_input, "p1", "name").set_value("x" * 25)
    _w(at.radio, "p1", "role").set_value("adult")
    _w(at.radio, "p1", "fun").set_value(3)
    assert _w(at.text_input, "p1", "name").proto.max_chars == 20
    assert "Up to 20 characters." in [c.value for c in at.caption]
    _submit(at)
    # the cut is told at the field, and nothing is saved until the tester confirms it
    assert [w.value for w in at.warning] == [
        "This answer reached the limit of 20 characters, so anything longer was cut off. "
        "Check its end, then press “Continue” again to keep it."]
    assert _store(tmp_path) == {}
    _submit(at)
    assert _store(tmp_path)["answers"] == {"name": "x" * 20, "role": "adult", "fun": 3, "colour": None}
    _w(at.number_input, "p2", "count").set_value(25)
    _submit(at)
    errors = [e.value for e in at.error]
    assert "Enter a number from 0 to 20." in errors
    assert _store(tmp_path)["completed_pages"] == ["p1"]
    # the message is placed directly under the number widget (same form, next element)
    form = at.get("form")[0]
    kinds = [(el.type, getattr(el, "key", None)) for el in form]
    pos = kinds.index(("number_input", f"{KEY}::p2::count"))
    after = [k for k in kinds[pos + 1:] if k[0] != "caption"][0]
    assert after[0] in ("error", "alert"), kinds


def test_conditions_show_and_hide_items_and_pages(tmp_path: Path) -> None:
    at = _app(tmp_path)
    _fill_p1_ok(at, role="adult")
    keys = {r.key for r in at.radio}
    assert f"{KEY}::p2::adult_only" in keys and f"{KEY}::p2::kid_only" not in keys
    _fill_p2_ok(at, role="adult")
    assert [s.value for s in at.success] == ["Survey complete"]  # p3 (children only) skipped
    stored = _store(tmp_path)
    assert stored["completed_pages"] == ["p1", "p2"]
    assert stored["answers"]["adult_only"] == 0 and stored["answers"]["count"] == 0
    assert stored["answers"]["rank"] == ["z", "x", "y"] and stored["answers"]["grid.a"] == -3
    assert stored["answers"]["level"] == 5  # untouched slider submits its midpoint
    assert "kid_only" not in stored["answers"]
    assert all(s >= 0 for s in stored["seconds_per_page"].values())


def test_child_branch_reaches_the_children_page(tmp_path: Path) -> None:
    at = _app(tmp_path)
    _fill_p1_ok(at, role="child")
    keys = {r.key for r in at.radio}
    assert f"{KEY}::p2::kid_only" in keys and f"{KEY}::p2::adult_only" not in keys
    _fill_p2_ok(at, role="child")
    assert [s.value for s in at.subheader] == ["Children only"]
    _w(at.radio, "p3", "kid_more").set_value(1)
    _submit(at)
    assert at.success[0].value == "Survey complete"


def test_piping_answers_and_study_values_escaped(tmp_path: Path) -> None:
    at = _app(tmp_path)
    _fill_p1_ok(at, name="Bo")
    assert at.subheader[0].value == "More, Bo"
    info = [m.value for m in at.markdown if "Hello" in m.value]
    assert info == ["Hello Bo from Lab \\*1\\*"]


@pytest.mark.parametrize("hostile", ["<b>x</b>", "**x** :red[y]", "[a](http://e)", "\u202eab😄"])
def test_hostile_text_stays_plain(tmp_path: Path, hostile: str) -> None:
    at = _app(tmp_path)
    _fill_p1_ok(at, name=hostile)
    assert _store(tmp_path)["answers"]["name"] == hostile  # stored verbatim as data
    for md in at.markdown:
        assert not md.proto.allow_html
    shown = [m.value for m in at.markdown if "Hello" in m.value][0]
    for ch in "<>*[]():":
        assert ch not in shown.replace("\\" + ch, "")
    for el in list(at.html):
        pytest.fail(f"unexpected html element {el}")


def test_resume_in_a_new_session_from_the_store(tmp_path: Path) -> None:
    at = _app(tmp_path)
    _fill_p1_ok(at, role="adult")
    first = _store(tmp_path)
    assert first["completed_pages"] == ["p1"] and "p1" in first["seconds_per_page"]
    again = _app(tmp_path)  # a reload: new session, same store
    assert again.subheader[0].value == "More, Bo"
    assert f"{KEY}::p2::adult_only" in {r.key for r in again.radio}
    _fill_p2_ok(again, role="adult")
    assert again.success[0].value == "Survey complete"
    assert _store(tmp_path)["answers"]["name"] == "Bo"
    done = _app(tmp_path)
    assert done.success[0].value == "Survey complete" and not done.radio


def test_option_order_is_shuffled_per_participant_and_stable(tmp_path: Path) -> None:
    def order(seed: int, sub: str) -> list[str]:
        (tmp_path / sub).mkdir(exist_ok=True)
        at = _app(tmp_path / sub, seed=seed)
        return list(_w(at.radio, "p1", "colour").options)

    a1, a2 = order(1, "a1"), order(1, "a2")
    assert a1 == a2
    orders = {tuple(order(s, f"s{s}")) for s in range(2, 8)}
    assert len(orders) > 1
    for o in orders | {tuple(a1)}:
        assert o[-1] == "None of these"  # pinned stays last


def test_session_state_store_runs_a_whole_survey() -> None:
    at = AppTest.from_function(session_store_app, args=(DEFINITION,), default_timeout=30)
    at.run()
    at.text_input(key="s::p1::name").set_value("Al")
    at.radio(key="s::p1::role").set_value("adult")
    at.radio(key="s::p1::fun").set_value(5)
    at.button[0].click().run()
    at.radio(key="s::p2::adult_only").set_value(10)
    at.radio(key="s::p2::again").set_value("yes")
    at.multiselect(key="s::p2::picks").set_value(["b", "c"])
    at.number_input(key="s::p2::count").set_value(3)
    at.multiselect(key="s::p2::rank").set_value(["x", "y", "z"])
    at.radio(key="s::p2::grid.a").set_value(3)
    at.radio(key="s::p2::grid.b").set_value(3)
    at.text_area(key="s::p2::story").set_value("<script>alert(1)</script>")
    at.button[0].click().run()
    assert not at.exception
    assert at.success[0].value == "done"
    answers = json.loads(at.json[0].proto.body)
    assert answers["story"] == "<script>alert(1)</script>" and answers["picks"] == ["b", "c"]


def test_current_page_skips_pages_whose_questions_are_all_hidden() -> None:
    from surveys import parse_survey
    from surveys.streamlit_renderer import SavedProgress, current_page

    d = parse_survey("""
id: skip
version: "1"
title: Skip
pages:
  - id: intro
    items: [{id: hi, type: info, text: Hello}]
  - id: a
    items: [{id: role, type: single_choice, options: [{value: c, label: C}, {value: d, label: D}]}]
  - id: b
    items:
      - {id: note, type: info, text: "Only for C"}
      - {id: q, type: yes_maybe_no, show_if: {item: role, equals: c}}
  - id: c
    items: [{id: last, type: yes_maybe_no}]
""")
    first = current_page(d, SavedProgress())
    assert first is not None and first.id == "intro"  # an info-only page is shown
    p = current_page(d, SavedProgress({"role": "d"}, ("intro", "a")))
    assert p is not None and p.id == "c"
    p = current_page(d, SavedProgress({"role": "c"}, ("intro", "a")))
    assert p is not None and p.id == "b"
    assert current_page(d, SavedProgress({"role": "d"}, ("intro", "a", "c"))) is None


def bundled_app(survey_id: str, store_path: str) -> None:
    import streamlit as st

    from surveys import load_survey
    from surveys.streamlit_renderer import JsonFileStore, render_survey

    if render_survey(load_survey(survey_id), JsonFileStore(store_path), key="b", rng_seed=42):
        st.success("Survey complete")


def _set_widget(at: AppTest, key: str, value: Any) -> bool:
    for kind in (at.radio, at.multiselect, at.text_input, at.text_area, at.number_input, at.slider):
        try:
            widget = kind(key=key)
        except KeyError:
            continue
        widget.set_value(value)
        return True
    return False


@pytest.mark.parametrize("survey_id", ["vapoosh_pre", "vapoosh_pre_adult", "vapoosh_pre_child", "vapoosh_post_short",
                                       "vapoosh_post_long", "vapoosh_post_child"])
def test_bundled_survey_end_to_end_with_simulated_answers(tmp_path: Path, survey_id: str) -> None:
    import random

    from surveys import load_survey, score_definition_answers
    from surveys.logic import answerable_units
    from surveys.simulate import plausible_answers

    d = load_survey(survey_id)
    wanted = plausible_answers(d, random.Random(5), {"enjoyment": 0.8, "confusion": 0.2, "skip": 0.0})
    at = AppTest.from_function(bundled_app, args=(survey_id, str(tmp_path / "store.json")), default_timeout=30)
    at.run()
    for _ in range(len(d.pages) + 1):
        if at.success:
            break
        before = len(_store(tmp_path).get("completed_pages", []))
        for p in d.pages:  # set every widget of the shown page (info-only pages have none)
            for it in p.items:
                for aid, _ in answerable_units(it):
                    if aid in wanted:
                        _set_widget(at, f"b::{p.id}::{aid}", wanted[aid])
        _submit(at)
        assert len(_store(tmp_path)["completed_pages"]) == before + 1, [e.value for e in at.error]
    assert at.success and at.success[0].value == "Survey complete"
    stored = _store(tmp_path)["answers"]
    assert {k: v for k, v in stored.items() if v is not None} == wanted
    scores = score_definition_answers(d, stored)
    for result in scores.values():
        assert result.scales, result
