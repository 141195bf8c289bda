"""Alembic migrations of the playtest schema (run by ``playtest.storage.db.upgrade``)."""
