"""Initial schema: studies, participants, sessions, games, events, responses, experiments.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# Fixed copies of the model types as they were at this revision.
JSON_TYPE = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
ROWID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "studies",
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("rules", JSON_TYPE, nullable=False),
        sa.Column("surveys", JSON_TYPE, nullable=False),
        sa.Column("experiments", JSON_TYPE, nullable=False),
        sa.Column("games_per_tester", sa.Integer(), nullable=False),
        sa.Column("allow_more_games", sa.Boolean(), nullable=False),
        sa.Column("settings", JSON_TYPE, nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("created_at_ms", sa.BigInteger(), nullable=False),
        sa.Column("extra", JSON_TYPE, nullable=True),
        sa.PrimaryKeyConstraint("study_id"),
    )
    op.create_table(
        "participants",
        sa.Column("participant_id", sa.String(length=64), nullable=False),
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("created_at_ms", sa.BigInteger(), nullable=False),
        sa.Column("consented_at_ms", sa.BigInteger(), nullable=True),
        sa.Column("consent", JSON_TYPE, nullable=True),
        sa.Column("stage", sa.String(length=32), nullable=False),
        sa.Column("games_completed", sa.Integer(), nullable=False),
        sa.Column("completion_code", sa.String(length=64), nullable=True),
        sa.Column("attributes", JSON_TYPE, nullable=True),
        sa.Column("extra", JSON_TYPE, nullable=True),
        sa.ForeignKeyConstraint(
            ["study_id"],
            ["studies.study_id"],
        ),
        sa.PrimaryKeyConstraint("participant_id"),
    )
    op.create_index(
        "ix_participants_study_created", "participants", ["study_id", "created_at_ms"], unique=False
    )

    op.create_table(
        "assignments",
        sa.Column("participant_id", sa.String(), nullable=False),
        sa.Column("experiment", sa.String(length=64), nullable=False),
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=64), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("extra", JSON_TYPE, nullable=True),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.participant_id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("participant_id", "experiment"),
    )
    op.create_index(
        "ix_assignments_study_experiment", "assignments", ["study_id", "experiment"], unique=False
    )

    op.create_table(
        "exposures",
        sa.Column("exposure_id", ROWID_TYPE, nullable=False),
        sa.Column("participant_id", sa.String(), nullable=False),
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("experiment", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=64), nullable=False),
        sa.Column("context", JSON_TYPE, nullable=True),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.participant_id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("exposure_id"),
    )
    op.create_index(
        "ix_exposures_participant_experiment",
        "exposures",
        ["participant_id", "experiment"],
        unique=False,
    )

    op.create_table(
        "games",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("participant_id", sa.String(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.Column("rules", JSON_TYPE, nullable=False),
        sa.Column("seats", JSON_TYPE, nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("created_at_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_at_ms", sa.BigInteger(), nullable=True),
        sa.Column("winner", JSON_TYPE, nullable=True),
        sa.Column("reason", sa.String(), nullable=True),
        sa.Column("turns", sa.Integer(), nullable=True),
        sa.Column("action_count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.participant_id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index(
        "ix_games_participant_created", "games", ["participant_id", "created_at_ms"], unique=False
    )

    op.create_table(
        "responses",
        sa.Column("participant_id", sa.String(), nullable=False),
        sa.Column("survey", sa.String(length=64), nullable=False),
        sa.Column("item", sa.String(length=128), nullable=False),
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("survey_version", sa.String(length=32), nullable=False),
        sa.Column("survey_hash", sa.String(length=128), nullable=True),
        sa.Column("phase", sa.String(length=8), nullable=False),
        sa.Column("page_id", sa.String(length=64), nullable=True),
        sa.Column("value", JSON_TYPE, nullable=True),
        sa.Column("seconds_on_page", sa.Float(), nullable=True),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("extra", JSON_TYPE, nullable=True),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.participant_id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("participant_id", "survey", "item"),
    )
    op.create_index("ix_responses_study", "responses", ["study_id", "survey"], unique=False)

    op.create_table(
        "sessions",
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("participant_id", sa.String(), nullable=False),
        sa.Column("started_at_ms", sa.BigInteger(), nullable=False),
        sa.Column("user_agent", sa.String(), nullable=True),
        sa.Column("meta", JSON_TYPE, nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.participant_id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("session_id"),
    )
    op.create_index(
        op.f("ix_sessions_participant_id"), "sessions", ["participant_id"], unique=False
    )

    op.create_table(
        "events",
        sa.Column("event_id", ROWID_TYPE, nullable=False),
        sa.Column("study_id", sa.String(length=64), nullable=False),
        sa.Column("participant_id", sa.String(), nullable=False),
        sa.Column("session_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("props", JSON_TYPE, nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=True),
        sa.Column("client_event_id", sa.String(length=128), nullable=True),
        sa.Column("extra", JSON_TYPE, nullable=True),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.participant_id"], ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.session_id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_id"),
        sa.UniqueConstraint("client_event_id", name="uq_events_client_event_id"),
        sa.UniqueConstraint("session_id", "seq", name="uq_events_session_seq"),
    )
    op.create_index("ix_events_game", "events", ["game_id"], unique=False)
    op.create_index("ix_events_participant", "events", ["participant_id"], unique=False)
    op.create_index("ix_events_study_type", "events", ["study_id", "type"], unique=False)

    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("action", JSON_TYPE, nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "idx"),
    )


def downgrade() -> None:
    op.drop_table("game_actions")
    op.drop_index("ix_events_study_type", table_name="events")
    op.drop_index("ix_events_participant", table_name="events")
    op.drop_index("ix_events_game", table_name="events")

    op.drop_table("events")
    op.drop_index(op.f("ix_sessions_participant_id"), table_name="sessions")

    op.drop_table("sessions")
    op.drop_index("ix_responses_study", table_name="responses")

    op.drop_table("responses")
    op.drop_index("ix_games_participant_created", table_name="games")

    op.drop_table("games")
    op.drop_index("ix_exposures_participant_experiment", table_name="exposures")

    op.drop_table("exposures")
    op.drop_index("ix_assignments_study_experiment", table_name="assignments")

    op.drop_table("assignments")
    op.drop_index("ix_participants_study_created", table_name="participants")

    op.drop_table("participants")
    op.drop_table("studies")
