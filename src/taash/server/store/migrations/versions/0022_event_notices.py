"""Events say when their close was told to their entrants (issue 45, docs/events.md):
``events.announced``, set once by the instance that claims the push notices of a closed event.
Events already closed when this runs count as told (nobody waits for those notices).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("announced", sa.Float, nullable=True))
    events = sa.table("events", sa.column("closes", sa.Float), sa.column("closed", sa.Float),
                      sa.column("announced", sa.Float))
    op.execute(events.update().where(sa.or_(events.c.closed.isnot(None),
                                            events.c.closes <= time.time()))
               .values(announced=sa.func.coalesce(events.c.closed, events.c.closes)))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("announced")
