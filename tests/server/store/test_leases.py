"""Table leases (issue 44): one owner at a time, a fence bumped at each change of hands, and a
write under a lease that has moved on refused by the database itself; on SQLite and on
PostgreSQL, with instances racing for the same table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import select

from taash.server.config import Settings
from taash.server.store.db import Store
from taash.server.store.leases import LeaseLost
from taash.server.store.schema import table_leases

pytestmark = [pytest.mark.postgres]


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path,
                pg_url: str) -> AsyncIterator[Store]:
    db = f"sqlite:///{tmp_path / 'l.db'}" if request.param == "sqlite" else pg_url
    url = Settings(db_url=db).resolved_db_url()
    s = Store(url)
    await s.migrate()
    async with s.engine.begin() as conn:  # the module's PostgreSQL database is shared
        await conn.execute(table_leases.delete())
    yield s
    await s.close()


async def test_one_owner_until_it_expires_then_the_next_under_a_new_fence(store: Store) -> None:
    a = await store.take_lease("t1", "inst-a", ttl=5, now=100.0)
    assert a is not None and a.fence == 1
    assert await store.take_lease("t1", "inst-b", ttl=5, now=101.0) is None  # a holds it
    again = await store.take_lease("t1", "inst-a", ttl=5, now=102.0)  # a asks again: renewed
    assert again is not None and again.fence == 1 and again.expires == 107.0
    renewed = await store.renew_lease(a, ttl=5, now=104.0)
    assert renewed is not None and renewed.expires == 109.0
    b = await store.take_lease("t1", "inst-b", ttl=5, now=110.0)  # a let it run out
    assert b is not None and b.fence == 2
    assert await store.renew_lease(a, ttl=5, now=111.0) is None  # a's lease is gone
    assert await store.take_lease("t1", "inst-a", ttl=5, now=111.0) is None
    await store.give_back_lease(b)  # b stops: the next may take it at once
    c = await store.take_lease("t1", "inst-c", ttl=5, now=112.0)
    assert c is not None and c.fence == 3
    other = await store.take_lease("t2", "inst-a", ttl=5, now=112.0)  # tables apart
    assert other is not None and other.fence == 1


async def test_a_write_under_a_lease_that_moved_on_is_refused_and_kept_nothing(
        store: Store) -> None:
    a = await store.take_lease("t1", "inst-a", ttl=5, now=100.0)
    assert a is not None
    async with store.engine.begin() as conn:  # a's write while it holds the lease: kept
        await store.hold(conn, a)
        await conn.execute(table_leases.insert().values(table_id="w-a", owner="x", fence=0,
                                                        expires=0.0))
    b = await store.take_lease("t1", "inst-b", ttl=5, now=200.0)  # a paused past its lease
    assert b is not None and b.fence == 2
    with pytest.raises(LeaseLost):
        async with store.engine.begin() as conn:  # a wakes and writes: refused, rolled back
            await conn.execute(table_leases.insert().values(table_id="w-late", owner="x",
                                                            fence=0, expires=0.0))
            await store.hold(conn, a)
    async with store.engine.connect() as conn:
        kept = {r.table_id for r in await conn.execute(select(table_leases.c.table_id))}
    assert kept == {"t1", "w-a"}


async def test_instances_racing_for_a_table_give_it_one_owner(store: Store) -> None:
    for round_ in range(3):  # a new table, then the same one expired twice
        now = 100.0 + 100 * round_
        got = await asyncio.gather(*(store.take_lease("race", f"inst-{i}", ttl=5, now=now)
                                     for i in range(8)))
        won = [g for g in got if g is not None]
        assert len(won) == 1, got
        assert won[0].fence == round_ + 1
        held = await store.lease_of("race")
        assert held is not None and held.owner == won[0].owner
