"""Tables, seats and actions.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("first_seat", sa.Integer, nullable=False),
        sa.Column("live", sa.Boolean, nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("bot_delay_ms", sa.Integer, nullable=False),
        sa.Column("turn_timer_s", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("to_move", sa.Integer, nullable=True),
        sa.Column("rematch_id", sa.String(24), nullable=True),
        sa.Column("rematch_of", sa.String(24), nullable=True),
    )
    op.create_index("ix_game_tables_open", "game_tables", ["open", "over"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("type", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean, nullable=False),
        sa.Column("webhook", sa.Text, nullable=True),
        sa.Column("email", sa.Text, nullable=True),
        sa.Column("notified_version", sa.Integer, nullable=False),
        sa.Column("reminded_version", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("client_id", sa.String(80), nullable=True),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "version"),
        sa.UniqueConstraint("table_id", "seat", "client_id", name="uq_actions_client_id"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_seats_token_hash", "seats")
    op.drop_table("seats")
    op.drop_index("ix_game_tables_open", "game_tables")
    op.drop_table("game_tables")
