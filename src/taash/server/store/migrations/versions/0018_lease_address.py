"""Table leases say where their owner is: the address the other instances forward a table's
requests to (issue 44, docs/ownership.md).

Revision ID: 0018
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_leases") as batch:
        batch.add_column(sa.Column("address", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_leases") as batch:
        batch.drop_column("address")
