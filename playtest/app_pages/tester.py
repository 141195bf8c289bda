"""The tester's pages: consent, pre-play survey, play, post-play survey, thank-you.

Each page reads the tester from the URL code and the database, calls into
``playtest.services`` and draws. Only the page of the tester's current stage is in the
navigation, so no URL skips ahead.
"""

from __future__ import annotations

import contextlib
from typing import Literal

import streamlit as st

from playtest import runtime, services
from playtest.app_pages import arrival, identity
from playtest.app_pages.common import log_page, plain, tester_session
from playtest.games.registry import game_plugin
from playtest.i18n import N_, Translator
from playtest.i18n.words import shown_survey, study_words
from playtest.storage import repository as repo
from playtest.storage.errors import ConflictError
from surveys.streamlit_renderer import render_survey

# The English texts are gettext msgids (playtest/i18n/locale/<code>/…/playtest.po).
CONSENT_TEXT = N_(
    "Thank you for helping us test {game}.\n\n"
    "What happens: you answer a few short questions, play one or more games, and answer a "
    "few more questions. It takes about 15 minutes.\n\n"
    "What we keep: your answers and every click in the game, so we can see which rules and "
    "messages are confusing. We never ask for your name or e-mail: you get a random code "
    "instead. You can stop at any time; ask the study team to delete your data with your code.\n\n"
    "Nothing is saved until you press \"I agree\"."
)


def consent_text(game: str, words: Translator | None = None) -> str:
    """The consent text for a study of ``game``: its title and what it is (the plug-in's
    ``title`` and ``about``), in ``words``' language (English without).

    >>> from analytics.data import UNNAMED_GAME
    >>> consent_text(UNNAMED_GAME, study_words("de", UNNAMED_GAME)).startswith("Danke")
    True
    """
    _ = words or study_words("en", game)
    plugin = game_plugin(game)
    title, about = _(plugin.title), _(plugin.about) if plugin.about else ""
    return _(CONSENT_TEXT).replace("{game}", f"{title}, {about}" if about else title)


def tester_words(tester: services.Tester) -> Translator:
    """What ``tester`` reads, in their study's language."""
    return study_words(tester.config.language, tester.config.game)


def current_tester() -> services.Tester:
    tester = st.session_state.get("tester")
    assert isinstance(tester, services.Tester)
    return tester


def _advance(tester: services.Tester, current: str, new: str) -> None:
    # ConflictError: another tab moved on already; the rerun shows where the tester is.
    with contextlib.suppress(ConflictError):
        repo.advance_stage(runtime.database(), tester.code, current, new)
    st.rerun()


# -- consent ----------------------------------------------------------------------------


def consent_page() -> None:
    study: repo.Study = st.session_state["study"]
    config = services.study_config(study)
    _ = study_words(config.language, study.game)
    st.title(_("{game} playtest").format(game=_(game_plugin(study.game).title)))
    plain(study.title)
    plain(consent_text(study.game, _))
    with st.form("consent"):
        who = "adult"
        if config.audience == "children":
            who = "child"
            st.write(_("This study is for children playing with a parent or guardian."))
        elif config.audience == "mixed":
            adult, child = (_("An adult (18 or over)"),
                            _("A child, with a parent or guardian here"))
            who_label = st.radio(_("Who is playing?"), [adult, child], index=None,
                                 key="consent_who")
            who = "child" if who_label == child else ("adult" if who_label else "")
        parent_ok = st.checkbox(
            _("I am the child's parent or guardian and I agree to my child taking part."),
            key="consent_parent",
        ) if config.audience in ("children", "mixed") else False
        agree = st.checkbox(_("I have read the above and I agree to take part."),
                            key="consent_agree")
        submitted = st.form_submit_button(_("I agree"), type="primary")
    arrival.decline_button(study)
    if not submitted:
        return
    if not who:
        st.error(_("Please say who is playing."))
        return
    if who == "child" and not parent_ok:
        st.error(_("A parent or guardian must agree for a child to take part."))
        return
    if not agree:
        st.error(_("Please tick the box to agree, or close this page if you do not want to "
                   "take part."))
        return
    engine = runtime.database()
    participant = arrival.admit(  # within the quota, with the panel's ids (if any)
        engine, study, {"child": who == "child", "parent_consent": bool(parent_ok),
                        "text_version": "1"},
    )
    # Remembered at once: if what follows fails (a locked database), the retry finishes
    # this tester's consent instead of making another one.
    identity.remember(study.study_id, participant.participant_id)
    services.finish_consent(engine, study, participant.participant_id)
    tester = services.load_tester(engine, participant.participant_id)
    assert tester is not None
    st.session_state["tester"] = tester
    # The consent page view is logged now that there is someone to log it for.
    log_page(tester, "consent")
    st.query_params.clear()
    st.query_params["p"] = participant.participant_id
    st.rerun()


# -- surveys ----------------------------------------------------------------------------


def _survey_page(phase: str) -> None:
    tester = current_tester()
    page_name = f"{phase}_survey"
    log_page(tester, page_name)
    engine = runtime.database()
    definition = services.survey_for(tester, phase, engine)
    nxt = "play" if phase == "pre" else "done"
    if definition is None:
        _advance(tester, page_name, nxt)
        return
    _ = tester_words(tester)
    st.title(_("Before you play") if phase == "pre" else _("After playing"))
    _resume_link(tester)
    store = services.DbResponseStore(engine, tester, definition, phase, runtime.event_logger(),
                                     tester_session(tester))
    # shown in the study's language; the answers are stored against the definition itself
    done = render_survey(shown_survey(definition, tester.config.language), store,
                         context={"title": tester.study.title},
                         key=f"{phase}-{tester.code}", rng_seed=tester.code, words=_)
    if done:
        if phase == "post":
            repo.set_completion_code(engine, tester.code)
        _advance(tester, page_name, nxt)


def pre_survey_page() -> None:
    _survey_page("pre")


def post_survey_page() -> None:
    _survey_page("post")


def _resume_link(tester: services.Tester) -> None:
    _ = tester_words(tester)
    with st.expander(_("Need a break? Keep your link")):
        st.write(_("Open this page's address later (or on another device) to carry on where "
                   "you left off. Your code:"))
        st.code(tester.code, language=None)


# -- play -------------------------------------------------------------------------------


def layout_for(tester: services.Tester | None) -> Literal["centered", "wide"]:
    """The page layout for a visitor: wide while a tester plays (board and controls side
    by side), centered for reading and forms."""
    if tester is not None and tester.participant.stage == "play":
        return "wide"
    return "centered"


def play_page() -> None:
    tester = current_tester()
    log_page(tester, "play")
    if st.session_state.pop("stop_playing", False):
        _advance(tester, "play", "post_survey")
    # every game on the one board shell and game session (a game not moved onto them
    # yet draws its own play step)
    plugin = game_plugin(tester.config.game)
    if plugin.view is not None:
        from playtest.board.page import play_page as shell_play_page

        shell_play_page(tester, to_post_survey=lambda: _advance(tester, "play", "post_survey"))
        return
    assert plugin.play is not None, "a game testers play has a play step"
    plugin.play(tester, to_post_survey=lambda: _advance(tester, "play", "post_survey"))


# -- done -------------------------------------------------------------------------------


def done_page() -> None:
    tester = current_tester()
    log_page(tester, "done")
    code = tester.participant.completion_code or repo.set_completion_code(
        runtime.database(), tester.code)
    _ = tester_words(tester)
    st.title(_("Thank you!"))
    st.write(_("You have finished. Your completion code is:"))
    st.code(code, language=None)
    st.write(_("Keep it if the study team asks for it. You can close this page now."))
    arrival.back_to_panel(tester)


PAGES = {
    "pre_survey": (pre_survey_page, N_("Before you play")),
    "play": (play_page, N_("Play")),
    "post_survey": (post_survey_page, N_("After playing")),
    "done": (done_page, N_("Thank you")),
}

# Every tester page has the same address: Streamlit identifies a page by its url_path,
# so a stage change is not a page change for the browser (which would run the new page
# a second time and reset a form the tester has begun to fill in).
TESTER_PATH = "playtest"


def page_for_stage(stage: str, words: Translator | None = None) -> st.Page:
    """The page of a tester's ``stage``, titled in ``words``' language."""
    func, title = PAGES.get(stage, PAGES["pre_survey"])
    return st.Page(func, title=words(title) if words else title, url_path=TESTER_PATH,
                   default=True)


def consent_st_page(words: Translator | None = None) -> st.Page:
    return st.Page(consent_page, title=(words or N_)(N_("Welcome")),
                   url_path=TESTER_PATH, default=True)
