"""Puzzles mined from the server's finished deals (issue 49, docs/puzzles.md "Mined on the
server"): ``players.puzzle_consent`` (the player's "my finished deals may become puzzles", off
for everyone until they turn it on), ``mined_puzzles`` (the puzzles found), ``mining_queue``
(finished matches waiting for the miner) and ``mining_left`` (tables a person left to a bot
before the match ended: not mined).

Revision ID: 0027
Revises: 0025 (to be chained after 0026_puzzles where both are merged)
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("puzzle_consent", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "mined_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("puzzle", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_mined_puzzles_game_created", "mined_puzzles", ["game", "created"])
    op.create_table(
        "mining_queue",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
    )
    op.create_index("ix_mining_queue_ended", "mining_queue", ["ended"])
    op.create_table(
        "mining_left",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("left", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mining_left")
    op.drop_index("ix_mining_queue_ended", "mining_queue")
    op.drop_table("mining_queue")
    op.drop_index("ix_mined_puzzles_game_created", "mined_puzzles")
    op.drop_table("mined_puzzles")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("puzzle_consent")
