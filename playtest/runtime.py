"""Process-wide resources of the Streamlit app: one database engine, one event logger.

Streamlit caches them per process (``st.cache_resource``); the database is migrated to the
latest schema the first time, so a fresh install and an upgraded one both just start.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.engine import Engine

from playtest.messages import MessageCatalog, load_catalog
from playtest.storage.db import make_engine, upgrade
from playtest.storage.events import EventLogger


@st.cache_resource(show_spinner=False)
def database() -> Engine:
    engine = make_engine()
    upgrade(engine)
    return engine


@st.cache_resource(show_spinner=False)
def event_logger() -> EventLogger:
    return EventLogger(database())


@st.cache_resource(show_spinner=False)
def catalog() -> MessageCatalog:
    return load_catalog()
