"""Alembic environment: run on the connection the server hands over (see store._upgrade)."""

from __future__ import annotations

from alembic import context

from taash.server.store.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the server runs these migrations
    raise RuntimeError("taash migrations run through `taash serve`, which applies them at start")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
