"""Web Push: the server's VAPID key pair, the browsers' push subscriptions (per seat or per
player, with quiet hours and an off switch) and the seats that muted push at a table.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vapid_keys",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("private_key", sa.String(64), nullable=False),  # raw P-256 key, base64url
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("scope", sa.String(64), nullable=False),  # "t:TABLE:SEAT" or "p:PLAYER"
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False),  # sha256: a short key
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("player_id", sa.String(24), nullable=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("off", sa.Boolean, nullable=False),
        sa.Column("quiet_from", sa.Integer, nullable=True),  # minutes of the day, local time
        sa.Column("quiet_to", sa.Integer, nullable=True),
        sa.Column("tz_offset", sa.Integer, nullable=False),  # minutes east of UTC
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("endpoint_hash", "scope", name="uq_push_endpoint_scope"),
    )
    op.create_index("ix_push_subscriptions_seat", "push_subscriptions", ["table_id", "seat"])
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_mutes",
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("push_mutes")
    op.drop_index("ix_push_subscriptions_player_id", "push_subscriptions")
    op.drop_index("ix_push_subscriptions_seat", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("vapid_keys")
