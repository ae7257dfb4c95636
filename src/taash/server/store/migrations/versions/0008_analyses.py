"""Deal analyses kept with the table, so a second look at a finished deal's analysis is instant.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        # sha256 of the record up to the deal and the analysis settings: the same deal of the
        # same record (a table's, or one pasted in) is analysed once
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(24), nullable=True),  # None: a record pasted in
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("analysis", sa.Text, nullable=False),  # JSON
    )
    op.create_index("ix_analyses_table_id", "analyses", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_analyses_table_id", table_name="analyses")
    op.drop_table("analyses")
