"""Process-wide resources of the Streamlit app: one database engine, one event logger.

Streamlit caches them per process (``st.cache_resource``), keyed by ``DATABASE_URL`` so a
changed URL (as in tests) gets its own engine. The database is migrated to the latest
schema the first time, so a fresh install and an upgraded one both just start.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.engine import Engine

from playtest.messages import MessageCatalog, load_catalog
from playtest.storage.db import database_url, make_engine, upgrade
from playtest.storage.events import EventLogger


@st.cache_resource(show_spinner=False)
def _database(url: str) -> Engine:
    engine = make_engine(url)
    upgrade(engine)
    return engine


@st.cache_resource(show_spinner=False)
def _event_logger(url: str) -> EventLogger:
    return EventLogger(_database(url))


def database() -> Engine:
    return _database(database_url())


def event_logger() -> EventLogger:
    return _event_logger(database_url())


@st.cache_resource(show_spinner=False)
def catalog() -> MessageCatalog:
    return load_catalog()
