"""Fair play's partnerships (issue 48, docs/fairplay.md): what the detector found per pair of
players who sat as partners (``fairplay_pair_scans``), and a case for a partnership
(``fairplay_cases.partner_id``; ``decided_for``: the players its warning or ban applies to).

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fairplay_pair_scans",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("partner_id", sa.String(24), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("judged", sa.Integer, nullable=False),
        sa.Column("opportunities", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "partner_id", "table_id"),
    )
    op.create_index("ix_fairplay_pair_scans_pair_ended", "fairplay_pair_scans",
                    ["player_id", "partner_id", "ended"])
    with op.batch_alter_table("fairplay_cases") as batch:
        batch.add_column(sa.Column("partner_id", sa.String(24), nullable=True))
        batch.add_column(sa.Column("decided_for", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("fairplay_cases") as batch:
        batch.drop_column("decided_for")
        batch.drop_column("partner_id")
    op.drop_index("ix_fairplay_pair_scans_pair_ended", "fairplay_pair_scans")
    op.drop_table("fairplay_pair_scans")
