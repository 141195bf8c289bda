"""The tester link of a study, as the designer copies it (a module of its own: the start
page shows it without importing the designer's pages)."""

from __future__ import annotations

import streamlit as st


def study_link(study_id: str) -> str:
    """The full tester link of a study, on the address this app is being viewed at."""
    base = ""
    try:
        url = st.context.url or ""
        base = url.split("?", 1)[0].rsplit("/", 1)[0] if url.count("/") > 2 else url
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        base = ""
    return f"{base}/?study={study_id}"
