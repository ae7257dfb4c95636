"""Table leases: which instance owns a table, until when, under which fencing number
(``table_leases``; issue 44, docs/ownership.md).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("fence", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
