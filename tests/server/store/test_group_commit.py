"""The group commit's rules on both writers (SQLite's thread, PostgreSQL's own asyncpg
connection): each action checked on its own in a batch, several versions of one table in one
batch, a client id used twice, a lease taken since, and on PostgreSQL a writer's connection
killed under it (the next batch connects anew)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio
from sqlalchemy import select

from taash.server.config import Settings
from taash.server.store.db import SeatRow, Store, TableRow, VersionConflict
from taash.server.store.leases import LeaseLost
from taash.server.store.outage import unreachable
from taash.server.store.pg_writer import dsn_of
from taash.server.store.schema import game_tables, table_leases

pytestmark = [pytest.mark.postgres]


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path,
                pg_url: str) -> AsyncIterator[Store]:
    db = f"sqlite:///{tmp_path / 'g.db'}" if request.param == "sqlite" else pg_url
    s = Store(Settings(db_url=db).resolved_db_url())
    await s.migrate()
    async with s.engine.begin() as conn:  # the module's PostgreSQL database is shared
        await conn.execute(table_leases.delete())
    yield s
    await s.close()


async def tables(store: Store, *ids: str) -> None:
    for tid in ids:
        await store.create_table(TableRow(
            id=tid, game="goat", options={}, seed=1, first_seat=0, live=False, open=False,
            bot_delay_ms=0, turn_timer_s=None, created=0, updated=0,
            seats=[SeatRow(s, "human") for s in range(4)]))


async def versions(store: Store, tid: str) -> tuple[int, list[tuple[int, str | None]], bool]:
    """The table's version and over flag as its row has them, and its stored actions."""
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(game_tables.c.version, game_tables.c.over,
                                         game_tables.c.to_move)
                                  .where(game_tables.c.id == tid))).one()
    rows = await store.load_actions(tid)
    return row.version, [(r.version, r.client_id) for r in rows], row.over


async def test_each_action_in_a_batch_is_checked_on_its_own(store: Store) -> None:
    await tables(store, "ga", "gb", "gc")
    out = await asyncio.gather(
        store.append_action("ga", 0, 1, "lead:6S", "x1", [], 2, False),
        store.append_action("ga", 0, 2, "lead:7S", "x2", [], 3, False),  # same version: lost
        store.append_action("gb", 0, 1, "lead:8S", "y1", [], 2, False),
        store.append_action("gb", 1, 2, "beat:9S", "y2", [], 3, False),  # the next version
        store.append_action("gc", 0, 1, "lead:6H", None, [], None, True),
        return_exceptions=True)
    assert [type(x).__name__ for x in out] == ["float", "VersionConflict", "float", "float",
                                               "float"]
    assert await versions(store, "ga") == (1, [(1, "x1")], False)
    # two versions of one table in one batch: both stored, the row bumped to the last
    assert await versions(store, "gb") == (2, [(1, "y1"), (2, "y2")], False)
    assert await versions(store, "gc") == (1, [(1, None)], True)


async def test_a_client_id_used_twice_fails_alone(store: Store) -> None:
    await tables(store, "da", "db")
    await store.append_action("da", 0, 1, "lead:6S", "same", [], 2, False)
    out = await asyncio.gather(
        store.append_action("da", 1, 1, "lead:7S", "same", [], 2, False),
        store.append_action("db", 0, 1, "lead:8S", "other", [], 2, False),
        return_exceptions=True)
    assert isinstance(out[0], VersionConflict) and isinstance(out[1], float)
    assert await versions(store, "da") == (1, [(1, "same")], False)
    assert await versions(store, "db") == (1, [(1, "other")], False)


async def test_an_action_under_a_lease_taken_since_is_refused(store: Store) -> None:
    await tables(store, "la", "lb")
    mine = await store.take_lease("la", "inst-a", ttl=5, now=100.0)
    other = await store.take_lease("lb", "inst-a", ttl=5, now=100.0)
    assert mine is not None and other is not None
    store.fencing = {"la": mine, "lb": other}
    assert await store.take_lease("la", "inst-b", ttl=5, now=200.0) is not None  # moved on
    out = await asyncio.gather(
        store.append_action("la", 0, 1, "lead:6S", "l1", [], 2, False),
        store.append_action("lb", 0, 1, "lead:7S", "l2", [], 2, False),
        return_exceptions=True)
    assert isinstance(out[0], LeaseLost) and isinstance(out[1], float)
    assert await versions(store, "la") == (0, [], False)
    assert await versions(store, "lb") == (1, [(1, "l2")], False)


async def test_the_postgresql_writer_connects_anew_after_its_connection_dies(
        pg_url: str) -> None:
    store = Store(Settings(db_url=pg_url).resolved_db_url())
    await store.migrate()
    try:
        await tables(store, "ka")
        await store.append_action("ka", 0, 1, "lead:6S", "k1", [], 2, False)
        writer = store._pg_writer
        assert writer is not None and writer.conn is not None
        pid = writer.conn.get_server_pid()
        admin = await asyncpg.connect(dsn_of(store.url))
        try:  # the server ends the writer's connection, as a restart or a failover would
            await admin.execute("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        try:
            await store.append_action("ka", 1, 1, "lead:7S", "k2", [], 2, False)
        except Exception as e:  # the batch that met the dead connection: "try again"
            assert unreachable(e), repr(e)
            await store.append_action("ka", 1, 1, "lead:7S", "k2", [], 2, False)
        assert writer.conn is not None and writer.conn.get_server_pid() != pid
        assert await versions(store, "ka") == (2, [(1, "k1"), (2, "k2")], False)
    finally:
        await store.close()


async def test_renewing_leases_while_a_batch_holds_one_never_deadlocks(pg_url: str) -> None:
    """The leases' renewal and the group commit both lock lease rows, so they must lock them
    in the same (table id) order.  Made to happen: a batch's transaction holds the lease of
    "ka" and the renewal starts; the batch then locks "kz".  An UPDATE alone locked the rows
    in the order it found them ("kz", lying first, then a wait for "ka"): a deadlock, broken by
    PostgreSQL after a second by failing one side (seen at 1,000 live tables as batches of
    actions waiting 1-2.5 s)."""
    store = Store(Settings(db_url=pg_url).resolved_db_url())
    await store.migrate()
    admin = await asyncpg.connect(dsn_of(store.url))
    batch = await asyncpg.connect(dsn_of(store.url))
    try:
        async with store.engine.begin() as conn:
            await conn.execute(table_leases.delete())
        leases = [await store.take_lease(t, "inst-a", ttl=60, now=100.0) for t in ("kz", "ka")]
        assert all(x is not None for x in leases)
        tx = batch.transaction()
        await tx.start()
        await batch.fetch("SELECT 1 FROM table_leases WHERE table_id = 'ka' FOR UPDATE")
        renewal = asyncio.create_task(store.renew_leases("inst-a", leases, 60, 101.0))

        async def renewal_waits() -> bool:
            n = await admin.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'")
            return bool(n)

        for _ in range(200):
            if await renewal_waits() or renewal.done():
                break
            await asyncio.sleep(0.02)
        assert not renewal.done()  # it waits for the batch's "ka"
        # the batch goes on in id order: "kz" next, then commits
        await batch.fetch("SELECT 1 FROM table_leases WHERE table_id = 'kz' FOR UPDATE")
        await tx.commit()
        assert await asyncio.wait_for(renewal, 10) == {"ka", "kz"}
    finally:
        await batch.close()
        await admin.close()
        await store.close()


async def test_a_batch_of_one_action_a_table_loses_to_a_version_moved_on(store: Store) -> None:
    """The usual batch (each table once), written on PostgreSQL in one statement."""
    await tables(store, "va", "vb")
    await store.append_action("va", 0, 1, "lead:6S", "v1", [], 2, False)
    out = await asyncio.gather(
        store.append_action("va", 0, 2, "lead:7S", "v2", [], 3, False),  # 0 is taken
        store.append_action("vb", 0, 1, "lead:8S", "v3", [], 2, False),
        return_exceptions=True)
    assert isinstance(out[0], VersionConflict) and isinstance(out[1], float)
    assert await versions(store, "va") == (1, [(1, "v1")], False)
    assert await versions(store, "vb") == (1, [(1, "v3")], False)


async def waits_for_a_lock(admin: asyncpg.Connection, task: asyncio.Task[object]) -> None:
    for _ in range(250):
        n = await admin.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'")
        if n or task.done():
            break
        await asyncio.sleep(0.02)
    assert not task.done(), "the batch did not wait for the other transaction's lock"


async def test_a_takeover_committed_while_the_batch_waits_wins(pg_url: str) -> None:
    """The batch's statement waits for the lease row that a takeover holds; once the takeover
    commits, the batch reads the row again at its new owner and fence, and writes nothing: a
    stale fence is refused by the database, even mid-statement."""
    store = Store(Settings(db_url=pg_url).resolved_db_url())
    await store.migrate()
    admin = await asyncpg.connect(dsn_of(store.url))
    other = await asyncpg.connect(dsn_of(store.url))
    try:
        async with store.engine.begin() as conn:
            await conn.execute(table_leases.delete())
        await tables(store, "ta")
        lease = await store.take_lease("ta", "inst-a", ttl=60, now=100.0)
        assert lease is not None
        store.fencing = {"ta": lease}
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE table_leases SET owner = 'inst-b', fence = fence + 1 "
                            "WHERE table_id = 'ta'")
        task = asyncio.ensure_future(store.append_action("ta", 0, 1, "lead:6S", "t1", [], 2,
                                                         False))
        await waits_for_a_lock(admin, task)
        await tx.commit()
        with pytest.raises(LeaseLost):
            await asyncio.wait_for(task, 10)
        assert await versions(store, "ta") == (0, [], False)
    finally:
        await other.close()
        await admin.close()
        await store.close()


async def test_a_version_committed_while_the_batch_waits_wins(pg_url: str) -> None:
    """Without owners: another writer holds the table's row and bumps it; the batch waits,
    reads the row again, and its action loses (VersionConflict), nothing inserted."""
    store = Store(Settings(db_url=pg_url).resolved_db_url())
    await store.migrate()
    admin = await asyncpg.connect(dsn_of(store.url))
    other = await asyncpg.connect(dsn_of(store.url))
    try:
        await tables(store, "wa")
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE game_tables SET version = 1 WHERE id = 'wa'")
        task = asyncio.ensure_future(store.append_action("wa", 0, 1, "lead:6S", "w1", [], 2,
                                                         False))
        await waits_for_a_lock(admin, task)
        await tx.commit()
        with pytest.raises(VersionConflict):
            await asyncio.wait_for(task, 10)
        assert await versions(store, "wa") == (1, [], False)
    finally:
        await other.close()
        await admin.close()
        await store.close()
