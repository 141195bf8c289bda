"""What every designer page opens with: the designer's guard, the study picker in the
sidebar, the page's title and, for a page of results, "No data yet" while no tester has
taken part (:func:`open_page`). Also the study's tester link and the experiment picker
the result pages share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from analytics import experiments
from analytics.text_safety import without_direction_controls
from playtest import page_results, runtime
from playtest.app_pages import access
from playtest.app_pages.designer.links import study_link as study_link
from playtest.app_pages.designer.study_cache import head
from playtest.app_pages.empty import no_testers_yet
from playtest.storage import repository as repo


def is_signed_in() -> bool:
    return access.is_signed_in()


def sign_in_form() -> None:
    """The password form (on the start page): see :mod:`playtest.app_pages.access`."""
    access.sign_in_form()


def guard() -> None:
    # Also checked here: a page object cached in a stale session must not render.
    if not is_signed_in():
        st.error("Designer pages need the designer's password.")
        st.stop()


def study_name(study: repo.Study) -> str:
    """A study as the picker lists it: its title as plain text, then its id."""
    return f"{without_direction_controls(study.title)} ({study.study_id})"


def pick_study() -> repo.Study | None:
    studies = repo.list_studies(runtime.database())
    if not studies:
        st.info("No studies yet: create one on the Studies page.")
        return None
    by_id = {s.study_id: s for s in studies}
    current = st.session_state.get("study_id")
    ids = list(by_id)
    chosen = st.sidebar.selectbox(  # options are drawn as text, never as Markdown
        "Study", ids, index=ids.index(current) if current in by_id else 0,
        key="study_picker", format_func=lambda i: study_name(by_id[i]))
    st.session_state["study_id"] = chosen
    return by_id[chosen]


@dataclass(frozen=True)
class Opened:
    """A designer page's study, and its records and state when the page shows results."""

    study: repo.Study
    head: page_results.StudyHead


def open_page(title: str) -> repo.Study | None:
    """The guard, the study picker and the title: the study, or None (nothing to draw)."""
    guard()
    study = pick_study()
    if study is not None:
        st.title(title)
    return study


def with_testers(study: repo.Study, page: str) -> Opened | None:
    """The study's head, or None after "No data yet" while no tester has taken part."""
    h = head(study.study_id)
    if no_testers_yet(len(h.data.participants), page):
        return None
    return Opened(study, h)


def open_results_page(title: str) -> Opened | None:
    """:func:`open_page` then :func:`with_testers`: how a page of results opens."""
    study = open_page(title)
    return None if study is None else with_testers(study, title)


def variants_of(data: Any, key: str | None) -> pd.Series | None:
    return experiments.participant_variants(data, key) if key else None


def experiment_picker(study: repo.Study, label: str = "Split by experiment") -> str | None:
    keys = [e["key"] for e in study.experiment_records]
    if not keys:
        return None
    choice = st.selectbox(label, ["(no split)", *keys], key=f"split-{label}")
    return None if choice == "(no split)" else choice
