"""An account's deletion finished (``players.forgotten``): ``DELETE /api/me`` removes the
sessions, tokens and seats' links in one commit, then the player's puzzles, memberships,
entries, ratings, friends and offline records in others; a process stopped between them left
those rows behind for good.  The deletion now marks the player ``forgotten`` once all of it is
done, and the hourly sweep finishes any deleted player not so marked — the accounts deleted
before this revision included, whose puzzle and club rows were never removed.

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("forgotten", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("forgotten")
