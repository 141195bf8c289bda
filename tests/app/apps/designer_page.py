"""Renders one designer page by name (``?page=``), for AppTest."""

import streamlit as st

from playtest.app_pages import designer

name = st.query_params.get("page", "overview")
getattr(designer, f"{name}_page")()
