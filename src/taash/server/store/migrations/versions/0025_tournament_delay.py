"""A tournament's spectator delay (issue 47: the organiser's choice of how far behind
spectators see its tables): ``tournaments.spectator_delay``, ``deal`` for the tournaments made
before it.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("spectator_delay", sa.String(8), nullable=False,
                                   server_default="deal"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("spectator_delay")
