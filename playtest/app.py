"""The Streamlit app: ``streamlit run playtest/app.py`` (or ``playtest up``).

Who sees what is decided here, on every run, from the URL, the browser and the database:
- ``?p=CODE``: a tester; only the page of their current stage exists (forward only).
- ``?study=CODE``: a new tester of an open study gets the consent page; a browser that
  already is a tester of it gets "Carry on where I left off" (or "Not you?").
- neither: the start page, and the designer pages once the password was given (their
  direct links ask for it first).

Session state belongs to one tester at a time (``identity.bind``). A database fault shows
a calm line and tries again (``trouble``); its details go to the server log only.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.engine import Engine

from playtest import runtime, services, serving
from playtest.app_pages import access, arrival, cookies, designer, home, identity, tester, trouble
from playtest.app_pages.common import plain
from playtest.games.registry import UnknownGameError, game_plugin
from playtest.i18n import N_, Translator
from playtest.i18n.words import study_words
from playtest.storage import repository as repo
from playtest.storage.errors import DatabaseUnavailable, NotFound
from playtest.study_config import StudyConfigError


def _problem(title: str, text: str, *, retry: bool = False,
             words: Translator | None = None) -> st.Page:
    """A page that says why the visitor cannot go on, in ``words``' language (the
    visitor's: :func:`trouble.visitor_words`, when not given)."""
    _ = words or trouble.visitor_words()
    title, text = _(title), _(text)

    def page() -> None:
        st.title(title)
        st.write(text)
        if retry:  # the page tries again by itself (trouble.run_page)
            st.session_state[trouble.TROUBLE] = trouble.START

    return st.Page(page, title=title, url_path="sorry", default=True)


# A study stored before its settings were validated (or edited in the database) that no
# longer validates: testers wait calmly; the Studies page tells the designer why.
BEING_FIXED = (N_("This study is being fixed"),
               N_("The study team is correcting a setting of this playtest. Please try this "
                  "link again later: nothing you did so far is lost."))
NO_STUDY = (N_("We can't find that study"),
            N_("Please check the link, or ask the study team for a new one."))


def _words(study: repo.Study) -> Translator:
    """What a visitor of ``study``'s link reads, in the study's language (English when
    its settings cannot be read)."""
    language = study.config.get("language") if isinstance(study.config, dict) else None
    return study_words(language, study.game)


def _tester_study_words(engine: Engine, code: str) -> Translator | None:
    """What the tester ``code`` reads, in their study's language (None: no such tester)."""
    found = repo.get_participant_with_study(engine, code)
    return None if found is None or found[1] is None else _words(found[1])


def _welcome_back(study: repo.Study, participant: repo.Participant) -> st.Page:
    _ = _words(study)

    def page() -> None:
        st.title(_("Welcome back"))
        plain(study.title)
        if participant.stage == "done":
            st.write(_("You have finished this playtest in this browser. Thank you!"))
        else:
            st.write(_("You have already started this playtest in this browser."))
        if st.button(_("Carry on where I left off"), type="primary", key="welcome_back_resume"):
            st.query_params.clear()
            st.query_params["p"] = participant.participant_id
            st.rerun()
        if st.button(_("Not you? Start as a new tester"), key="welcome_back_new"):
            identity.forget(study.study_id)
            st.rerun()

    return st.Page(page, title=_("Welcome back"), url_path=tester.TESTER_PATH, default=True)


def _page_title() -> str:
    """The browser tab's title: "<the game's title> playtest" for a tester or a study
    link, else the lab's name."""
    visitor = st.session_state.get("tester") if st.query_params.get("p") else None
    study = visitor.study if isinstance(visitor, services.Tester) else (
        st.session_state.get("study") if st.query_params.get("study") else None)
    if not isinstance(study, repo.Study):
        return "Playtest lab"
    try:
        _ = _words(study)
        return _("{game} playtest").format(game=_(game_plugin(study.game).title))
    except UnknownGameError:
        return "Playtest lab"


def _pages() -> tuple[list[st.Page] | dict[str, list[st.Page]], bool]:
    """The pages that exist for this visitor, and whether to show the navigation."""
    try:
        engine = runtime.database()
    except DatabaseUnavailable as err:
        trouble.note_failure(trouble.START, err)
        return [_problem(trouble.WAIT_TITLE, trouble.UNREACHABLE, retry=True)], False
    code = st.query_params.get("p")
    study_code = st.query_params.get("study")
    if study_code and not code:  # a panel id already stored: its tester's own link
        code = arrival.resume_by_panel_id(engine)
    if code:
        identity.bind(code)
        # Last run's tester of this session (bind cleared any other's): reused when the
        # database rows it came from are unchanged (one query), else loaded afresh.
        previous = st.session_state.get("tester")
        try:
            who = services.load_tester(
                engine, code, previous if isinstance(previous, services.Tester) else None)
        except StudyConfigError:
            return [_problem(*BEING_FIXED, words=_tester_study_words(engine, code))], False
        if who is None:  # an unknown code, or a tester deleted while their tab was open
            st.session_state.pop(trouble.GONE, None)
            words = None
            if isinstance(previous, services.Tester) and previous.code == code:
                words = tester.tester_words(previous)  # their study's, read before it goes
                trouble.note_failure("page", NotFound("the tester is gone"))
            return [_problem(trouble.GONE_TITLE, trouble.GONE_TEXT, words=words)], False
        if who.participant.stage == "consent":  # a consent a fault stopped half-way
            try:
                services.finish_consent(engine, who.study, code)
            except StudyConfigError:
                return [_problem(*BEING_FIXED, words=_words(who.study))], False
            who = services.load_tester(engine, code) or who
        identity.remember(who.study.study_id, code)
        st.session_state["tester"] = who
        return [tester.page_for_stage(who.participant.stage, tester.tester_words(who))], False
    if study_code:
        identity.bind(None)
        study = repo.get_study(engine, study_code)
        if study is None:
            return [_problem(*NO_STUDY)], False
        known = None if arrival.came_from_panel(study) else identity.returning(
            engine, study.study_id)
        refused = arrival.refusal(engine, study, returning=known is not None)
        if refused is not None:
            return [refused], False
        if known is not None:
            return [_welcome_back(study, known)], False
        if not study.open:
            return [_problem(N_("This study is closed"),
                             N_("Thank you for your interest: this playtest is not taking "
                                "new players any more."), words=_words(study))], False
        try:
            services.study_config(study)
        except StudyConfigError:
            return [_problem(*BEING_FIXED, words=_words(study))], False
        st.session_state["study"] = study
        return [tester.consent_st_page(_words(study))], False
    pages: dict[str, list[st.Page]] = {"Playtest lab": [home.page()]}
    if designer.is_signed_in():
        pages["Designer"] = designer.pages()
    else:
        pages["Playtest lab"] += [access.gated(p) for p in designer.pages()]
    return pages, True


def main() -> None:
    runtime.configure_logging()
    if runtime.refusals_to_serve():  # started with unsafe settings: nothing is shown
        st.set_page_config(page_title="Playtest lab", page_icon="🎲")
        st.title(serving.REFUSED_TITLE)
        st.write(serving.REFUSED_TEXT)
        return
    try:
        pages, show_nav = _pages()
    except trouble.DB_ERRORS as err:
        trouble.note_failure(trouble.START, err)
        pages, show_nav = [_problem(trouble.WAIT_TITLE, trouble.UNREACHABLE,
                                    retry=True)], False
    # Set once per run, after the page is known: a second call with another layout would
    # make the page jump between the two layouts on every rerun (the play page is wide).
    st.set_page_config(page_title=_page_title(), page_icon="🎲",
                       layout=tester.layout_for(st.session_state.get("tester")
                                                if st.query_params.get("p") else None))
    navigation = st.navigation(pages, position="sidebar" if show_nav else "hidden")
    # Before the page: a page may end the run early (st.stop, st.rerun); a cookie queued
    # in the run before (a sign-in, a consent) is written in this one.
    cookies.flush()
    trouble.run_page(navigation.run)


# A process pool started from a page (the Balance page's simulation) runs this file again
# in each worker as ``__mp_main__``: there is no app to draw there.
if __name__ != "__mp_main__":
    main()
