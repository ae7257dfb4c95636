"""Ratings, match history, stats and friends per player: ``ratings`` (openskill's mu and sigma
per game), ``match_results`` (every finished match of a player, the rating after it),
``player_stats`` (taash.stats's counters per game), ``friend_codes``, ``friends`` (asked,
friends, blocked) and ``challenges``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
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
    op.create_index("ix_match_results_table_id", "match_results", ["table_id"])
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("stats", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    op.create_table(
        "friend_codes",
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
    )
    op.create_table(
        "friends",
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("friend_id", sa.String(24), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "friend_id"),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_id", sa.String(24), nullable=False),
        sa.Column("to_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("live", sa.Boolean, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
    )
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("friends")
    op.drop_table("friend_codes")
    op.drop_table("player_stats")
    op.drop_index("ix_match_results_player_ended", "match_results")
    op.drop_table("match_results")
    op.drop_index("ix_ratings_game_mu", "ratings")
    op.drop_table("ratings")
