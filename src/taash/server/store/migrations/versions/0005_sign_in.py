"""Ways to keep a player: passkeys, a confirmed e-mail address and its one-time sign-in links,
and personal API tokens.  Every secret (link, token) is kept only as its sha256.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        # the confirmed address (lower-cased); None until a confirmation link is opened
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.create_index("ix_players_email", ["email"], unique=True)
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),  # base64url
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),  # base64url COSE key
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "email_links",
        sa.Column("link_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),  # "confirm" or "sign_in"
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("player_id", sa.String(24), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("ix_email_links_email", "email_links", ["email"])
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("player_id", sa.String(24), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(64), nullable=False),  # space-separated: play read
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
        sa.Column("revoked", sa.Float, nullable=True),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player_id", "api_tokens")
    op.drop_table("api_tokens")
    op.drop_index("ix_email_links_email", "email_links")
    op.drop_table("email_links")
    op.drop_index("ix_passkeys_player_id", "passkeys")
    op.drop_table("passkeys")
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_email")
        batch.drop_column("email")
