"""An index on ``responses (study_id, participant_id, at_ms)``: the dashboard reads each
tester's answer count and latest answer time (the snapshot's change marks,
``playtest.study_snapshot.participant_marks``) and the study's (its cache fingerprint,
``repository.study_fingerprint``, asked on every designer page view). With only
``(study_id, survey)`` both visited every answer row of the study and the per-tester one
sorted them too; the covering index serves both from the index alone, in tester order.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ix_responses_study_participant_at"


def upgrade() -> None:
    op.create_index(NAME, "responses", ["study_id", "participant_id", "at_ms"])


def downgrade() -> None:
    op.drop_index(NAME, table_name="responses")
