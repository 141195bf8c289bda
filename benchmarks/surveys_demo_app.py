"""Standalone demo: ``streamlit run benchmarks/surveys_demo_app.py``.

Pick a bundled survey, answer it (progress kept in ``st.session_state``), then see the
instrument scores, quiz results and the response records the app would store.
"""

from __future__ import annotations

import streamlit as st

from surveys.instruments import instrument_info, quiz_results, score_definition_answers
from surveys.loader import list_surveys, load_survey
from surveys.responses import response_records
from surveys.streamlit_renderer import SessionStateStore, render_survey


def main() -> None:
    st.set_page_config(page_title="Survey demo", layout="centered")
    survey_id = st.selectbox("Survey", list_surveys())
    definition = load_survey(survey_id)
    st.title(definition.title)
    store = SessionStateStore(f"demo.{definition.id}.{definition.content_hash[:12]}")
    if not render_survey(definition, store, key=f"demo.{definition.id}", rng_seed="demo",
                         context={"site": "demo"}):
        return
    answers = dict(store.load().answers)
    st.success("Complete. Scores:")
    for iid, result in score_definition_answers(definition, answers).items():
        info = instrument_info(iid)
        st.subheader(info.name)
        st.json(result.to_json())
        st.caption(info.attribution)
    quiz = quiz_results(definition, answers)
    if quiz:
        st.subheader("Rules quiz")
        st.json(quiz)
    with st.expander("Response records"):
        st.json(response_records(definition, answers))
    if st.button("Start again"):
        st.session_state.pop(store.state_key, None)
        st.rerun()


main()
