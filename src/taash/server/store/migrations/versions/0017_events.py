"""Duplicate events: ``events`` (each with its one secret), ``event_entries`` (one per player)
and ``event_boards`` (an entrant's play of a board; issue 45, docs/events.md).

Revision ID: 0017
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("boards", sa.Integer, nullable=False),
        sa.Column("opens", sa.Float, nullable=False),
        sa.Column("closes", sa.Float, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("host", sa.String(24), nullable=True),
        sa.Column("daily", sa.Boolean, nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_events_closes", "events", ["closes"])
    op.create_table(
        "event_entries",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("entered", sa.Float, nullable=False),
    )
    op.create_index("ix_event_entries_player_id", "event_entries", ["player_id"])
    op.create_table(
        "event_boards",
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("actions", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("last_id", sa.String(64), nullable=True),
        sa.Column("done", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("event_boards")
    op.drop_index("ix_event_entries_player_id", "event_entries")
    op.drop_table("event_entries")
    op.drop_index("ix_events_closes", "events")
    op.drop_table("events")
