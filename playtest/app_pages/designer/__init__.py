"""The designer's pages, one module each: studies, overview, monitor, confusion,
questionnaires, experiments, did it work? (a study family's versions), learning, replay,
balance and the UX design plan. They exist in the navigation only
after the designer's password was given in this browser session.

Pages stay thin: they open alike (:mod:`.opening`), read the study's data once
(:mod:`.study_cache`), call the layers below (``analytics``, ``playtest.study_config``,
``playtest.experiment_choices``) and draw. Text people wrote (titles, variant names,
answers) is only ever shown as plain text, in data frames, or escaped where a widget
takes Markdown (:mod:`analytics.text_safety`).
"""

from __future__ import annotations

import streamlit as st

from playtest.app_pages.designer.balance import balance_page
from playtest.app_pages.designer.confusion import confusion_page
from playtest.app_pages.designer.experiments import experiments_page
from playtest.app_pages.designer.family import family_page
from playtest.app_pages.designer.game_choice import seats_label
from playtest.app_pages.designer.learning import learning_page
from playtest.app_pages.designer.monitor import monitor_page
from playtest.app_pages.designer.opening import is_signed_in, sign_in_form, study_link
from playtest.app_pages.designer.overview import overview_page
from playtest.app_pages.designer.plan import report_page
from playtest.app_pages.designer.questionnaires import questionnaires_page
from playtest.app_pages.designer.replay import replay_page
from playtest.app_pages.designer.studies import studies_page

__all__ = ["balance_page", "confusion_page", "experiments_page", "family_page", "is_signed_in",
           "learning_page", "monitor_page", "pages",
           "overview_page", "questionnaires_page", "replay_page", "report_page",
           "seats_label", "sign_in_form", "studies_page", "study_link"]


def pages() -> list[st.Page]:
    # Material icons (the font ships with Streamlit): emoji drew as empty boxes where the
    # machine has no emoji font, as Debian's Chromium does.
    return [
        st.Page(studies_page, title="Studies", url_path="studies",
                icon=":material/folder_open:"),
        st.Page(overview_page, title="Overview", url_path="overview",
                icon=":material/monitoring:"),
        st.Page(monitor_page, title="Monitor", url_path="monitor",
                icon=":material/sensors:"),
        st.Page(confusion_page, title="Confusion", url_path="confusion",
                icon=":material/help:"),
        st.Page(questionnaires_page, title="Questionnaires", url_path="questionnaires",
                icon=":material/assignment:"),
        st.Page(experiments_page, title="Experiments", url_path="experiments",
                icon=":material/balance:"),
        st.Page(family_page, title="Did it work?", url_path="family",
                icon=":material/trending_down:"),
        st.Page(learning_page, title="Learning", url_path="learning",
                icon=":material/school:"),
        st.Page(replay_page, title="Replay", url_path="replay", icon=":material/replay:"),
        st.Page(balance_page, title="Balance", url_path="balance", icon=":material/casino:"),
        st.Page(report_page, title="Design plan", url_path="plan",
                icon=":material/description:"),
    ]
