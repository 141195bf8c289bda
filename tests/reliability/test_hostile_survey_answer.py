"""A 1 MB survey answer (issue 11 item 8): the tester is told at the field, not cut silently.

Streamlit keeps at most ``max_chars`` of a text box (the browser stops typing there, and
the server cuts a longer value, e.g. a hand-made message or a pasted page). The box says
its limit, an answer at the limit gets a warning at the field and is saved only when the
tester submits it again; an over-long value that reaches validation is refused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from surveys.logic import validate_answer  # noqa: E402
from surveys.model import LongText  # noqa: E402

SURVEY = """\
id: hostile_answer
version: "1"
title: One open question
pages:
  - id: p1
    items:
      - {id: open, type: long_text, text: "Anything else?"}
"""


def survey_app(definition_path: str, store_path: str) -> None:
    import streamlit as st

    from surveys import load_survey
    from surveys.streamlit_renderer import JsonFileStore, render_survey

    if render_survey(load_survey(definition_path), JsonFileStore(store_path), key="t"):
        st.success("Survey complete")


def _stored(path: Path) -> dict[str, object]:
    return json.loads(path.read_text()) if path.exists() else {}


def test_a_one_megabyte_answer_is_told_at_the_field_before_it_is_kept(tmp_path: Path) -> None:
    definition = tmp_path / "hostile_answer.yaml"
    definition.write_text(SURVEY)
    store = tmp_path / "store.json"
    at = AppTest.from_function(survey_app, args=(str(definition), str(store)),
                               default_timeout=30).run()
    box = at.text_area(key="t::p1::open")
    assert box.proto.max_chars == 2000
    assert "Up to 2,000 characters." in [c.value for c in at.caption]
    box.set_value("a" * 1_000_000)
    at.button[0].click().run()
    assert not at.exception
    assert any("reached the limit of 2,000 characters" in w.value for w in at.warning)
    assert _stored(store) == {}
    at.button[0].click().run()  # the tester keeps it as it is
    assert [s.value for s in at.success] == ["Survey complete"]
    assert _stored(store)["answers"] == {"open": "a" * 2000}


def test_a_shorter_answer_is_kept_at_once_and_a_longer_one_is_refused(tmp_path: Path) -> None:
    definition = tmp_path / "hostile_answer.yaml"
    definition.write_text(SURVEY)
    store = tmp_path / "store.json"
    at = AppTest.from_function(survey_app, args=(str(definition), str(store)),
                               default_timeout=30).run()
    at.text_area(key="t::p1::open").set_value("b" * 1999)
    at.button[0].click().run()
    assert not at.warning and _stored(store)["answers"] == {"open": "b" * 1999}
    item = LongText(id="open", type="long_text", text="Anything else?")
    assert validate_answer(item, "c" * 1_000_000) == "Too long: 1000000 characters, at most 2000."
