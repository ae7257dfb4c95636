"""What signing in keeps between two requests: the WebAuthn challenges handed out (each works
once, for a few minutes, whichever instance checks it) and, on a session made by signing in,
the guest it replaced, until the player says whether that guest's tables come along.

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webauthn_challenges",
        sa.Column("challenge_hash", sa.String(64), primary_key=True),  # sha256 of the bytes
        sa.Column("purpose", sa.String(16), nullable=False),  # "register" or "sign_in"
        sa.Column("player_id", sa.String(24), nullable=True),  # who registers
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("guest_id", sa.String(24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("guest_id")
    op.drop_table("webauthn_challenges")
