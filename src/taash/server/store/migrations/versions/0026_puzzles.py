"""Puzzles on the server (issue 49, docs/puzzles.md "On the server"): a player's puzzle rating
per game (``puzzle_players``), a puzzle's rating once tried (``puzzle_ratings``), each
player's first attempt at a puzzle (``puzzle_attempts``) and the streak being played
(``puzzle_streaks``).

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_players",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("puzzle_id"),
    )
    op.create_index("ix_puzzle_ratings_game", "puzzle_ratings", ["game"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("puzzle_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("player_before", sa.Float, nullable=True),
        sa.Column("player_after", sa.Float, nullable=True),
        sa.Column("puzzle_before", sa.Float, nullable=True),
        sa.Column("puzzle_after", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("player_id", "puzzle_id"),
    )
    op.create_index("ix_puzzle_attempts_player_at", "puzzle_attempts", ["player_id", "at"])
    op.create_table(
        "puzzle_streaks",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("run", sa.Integer, nullable=False),
        sa.Column("puzzle_id", sa.String(32), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player_id"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_streaks")
    op.drop_index("ix_puzzle_attempts_player_at", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzle_ratings_game", "puzzle_ratings")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_players")
