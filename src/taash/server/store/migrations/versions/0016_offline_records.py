"""Offline records: matches played offline and uploaded by a player (``offline_records``;
issue 46), each once per player, keyed by the SHA-256 of the record's canonical JSON.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_records",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("uploaded", sa.Float, nullable=False),
        sa.UniqueConstraint("player_id", "digest", name="uq_offline_records_player_digest"),
    )


def downgrade() -> None:
    op.drop_table("offline_records")
