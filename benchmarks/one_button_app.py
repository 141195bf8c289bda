"""The baseline for the latency benchmark: one st.button and a counter.

streamlit run benchmarks/one_button_app.py
"""

from __future__ import annotations

import streamlit as st

if "clicks" not in st.session_state:
    st.session_state.clicks = 0


def _count() -> None:
    st.session_state.clicks += 1


st.button("Click me", key="one_button", on_click=_count)
with st.container(key="counter"):
    st.text(f"clicks={st.session_state.clicks}")
