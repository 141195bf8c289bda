"""The Streamlit app: ``streamlit run playtest/app.py`` (or ``playtest up``).

Who sees what is decided here, on every run, from the URL and the database:
- ``?p=CODE``: a tester; only the page of their current stage exists (forward only).
- ``?study=CODE``: a new tester of an open study; only the consent page exists.
- neither: the start page, and the designer pages once the password was given.
"""

from __future__ import annotations

import streamlit as st

from playtest import runtime, services
from playtest.app_pages import designer, home, tester
from playtest.storage import repository as repo
from playtest.storage.errors import DatabaseUnavailable
from playtest.study_config import StudyConfigError


def _problem(title: str, text: str) -> st.Page:
    def page() -> None:
        st.title(title)
        st.write(text)

    return st.Page(page, title=title, url_path="sorry", default=True)


# A study stored before its settings were validated (or edited in the database) that no
# longer validates: testers wait calmly; the Studies page tells the designer why.
BEING_FIXED = ("This study is being fixed",
               "The study team is correcting a setting of this playtest. Please try this "
               "link again later: nothing you did so far is lost.")


def _pages() -> tuple[list[st.Page] | dict[str, list[st.Page]], bool]:
    """The pages that exist for this visitor, and whether to show the navigation."""
    try:
        engine = runtime.database()
    except DatabaseUnavailable as err:
        return [_problem("The database is not reachable", str(err))], False
    code = st.query_params.get("p")
    study_code = st.query_params.get("study")
    if code:
        try:
            who = services.load_tester(engine, code)
        except StudyConfigError:
            return [_problem(*BEING_FIXED)], False
        if who is None:
            st.session_state.pop("tester", None)
            return [_problem(
                "We can't find that link",
                "The code in this link is not one we know. Please check that you copied "
                "the whole link, or ask the study team for a new one.",
            )], False
        st.session_state["tester"] = who
        return [tester.page_for_stage(who.participant.stage)], False
    if study_code:
        study = repo.get_study(engine, study_code)
        if study is None:
            return [_problem("We can't find that study",
                             "Please check the link, or ask the study team for a new one.")], False
        if not study.open:
            return [_problem("This study is closed",
                             "Thank you for your interest: this playtest is not taking new "
                             "players any more.")], False
        try:
            services.study_config(study)
        except StudyConfigError:
            return [_problem(*BEING_FIXED)], False
        st.session_state["study"] = study
        return [tester.consent_st_page()], False
    pages: dict[str, list[st.Page]] = {"Playtest lab": [home.page()]}
    if designer.is_signed_in():
        pages["Designer"] = designer.pages()
    return pages, True


pages, show_nav = _pages()
# Set once per run, after the page is known: a second call with another layout would make
# the page jump between the two layouts on every rerun (the play page is wide).
st.set_page_config(page_title="Vapoosh! playtest", page_icon="🎲",
                   layout=tester.layout_for(st.session_state.get("tester")
                                            if st.query_params.get("p") else None))
navigation = st.navigation(pages, position="sidebar" if show_nav else "hidden")
navigation.run()
