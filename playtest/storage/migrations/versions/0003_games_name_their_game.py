"""Games name their game: ``games.game`` (the registry's name; rows from before the lab
had more than one game are Vapoosh! games, the only game there was).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Every game stored before this revision (frozen here: migrations are history).
FIRST_GAME = "vapoosh"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game", sa.String(length=40), nullable=False,
                                   server_default=FIRST_GAME))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("game")
