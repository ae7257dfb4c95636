"""Ratings, match history and stats per player: ``ratings`` (openskill's mu and sigma per
game), ``match_results`` (every finished match of a player, the rating after it) and
``player_stats`` (taash.stats's counters per game).

Revision ID: 0008
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"  # the lead puts it after 0006/0007 at merge if those exist by then
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.create_table(
        "match_results",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("result", sa.Integer, nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("player_id", "table_id"),
    )
    op.create_index("ix_match_results_player_ended", "match_results", ["player_id", "ended"])
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("stats", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )


def downgrade() -> None:
    op.drop_table("player_stats")
    op.drop_index("ix_match_results_player_ended", "match_results")
    op.drop_table("match_results")
    op.drop_index("ix_ratings_game_mu", "ratings")
    op.drop_table("ratings")
