"""The fluency probe's number pad in a German study: its own words (what a screen reader
says of the pad and its keys, the line above each question, the end's words) reach the
pad in German; an English study's pad gets the English ones."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest.i18n import Language, translator
from playtest.storage import repository as repo
from surveys.probe_pad import WORDS
from tests.app.conftest import APP


def pad_words(study: repo.Study) -> dict[str, Any]:
    """The words the pad is given when a child of ``study`` reaches the probe."""
    _ = translator(Language.parse(study.config.get("language", "en")))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["study"] = study.study_id
    at.run()
    at.radio(key="consent_who").set_value(_("A child, with a parent or guardian here"))
    at.checkbox(key="consent_parent").check()
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    at.run()
    for _page in range(6):  # the child's pre-play pages, up to the probe
        if at.get("bidi_component"):
            break
        for radio in at.radio:
            radio.set_value(radio.options[-1])
        at = at.button[0].click().run()
        assert not at.exception, at.exception
    (pad,) = at.get("bidi_component")
    words: dict[str, Any] = json.loads(pad.proto.json)["probe"]["words"]
    return words


def test_the_pads_words_are_the_studys_language(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    settings = {"pre_survey": "vapoosh_pre_probe", "audience": "mixed"}
    german = pad_words(make_study(study_id="de", language="de", **settings))
    assert german["question"] == "Aufgabe {n}" and german["delete"] == "Löschen"
    assert not set(german.values()) & set(WORDS.values())
    assert pad_words(make_study(study_id="en", **settings)) == WORDS
