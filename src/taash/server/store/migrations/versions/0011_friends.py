"""Challenges to several friends and a country per player: ``challenge_invites`` (each invited
friend's seat and answer; the challenges of 0010 get theirs, seat 1), ``challenges.bots`` (the
level of the bots in the seats no friend takes) and ``players.country`` (ISO 3166-1 alpha-2,
shown as a flag on the public profile).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_invites",
        sa.Column("challenge_id", sa.String(24), nullable=False),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.PrimaryKeyConstraint("challenge_id", "player_id"),
    )
    op.create_index("ix_challenge_invites_player_id", "challenge_invites", ["player_id"])
    op.execute(
        "INSERT INTO challenge_invites (challenge_id, player_id, seat, state) "
        "SELECT id, to_id, 1, CASE state WHEN 'accepted' THEN 'accepted' "
        "WHEN 'declined' THEN 'declined' ELSE 'open' END FROM challenges")
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("bots", sa.String(16), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("country", sa.String(2), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("country")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("bots")
    op.drop_index("ix_challenge_invites_player_id", "challenge_invites")
    op.drop_table("challenge_invites")
