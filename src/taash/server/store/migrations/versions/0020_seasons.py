"""Seasons (issue 47, docs/social.md "Seasons"): ``season_podiums`` keeps each closed
season's top three per game, ``seasons_closed`` which seasons were closed, and an index on
``match_results (game, ended)`` for a season's standings.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "season_podiums",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("season", sa.String(7), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game", "season", "rank"),
    )
    op.create_index("ix_season_podiums_player_id", "season_podiums", ["player_id"])
    op.create_table(
        "seasons_closed",
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("season", sa.String(7), nullable=False),
        sa.Column("closed", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game", "season"),
    )
    op.create_index("ix_match_results_game_ended", "match_results", ["game", "ended"])


def downgrade() -> None:
    op.drop_index("ix_match_results_game_ended", "match_results")
    op.drop_table("seasons_closed")
    op.drop_index("ix_season_podiums_player_id", "season_podiums")
    op.drop_table("season_podiums")
