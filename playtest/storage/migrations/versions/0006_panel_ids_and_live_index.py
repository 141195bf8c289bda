"""Recruitment panels and the live monitor.

- ``panel_ids``: the panel's ids of a tester who came from a recruitment panel
  (Prolific's ``PROLIFIC_PID``, ``STUDY_ID``, ``SESSION_ID``; another panel's ``?pid=``),
  one row per tester, apart from the tester's pseudonymous code; unique per study and
  panel id, so the same panel link resumes the same tester and never makes a second.
- ``events (study_id, type, at_ms)`` instead of ``(study_id, type)``: every query the
  old index served is served by the new one's first two columns, and a study's page
  events of the last hour (the monitor's starts and finishes) become one index range
  instead of every page event of the study.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "panel_ids",
        sa.Column("participant_id", sa.String(length=64), nullable=False),
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("panel", sa.String(length=16), nullable=False),
        sa.Column("panel_id", sa.String(length=64), nullable=False),
        sa.Column("panel_study", sa.String(length=64), nullable=True),
        sa.Column("panel_session", sa.String(length=64), nullable=True),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["participant_id"], ["participants.participant_id"],
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("participant_id"),
        sa.UniqueConstraint("study_id", "panel_id", name="uq_panel_ids_study_panel_id"),
    )
    op.create_index("ix_panel_ids_panel_id", "panel_ids", ["panel_id"], unique=False)
    op.create_index("ix_events_study_type_at", "events", ["study_id", "type", "at_ms"],
                    unique=False)
    op.drop_index("ix_events_study_type", table_name="events")


def downgrade() -> None:
    op.create_index("ix_events_study_type", "events", ["study_id", "type"], unique=False)
    op.drop_index("ix_events_study_type_at", table_name="events")
    op.drop_index("ix_panel_ids_panel_id", table_name="panel_ids")
    op.drop_table("panel_ids")
