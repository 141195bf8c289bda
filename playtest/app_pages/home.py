"""The start page: open studies and how to share them, and the designer's sign-in."""

from __future__ import annotations

import streamlit as st

from playtest import runtime
from playtest.app_pages import designer
from playtest.app_pages.common import plain
from playtest.storage import repository as repo


def start_page() -> None:
    st.title("Playtest lab")
    st.write(
        "Testers take part through a study link: the app's address with `?study=` and the "
        "study's code. They agree to take part, answer a short questionnaire, play, answer a "
        "few more questions and get a completion code. Each tester gets a private resume "
        "link (`?p=` and their code), so a closed tab or a lost connection loses nothing."
    )
    studies = [s for s in repo.list_studies(runtime.database()) if s.open]
    st.subheader("Open studies")
    if not studies:
        st.write("No open studies yet. Sign in as the designer to create one.")
    for study in studies:
        plain(study.title)
        st.code(designer.study_link(study.study_id), language=None)
        st.link_button("Open as a tester", f"/?study={study.study_id}")
    st.subheader("Designer")
    designer.sign_in_form()


def page() -> st.Page:
    return st.Page(start_page, title="Start", url_path="start", default=True, icon=":material/home:")
