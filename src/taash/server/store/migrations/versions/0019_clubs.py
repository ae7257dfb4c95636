"""Clubs (issue 47, docs/clubs.md): ``clubs`` (each with its invite link's token),
``club_members`` (one role each), ``club_invites`` (players invited by name), and the tables and
duplicate events made for a club (``club_tables``, ``club_events``).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(32), nullable=False),
        sa.Column("owner", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
    )
    op.create_index("ix_clubs_name_key", "clubs", ["name_key"])
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_index("ix_club_members_player_id", "club_members", ["player_id"])
    op.create_table(
        "club_invites",
        sa.Column("club_id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("by", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_club_invites_player_id", "club_invites", ["player_id"])
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("club_id", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_club_tables_club_id", "club_tables", ["club_id", "created"])
    op.create_table(
        "club_events",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("club_id", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_club_events_club_id", "club_events", ["club_id", "created"])


def downgrade() -> None:
    op.drop_index("ix_club_events_club_id", "club_events")
    op.drop_table("club_events")
    op.drop_index("ix_club_tables_club_id", "club_tables")
    op.drop_table("club_tables")
    op.drop_index("ix_club_invites_player_id", "club_invites")
    op.drop_table("club_invites")
    op.drop_index("ix_club_members_player_id", "club_members")
    op.drop_table("club_members")
    op.drop_index("ix_clubs_name_key", "clubs")
    op.drop_table("clubs")
