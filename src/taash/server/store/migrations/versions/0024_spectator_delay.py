"""How far behind spectators see a table: ``game_tables.spectator_delay`` (none, trick, deal or
hidden; issue 47, docs/spectators.md).  Tables made before it keep ``none`` (as they were
watched).

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("spectator_delay", sa.String(8), nullable=False,
                                   server_default="none"))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("spectator_delay")
