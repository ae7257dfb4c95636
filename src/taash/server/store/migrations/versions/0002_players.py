"""Players and their sessions; a seat may belong to a player, who may have claimed it with an
invite token (then spent).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("revoked", sa.Float, nullable=True),
        sa.Column("user_agent", sa.String(300), nullable=True),
        sa.UniqueConstraint("secret_hash"),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    # every existing seat keeps its token and belongs to no player
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(24), nullable=True))
        batch.add_column(sa.Column("spent_hash", sa.String(64), nullable=True))
        batch.create_index("ix_seats_player_id", ["player_id"])
        batch.create_index("ix_seats_spent_hash", ["spent_hash"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_spent_hash")
        batch.drop_index("ix_seats_player_id")
        batch.drop_column("spent_hash")
        batch.drop_column("player_id")
    op.drop_index("ix_sessions_player_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("players")
