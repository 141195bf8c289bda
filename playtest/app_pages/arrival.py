"""Remote studies on the tester's side: arriving from a recruitment panel, a full study,
declining, and going back to the panel at the end (:mod:`playtest.arrivals` decides;
this draws).

Where the tester flow calls it (each a line or two there):
- ``app._pages``: :func:`resume_by_panel_id` (a stored panel id's link is its tester's
  link), :func:`came_from_panel` (a panel arrival is nobody's "Welcome back") and
  :func:`refusal` (an id that is not one, a panel-only study opened without one, a full
  study);
- the consent page: :func:`admit` (instead of storing the consent directly) and
  :func:`decline_button`;
- the thank-you page: :func:`back_to_panel`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import streamlit as st
from sqlalchemy.engine import Engine

from playtest import arrivals, runtime, services
from playtest.i18n import N_, Translator
from playtest.i18n.words import study_words
from playtest.panels import PanelArrival, PanelIdError
from playtest.storage import repository as repo
from playtest.study_config import StudyConfig, StudyConfigError

ARRIVAL = "panel_arrival"  # the panel ids of the study link this session opened
CHECKED = "quota_checked"  # study id → full when this session first opened its link
#: Seconds on the thank-you page before the browser goes back to the panel by itself.
REDIRECT_AFTER_S = 2
FULL = (N_("This study is full"),
        N_("Thank you for your interest: this playtest has all the testers it needs, so it "
           "is not taking new players any more."))


def _query() -> Mapping[str, Any]:
    return st.query_params.to_dict()


def _config(study: repo.Study) -> StudyConfig | None:
    try:
        return services.study_config(study)
    except StudyConfigError:
        return None  # the app's own "being fixed" page


def resume_by_panel_id(engine: Engine) -> str | None:
    """For ``?study=…`` with a panel id already stored: that tester's code, with the
    address changed to their own (``?p=``); None otherwise."""
    study_code = st.query_params.get("study")
    study = repo.get_study(engine, study_code) if study_code else None
    code = None if study is None else arrivals.resume_code(engine, study, _query())
    if code is not None:
        st.query_params.clear()
        st.query_params["p"] = code
    return code


def came_from_panel(study: repo.Study) -> bool:
    """Whether this study link carries a panel id (then the browser's earlier tester of
    the study is not offered: the panel id says who this is)."""
    config = _config(study)
    try:
        return config is not None and arrivals.arrival(config, _query()) is not None
    except PanelIdError:
        return False


def _words(config: StudyConfig | None) -> Translator:
    return study_words(None if config is None else config.language,
                       None if config is None else config.game)


def _page(title: str, draw: Any) -> st.Page:
    def page() -> None:
        st.title(title)
        draw()

    return st.Page(page, title=title, url_path="sorry", default=True)


def refusal(engine: Engine, study: repo.Study, *, returning: bool) -> st.Page | None:
    """The page of a study link that cannot go on to consent, or None (it can, or the
    app's own pages say why not: a closed study, settings being fixed)."""
    config = _config(study)
    if config is None or not study.open:
        return None
    _ = _words(config)
    try:
        came = arrivals.arrival(config, _query())
    except PanelIdError:
        st.session_state.pop(ARRIVAL, None)
        return _page(_("This link is not complete"), lambda: st.write(_(
            "The link that brought you here is missing part of what the recruitment site "
            "adds to it. Please open the study again from the recruitment site's page.")))
    st.session_state[ARRIVAL] = came
    panel = config.panel
    if panel is not None and came is None and panel.id_required and not returning:
        return _page(_("Please open this study from {panel}").format(panel=panel.name),
                     lambda: st.write(_(
                         "This playtest takes part through {panel}: open it from your study "
                         "page there, so that your part in it is counted for you.").format(
                         panel=panel.name)))
    checked: dict[str, bool] = st.session_state.setdefault(CHECKED, {})
    if study.study_id not in checked:  # once per session: consent decides for good
        checked[study.study_id] = arrivals.is_full(engine, study, config)
    if checked[study.study_id] and not returning:
        return _page(_(FULL[0]), lambda: _full_text(config, came))
    return None


def _full_text(config: StudyConfig, came: PanelArrival | None) -> None:
    _ = _words(config)
    st.write(_(FULL[1]))
    url = arrivals.screenout_url(config, came)
    if url is not None and config.panel is not None:
        st.link_button(_("Back to {panel}").format(panel=config.panel.name), url,
                       type="primary")


def admit(engine: Engine, study: repo.Study, consent: Mapping[str, Any]) -> repo.Participant:
    """The consent stored within the quota, with the link's panel ids (the tester those
    ids have already, if any). A full study shows its notice and ends the run."""
    came = st.session_state.get(ARRIVAL)
    try:
        admitted = arrivals.admit(engine, study, consent,
                                  came if isinstance(came, PanelArrival) else None)
    except arrivals.StudyFull:
        st.session_state.setdefault(CHECKED, {})[study.study_id] = True
        st.subheader(_words(_config(study))(FULL[0]))
        _full_text(services.study_config(study), came)
        st.stop()
    return admitted.participant


def decline_button(study: repo.Study) -> None:
    """For a panel arrival: "I do not want to take part", back to the panel's screen-out
    address (nothing is stored)."""
    came = st.session_state.get(ARRIVAL)
    config = _config(study)
    url = None if config is None else arrivals.screenout_url(
        config, came if isinstance(came, PanelArrival) else None)
    if url is not None and config is not None and config.panel is not None:
        _ = _words(config)
        st.link_button(_("I do not want to take part (back to {panel})").format(
            panel=config.panel.name), url)


def redirect_script(url: str, key: str, after_s: float = REDIRECT_AFTER_S) -> str:
    """A script that sends the browser to ``url`` after ``after_s`` seconds, once per tab
    and ``key`` (Back from the panel shows the page again without leaving again).
    ``url`` is a checked panel address (:func:`playtest.panels.check_panel_url`); it is
    written as a JSON string with ``<``, ``>`` and ``&`` escaped all the same.

    >>> "location.replace" in redirect_script("https://app.prolific.com/x?cc=A", "t1")
    True
    """
    def js(value: str) -> str:
        return (json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e")
                .replace("&", "\\u0026"))

    return ("<script>(() => { const key = " + js(f"playtest-left-{key}") + ";"
            " if (sessionStorage.getItem(key)) return;"
            " setTimeout(() => { sessionStorage.setItem(key, '1');"
            f" window.location.replace({js(url)}); }}, {int(after_s * 1000)}); }})();"
            "</script>")


def back_to_panel(tester: services.Tester) -> None:
    """On the thank-you page of a tester who came from a panel: the panel's completion
    code, a button back to it, and the browser taken there by itself."""
    panel = tester.config.panel
    url = arrivals.completion_url(runtime.database(), tester.config, tester.code)
    if url is None or panel is None:
        return
    _ = _words(tester.config)
    if panel.completion_code:
        st.write(_("Your {panel} completion code is:").format(panel=panel.name))
        st.code(panel.completion_code, language=None)
    st.write(_("We are taking you back to {panel} to record that you finished. If "
               "nothing happens, press the button.").format(panel=panel.name))
    st.link_button(_("Back to {panel}").format(panel=panel.name), url, type="primary",
                   key="back_to_panel")
    st.html(redirect_script(url, tester.code), unsafe_allow_javascript=True)

