"""The schema is written twice: the store's metadata (what the server's queries use) and the
Alembic migrations (what a database gets).  Alembic's autogenerate compare, on a fresh database
upgraded to head, says where they disagree; any difference fails, save those listed in KNOWN."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, Connection, Integer, MetaData
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from taash.server.store import Store, metadata

# Differences known and waiting for their fix; each one makes the test xfail, not pass.  Fixed,
# its line goes (the test says so when an entry no longer differs).
KNOWN: frozenset[str] = frozenset()


def describe(diff: Any) -> list[str]:
    """One short line per difference: "<operation> <table.column | index | constraint>"."""
    if isinstance(diff, list):  # column changes come as a list of modify_* tuples
        return [f"{d[0]} {d[2]}.{d[3]}" for d in diff]
    op, obj = diff[0], diff[-1]
    if op.endswith("_column"):
        return [f"{op} {diff[2]}.{obj.name}"]
    if op.endswith("_fk") or op.endswith("_constraint") or op.endswith("_index"):
        return [f"{op} {obj.name}"]
    if op.endswith("_table"):
        return [f"{op} {obj.name}"]
    return [repr(diff)]


def differences(url: str, models: MetaData = metadata) -> set[str]:
    """Upgrade a fresh database at ``url`` to head as the server does, then compare it with
    ``models`` (the store's metadata)."""

    def compare(conn: Connection) -> set[str]:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                     "compare_server_default": True})
        return {line for diff in compare_metadata(ctx, models) for line in describe(diff)}

    async def go() -> set[str]:
        store = Store(make_url(url))
        try:
            await store.migrate()
        finally:
            await store.close()
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(compare)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def check(found: set[str]) -> None:
    unknown, fixed = found - KNOWN, KNOWN - found
    assert not unknown, f"the store's metadata and the migrations disagree: {sorted(unknown)}"
    assert not fixed, f"these agree now, remove them from KNOWN: {sorted(fixed)}"
    if found:
        pytest.xfail(f"known differences: {sorted(found)}")


def test_models_match_migrations_on_sqlite(tmp_path: Path) -> None:
    check(differences(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}"))


def test_models_match_migrations_on_postgresql(pg_url: str) -> None:
    check(differences(pg_url))


def copy_of_the_models() -> MetaData:
    models = MetaData()
    for table in metadata.tables.values():
        table.to_metadata(models)
    return models


def test_the_compare_sees_a_difference_and_its_fix(tmp_path: Path) -> None:
    """The check is not blind: a column the migrations never made is reported; and the
    metadata as it is agrees with the migrations entirely."""
    models = copy_of_the_models()
    models.tables["seats"].append_column(Column("not_migrated", Integer, nullable=True))
    found = differences(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", models)
    assert "add_column seats.not_migrated" in found
    assert differences(f"sqlite+aiosqlite:///{tmp_path / 'y.db'}", copy_of_the_models()) == set()
