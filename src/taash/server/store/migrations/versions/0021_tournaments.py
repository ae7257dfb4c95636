"""Tournaments (issue 47, docs/tournaments.md): ``tournaments`` (Swiss or arena),
``tournament_entrants`` (players, pairs of partners, bots) and ``tournament_games`` (each
round's pairings, their tables and results).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("turn_timer_s", sa.Float, nullable=False),
        sa.Column("organiser", sa.String(24), nullable=False),
        sa.Column("club_id", sa.String(24), nullable=True),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("ended", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_club_id", "tournaments", ["club_id"])
    op.create_index("ix_tournaments_state", "tournaments", ["state", "starts"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(24), primary_key=True),
        sa.Column("seed", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(24), nullable=True),
        sa.Column("partner_id", sa.String(24), nullable=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("name", sa.String(140), nullable=False),
        sa.Column("registered", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entrants_player"),
    )
    op.create_index("ix_tournament_entrants_player_id", "tournament_entrants", ["player_id"])
    op.create_index("ix_tournament_entrants_partner_id", "tournament_entrants",
                    ["partner_id"])
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(24), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("a", sa.Integer, nullable=False),
        sa.Column("b", sa.Integer, nullable=True),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("result", sa.Integer, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_tournament_games_table_id", "tournament_games", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_table_id", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_entrants_partner_id", "tournament_entrants")
    op.drop_index("ix_tournament_entrants_player_id", "tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_state", "tournaments")
    op.drop_index("ix_tournaments_club_id", "tournaments")
    op.drop_table("tournaments")
