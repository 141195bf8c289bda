"""Designer sign-in: attempts (a rate limit every app process shares) and app secrets.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

ROWID_TYPE = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sign_in_attempts",
        sa.Column("attempt_id", ROWID_TYPE, nullable=False),
        sa.Column("client", sa.String(length=128), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("attempt_id"),
    )
    op.create_index("ix_sign_in_attempts_client", "sign_in_attempts", ["client"])
    op.create_index("ix_sign_in_attempts_at_ms", "sign_in_attempts", ["at_ms"])
    op.create_table(
        "app_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=256), nullable=False),
        sa.Column("created_at_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("app_secrets")
    op.drop_index("ix_sign_in_attempts_at_ms", table_name="sign_in_attempts")
    op.drop_index("ix_sign_in_attempts_client", table_name="sign_in_attempts")
    op.drop_table("sign_in_attempts")
