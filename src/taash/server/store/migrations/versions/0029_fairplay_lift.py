"""Fair play, the server's missing pieces (issue 48, docs/fairplay.md): a queued match claimed
by one instance at a time (``fairplay_queue.claimed_by`` and ``claimed_until``, a lease), bans
lifted by a moderator (``fairplay_lifts``: who, when, why) and the notices a warned or banned
player is told once (``fairplay_notices``).

Revision ID: 0029
Revises: 0025
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("fairplay_queue") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(24), nullable=True))
        batch.add_column(sa.Column("claimed_until", sa.Float, nullable=True))
    op.create_table(
        "fairplay_lifts",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("case_id", sa.String(24), nullable=False),
        sa.Column("banned", sa.Float, nullable=False),
        sa.Column("banned_by", sa.String(24), nullable=False),
        sa.Column("lifted", sa.Float, nullable=False),
        sa.Column("lifted_by", sa.String(24), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_index("ix_fairplay_lifts_case_id", "fairplay_lifts", ["case_id"])
    op.create_table(
        "fairplay_notices",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=True),
    )
    op.create_index("ix_fairplay_notices_player_id", "fairplay_notices", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_fairplay_notices_player_id", "fairplay_notices")
    op.drop_table("fairplay_notices")
    op.drop_index("ix_fairplay_lifts_case_id", "fairplay_lifts")
    op.drop_table("fairplay_lifts")
    with op.batch_alter_table("fairplay_queue") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("claimed_by")
