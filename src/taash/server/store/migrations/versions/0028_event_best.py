"""Events' best results (issue 45, docs/events.md): ``event_best``, a board's best result from
the first card once per board and trump call, computed once among the instances (the row is
the claim) and kept.

Revision ID: 0028
Revises: 0025
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_best",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("opening", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("lease", sa.Float, nullable=False),
        sa.Column("budget", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("done", sa.Float, nullable=True),
        sa.Column("lower", sa.Integer, nullable=True),
        sa.Column("upper", sa.Integer, nullable=True),
        sa.Column("proven", sa.Boolean, nullable=True),
        sa.Column("solver", sa.String(8), nullable=True),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("nodes", sa.Integer, nullable=True),
        sa.Column("most", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("event_best")
