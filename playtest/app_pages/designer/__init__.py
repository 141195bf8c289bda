"""The designer's pages, one module each: studies, overview, monitor, confusion,
questionnaires, experiments, did it work? (a study family's versions), learning, replay,
balance and the UX design plan. They exist in the navigation only
after the designer's password was given in this browser session.

Pages stay thin: they open alike (:mod:`.opening`), read the study's data once
(:mod:`.study_cache`), call the layers below (``analytics``, ``playtest.study_config``,
``playtest.experiment_choices``) and draw. Text people wrote (titles, variant names,
answers) is only ever shown as plain text, in data frames, or escaped where a widget
takes Markdown (:mod:`analytics.text_safety`).

A page's module is imported when the page is first drawn, not with this package: the
app imports this package for every tester, and the pages bring pandas, scipy and the
analytics (a server that only serves testers started with several CPU seconds less).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import streamlit as st

from playtest.app_pages.access import is_signed_in, sign_in_form
from playtest.app_pages.designer.links import study_link

__all__ = ["balance_page", "confusion_page", "experiments_page", "family_page", "is_signed_in",
           "learning_page", "monitor_page", "pages",
           "overview_page", "questionnaires_page", "replay_page", "report_page",
           "seats_label", "sign_in_form", "studies_page", "study_link"]

#: Each page: (its function's name, its module in this package, title, url path, icon).
PAGES: tuple[tuple[str, str, str, str, str], ...] = (
    ("studies_page", "studies", "Studies", "studies", ":material/folder_open:"),
    ("overview_page", "overview", "Overview", "overview", ":material/monitoring:"),
    ("monitor_page", "monitor", "Monitor", "monitor", ":material/sensors:"),
    ("confusion_page", "confusion", "Confusion", "confusion", ":material/help:"),
    ("questionnaires_page", "questionnaires", "Questionnaires", "questionnaires",
     ":material/assignment:"),
    ("experiments_page", "experiments", "Experiments", "experiments", ":material/balance:"),
    ("family_page", "family", "Did it work?", "family", ":material/trending_down:"),
    ("learning_page", "learning", "Learning", "learning", ":material/school:"),
    ("replay_page", "replay", "Replay", "replay", ":material/replay:"),
    ("balance_page", "balance", "Balance", "balance", ":material/casino:"),
    ("report_page", "plan", "Design plan", "plan", ":material/description:"),
)
_MODULE_OF = {name: module for name, module, *_ in PAGES} | {"seats_label": "game_choice"}


def __getattr__(name: str) -> Any:
    """``designer.overview_page`` and the like, imported on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def _deferred(name: str) -> Callable[[], None]:
    """Page ``name``'s function, its module imported when the page is drawn."""

    def page() -> None:
        __getattr__(name)()

    page.__name__ = page.__qualname__ = name
    return page


def pages() -> list[st.Page]:
    return [st.Page(_deferred(name), title=title, url_path=url_path, icon=icon)
            for name, _module, title, url_path, icon in PAGES]
