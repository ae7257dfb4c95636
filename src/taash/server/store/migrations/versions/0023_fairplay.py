"""Fair play (issue 48, docs/fairplay.md): ``player_roles`` (a moderator), ``fairplay_queue``
(finished matches waiting for the detector), ``fairplay_scans`` (what it found per player and
match), ``fairplay_cases`` (the moderators' review queue and decisions) and ``fairplay_bans``
(players banned from rated play).

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_roles",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("granted", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "role"),
    )
    op.create_table(
        "fairplay_queue",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
    )
    op.create_index("ix_fairplay_queue_ended", "fairplay_queue", ["ended"])
    op.create_table(
        "fairplay_scans",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("judged", sa.Integer, nullable=False),
        sa.Column("opportunities", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "table_id"),
    )
    op.create_index("ix_fairplay_scans_player_ended", "fairplay_scans", ["player_id", "ended"])
    op.create_table(
        "fairplay_cases",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("opened", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("p_value", sa.Float, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("evidence", sa.Text, nullable=False),
        sa.Column("decided", sa.Float, nullable=True),
        sa.Column("decided_by", sa.String(24), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
    )
    op.create_index("ix_fairplay_cases_status_opened", "fairplay_cases", ["status", "opened"])
    op.create_index("ix_fairplay_cases_player_id", "fairplay_cases", ["player_id"])
    op.create_table(
        "fairplay_bans",
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("case_id", sa.String(24), nullable=False),
        sa.Column("banned", sa.Float, nullable=False),
        sa.Column("by", sa.String(24), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("fairplay_bans")
    op.drop_index("ix_fairplay_cases_player_id", "fairplay_cases")
    op.drop_index("ix_fairplay_cases_status_opened", "fairplay_cases")
    op.drop_table("fairplay_cases")
    op.drop_index("ix_fairplay_scans_player_ended", "fairplay_scans")
    op.drop_table("fairplay_scans")
    op.drop_index("ix_fairplay_queue_ended", "fairplay_queue")
    op.drop_table("fairplay_queue")
    op.drop_table("player_roles")
