"""Fair deals (taash-shuffle/1): each deal's server secret and the seats' seeds.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fair_deals",
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("seeds", sa.Text, nullable=False),
        sa.Column("dealt", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "deal"),
    )


def downgrade() -> None:
    op.drop_table("fair_deals")
