"""A child answers the fluency probe in the app (issue 27, item 1): on a study whose forms
carry the probe (the demo study's), the child's pre-play form ends with it and the
post-play form starts with it, on the other parallel form; the answers are stored in the
database with their correctness and time, in the phase they were given in. (The number
pad itself is a component AppTest cannot tap: its trigger is set as the browser would
send it; tests/browser/test_fluency_probe_seen.py taps it.)"""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest.storage import repository as repo
from playtest.storage.models import ResponseRow
from surveys import fluency, probe_pad
from tests.app.conftest import APP


def _answer_page(at: AppTest) -> AppTest:
    for radio in at.radio:
        radio.set_value(radio.options[-1])
    return at.button[0].click().run()


def _send(at: AppTest, key: str, wrong: int) -> tuple[dict, list[str]]:
    """What the pad shows, then its answers sent as the browser sends them: every
    question right but the ``wrong``-th, the last left when the time ran out."""
    (pad,) = at.get("bidi_component")
    data = json.loads(pad.proto.json)["probe"]
    answers = [{"i": n, "given": a * b + (n == wrong), "ms": 1500 + 100 * n}
               for n, (a, b) in enumerate(data["questions"][:4])]
    answers.append({"i": 4, "given": None, "ms": 700})
    at.session_state[key] = {"done": {"nonce": key, "token": data["token"], "answers": answers}}
    at.run()
    assert not at.exception, at.exception
    return data, [fluency.ProbeEntry(*data["questions"][a["i"]], a["given"], a["ms"]).encode()
                  for a in answers]


def _stored(db: Engine, code: str) -> dict[tuple[str, str], object]:
    table = ResponseRow.__table__  # type: ignore[attr-defined]
    with db.connect() as conn:
        rows = conn.execute(select(table.c.survey, table.c.phase, table.c.value).where(
            (table.c.participant_id == code) & (table.c.item == "fluency"))).all()
    return {(r.survey, r.phase): r.value for r in rows}


def test_a_child_answers_the_probe_before_and_after_play_on_the_other_form(
        db: Engine, make_study: Callable[..., repo.Study]) -> None:
    study = make_study(pre_survey="vapoosh_pre_probe", post_survey="vapoosh_post_probe",
                       audience="mixed")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["study"] = study.study_id
    at.run()
    at.radio(key="consent_who").set_value("A child, with a parent or guardian here")
    at.checkbox(key="consent_parent").check()
    at.checkbox(key="consent_agree").check()
    at.button[0].click().run()
    at.run()
    code = repo.list_participants(db, study.study_id)[0].participant_id
    for _ in range(6):  # the child's pre-play pages, up to the probe
        if at.get("bidi_component"):
            break
        at = _answer_page(at)
        assert not at.exception, at.exception
    assert any("two minutes" in str(m.value) for m in at.markdown)
    before, stored_before = _send(at, probe_pad.widget_key(f"pre-{code}::times_tables::fluency"),
                                  wrong=1)
    assert repo.get_participant(db, code).stage == "play"  # type: ignore[union-attr]
    assert _stored(db, code) == {("vapoosh_pre_probe_child", "pre"): stored_before}
    assert stored_before[1].split(";")[1] == "wrong" and stored_before[-1].endswith(";none;700")

    repo.advance_stage(db, code, "play", "post_survey")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["p"] = code
    at.run()
    assert at.get("bidi_component"), "the post-play form starts with the probe"
    after, stored_after = _send(at, probe_pad.widget_key(f"post-{code}::times_tables::fluency"),
                                  wrong=3)
    assert before["token"].rsplit(":", 1)[1] != after["token"].rsplit(":", 1)[1]  # A then B
    assert not {fluency.fact_key(*q) for q in before["questions"]} & {
        fluency.fact_key(*q) for q in after["questions"]}
    assert _stored(db, code)[("vapoosh_post_probe_child", "post")] == stored_after
