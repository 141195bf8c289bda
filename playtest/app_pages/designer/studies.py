"""The Studies page: every study with its place in its study family, its tester link, its
numbers and its settings form, then the form of a new study."""

from __future__ import annotations

import streamlit as st

from analytics.text_safety import markdown_literal
from playtest import runtime, services
from playtest.app_pages.designer.opening import guard, study_link
from playtest.app_pages.designer.panel_form import panel_link_note
from playtest.app_pages.designer.study_form import CREATED, study_form
from playtest.storage import repository as repo
from playtest.storage.game_counts import GameCounts, game_counts
from playtest.study_config import StudyConfig, StudyConfigError


def studies_page() -> None:
    guard()
    st.title("Studies")
    engine = runtime.database()
    for study in repo.list_studies(engine):
        counts = repo.study_counts(engine, study.study_id)
        # the title is the designer's (or an import's) text: a label takes Markdown,
        # so it is escaped to show as written
        state = "open" if study.open else "closed"
        # a later version of a study family says so in its label; every study inside
        version = services.family_version(study)
        later = f" · version {version}" if version > 1 else ""
        with st.expander(f"{markdown_literal(study.title)} · {study.study_id} · {state}"
                         f"{later}"):
            st.caption(markdown_literal(services.family_words(study)))
            st.write("Share this link with testers (the copy button is at its right):")
            st.code(study_link(study.study_id), language=None, wrap_lines=True)
            config = _config(study)
            panel_link_note(study_link(study.study_id), config.panel if config else None)
            wanted = config.quota.completes if config and config.quota else None
            _study_metrics(counts, game_counts(engine, study.study_id), wanted)
            study_form(study)
    st.subheader("New study")
    if CREATED in st.session_state:  # the study just created (its form starts again)
        created = st.session_state.pop(CREATED)
        st.success(f"Created study {created}. Share this link with testers (the copy "
                   "button is at its right):")
        st.code(study_link(created), language=None, wrap_lines=True)
    study_form(None)


def _config(study: repo.Study) -> StudyConfig | None:
    try:
        return services.study_config(study)
    except StudyConfigError:
        return None  # its form says why


def _study_metrics(counts: repo.StudyCounts, games: GameCounts, wanted: int | None) -> None:
    """Testers and games of a study, each number with its definition."""
    cols = st.columns([1, 1, 2, 1])  # the games' label is long: it gets room to be read
    cols[0].metric("Testers", counts.participants, help="Testers who agreed at consent.")
    cols[1].metric("Completed", counts.completed if wanted is None
                   else f"{counts.completed} of {wanted}",
                   help="Testers who reached the thank-you page"
                        + ("." if wanted is None else
                           f", of the {wanted} the study wants (then it is full)."))
    cols[2].metric("Games played out / started", f"{games.played_out} / {games.started}",
                   help="Started: every game begun, by the app or imported. Played out: "
                        "ended with a result (a win or a draw); restarted games and games "
                        "left from the menu are not.")
    cols[3].metric("Events", counts.events, help="Telemetry events stored for the study.")
    st.caption(games.summary())
