"""The store's table leases (migration 0015): which server process owns a table, for how long,
and under which fencing number (issue 44, docs/ownership.md).

A lease is a row per table: ``owner`` (an instance id), ``fence`` (bumped each time the table
changes hands, never reused) and ``expires`` (a ``time.time()`` value).  An instance takes a
free or expired lease with a compare-and-set on the fence it read, so of two instances racing
for one table exactly one wins; the owner renews before it expires.  A write made under a lease
checks its fence in the same transaction (``hold``): once another instance has taken the
table, the old owner's writes are refused by the database, not by its own belief that it still
owns the table.  ``Store`` inherits these queries; they share its engine and its one writer on
SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, and_, select, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from taash.server.errors import Moved
from taash.server.store.schema import table_leases

RENEW_CHUNK = 2000  # leases renewed per statement (two parameters each)


class LeaseLost(Moved):
    """A write under a lease another instance has taken since (its fence moved on), or that
    has run out; nothing of the write was kept.  The client is told to ask again (``Moved``):
    the table's new owner answers."""


@dataclass(frozen=True, slots=True)
class Lease:
    table_id: str
    owner: str
    fence: int
    expires: float
    address: str | None = None  # where the owner answers the other instances


class LeaseQueries:
    """Taking, renewing, checking and giving back table leases (a mixin of ``Store``)."""

    engine: AsyncEngine
    #: one owner per table (issue 44): the leases this process holds, by table id; an action
    #: is written only under its table's lease, checked in the commit (None: no owners, every
    #: action is written)
    fencing: dict[str, Lease] | None = None
    #: told the table id of an action refused for its lease (the owner drops its room)
    on_lease_lost: Callable[[str], None] | None = None

    def lease_to_write(self, table_id: str) -> Lease | None:
        """The lease an action of the table is written under (None: no owners); LeaseLost if
        this process does not hold it."""
        if self.fencing is None:
            return None
        lease = self.fencing.get(table_id)
        if lease is None:
            raise LeaseLost(f"table {table_id}: this instance does not own it now")
        return lease

    def lease_lost(self, table_id: str) -> LeaseLost:
        """A commit found the table's lease taken by another instance: the owner here is told
        (it drops the room); the error the action's caller gets."""
        if self.on_lease_lost is not None:
            self.on_lease_lost(table_id)
        return LeaseLost(f"table {table_id}: another instance owns it now")

    def _writing(self) -> AbstractAsyncContextManager[None]:
        raise NotImplementedError  # the Store's: one writer at a time on SQLite

    async def lease_of(self, table_id: str) -> Lease | None:
        """The table's lease as stored (expired or not), or None if it never had one."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(table_leases)
                                    .where(table_leases.c.table_id == table_id))).first()
        return None if r is None else Lease(r.table_id, r.owner, int(r.fence), float(r.expires),
                                            r.address)

    async def take_lease(self, table_id: str, owner: str, ttl: float, now: float,
                         address: str | None = None) -> Lease | None:
        """The table's lease for ``owner`` (answering at ``address``) until ``now + ttl``: new
        (fence 1), taken over from an expired holder (fence + 1), or renewed if ``owner`` holds
        it already (same fence); None while another instance holds it."""
        until = now + ttl
        async with self._writing(), self.engine.begin() as conn:
            r = (await conn.execute(select(table_leases)
                                    .where(table_leases.c.table_id == table_id))).first()
            if r is None:
                try:
                    async with conn.begin_nested():
                        await conn.execute(table_leases.insert().values(
                            table_id=table_id, owner=owner, fence=1, expires=until,
                        address=address))
                except IntegrityError:  # another instance made it first
                    return None
                return Lease(table_id, owner, 1, until, address)
            fence = int(r.fence)
            if r.owner == owner and r.expires >= now:
                new = fence
            elif r.expires < now:
                new = fence + 1
            else:
                return None
            res = await conn.execute(
                update(table_leases)
                .where(and_(table_leases.c.table_id == table_id, table_leases.c.fence == fence,
                            table_leases.c.owner == r.owner))
                .values(owner=owner, fence=new, expires=until, address=address))
            if res.rowcount != 1:  # taken by another in between
                return None
            return Lease(table_id, owner, new, until, address)

    async def renew_lease(self, lease: Lease, ttl: float, now: float) -> Lease | None:
        """The same lease, until ``now + ttl``; None if it has been taken since (an expired
        lease nobody took is still this owner's, under the same fence)."""
        until = now + ttl
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(
                update(table_leases)
                .where(and_(table_leases.c.table_id == lease.table_id,
                            table_leases.c.owner == lease.owner,
                            table_leases.c.fence == lease.fence))
                .values(expires=until))
        if res.rowcount != 1:
            return None
        return Lease(lease.table_id, lease.owner, lease.fence, until, lease.address)

    async def renew_leases(self, owner: str, leases: Collection[Lease], ttl: float,
                           now: float) -> set[str]:
        """Renew all these leases of ``owner`` until ``now + ttl``, in one statement (per
        2,000 leases); the ids of the tables whose lease was still ``owner``'s under the
        same fence (the others were taken since: the caller drops their rooms)."""
        until = now + ttl
        held: set[str] = set()
        todo = list(leases)
        for i in range(0, len(todo), RENEW_CHUNK):
            part = todo[i:i + RENEW_CHUNK]
            # the rows locked first, in table id order, as the group commit locks them: an
            # UPDATE alone locks them in the order it finds them, and the two deadlocked
            # (PostgreSQL broke it after a second, failing a whole batch of actions)
            locked = (select(table_leases.c.table_id)
                      .where(and_(table_leases.c.owner == owner,
                                  tuple_(table_leases.c.table_id, table_leases.c.fence)
                                  .in_([(x.table_id, x.fence) for x in part])))
                      .order_by(table_leases.c.table_id).with_for_update())
            async with self._writing(), self.engine.begin() as conn:
                res = await conn.execute(
                    update(table_leases).where(table_leases.c.table_id.in_(locked))
                    .values(expires=until).returning(table_leases.c.table_id))
                held.update(str(r.table_id) for r in res)
        return held

    async def give_back_lease(self, lease: Lease) -> None:
        """End the lease now (a process stopping): another instance may take the table at
        once, under the next fence."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(
                update(table_leases)
                .where(and_(table_leases.c.table_id == lease.table_id,
                            table_leases.c.owner == lease.owner,
                            table_leases.c.fence == lease.fence))
                .values(expires=0.0))

    def under_lease(self, table_id: str) -> AbstractAsyncContextManager[AsyncConnection]:
        """A transaction for a write of the table's other than an action (its seats, its
        fair-deal seeds, its rematch): with owners, it first checks and locks the table's
        lease (``hold``), so a write made by an instance whose lease moved on is refused by
        the database (LeaseLost, nothing written, the room here dropped), as an action is in
        the group commit."""
        return self._under_lease(table_id)

    @asynccontextmanager
    async def _under_lease(self, table_id: str) -> AsyncIterator[AsyncConnection]:
        lease = self.lease_to_write(table_id)
        async with self._writing(), self.engine.begin() as conn:
            if lease is not None:
                try:
                    await self.hold(conn, lease)
                except LeaseLost:
                    raise self.lease_lost(table_id) from None
            yield conn

    @staticmethod
    async def hold(conn: AsyncConnection, lease: Lease) -> None:
        """Inside a write's transaction: the lease is still this owner's, under its fence, or
        LeaseLost (and the caller's transaction rolls back).  The check locks the lease's row
        until the write commits, so a takeover waits for it and the write lands before the
        table changes hands, never after."""
        res = await conn.execute(
            update(table_leases)
            .where(and_(table_leases.c.table_id == lease.table_id,
                        table_leases.c.owner == lease.owner,
                        table_leases.c.fence == lease.fence))
            .values(fence=table_leases.c.fence))
        if res.rowcount != 1:
            raise LeaseLost(f"table {lease.table_id}: the lease under fence {lease.fence} "
                            "is no longer this instance's")


def held_in_batch(conn: Connection, leases: Collection[Lease]) -> set[str]:
    """Inside a group commit's transaction (synchronous, ``run_sync``): the tables of these
    leases that are still their owner's under the same fence, their rows locked (in table id
    order, so two writers never deadlock) until the commit; one round trip for the batch."""
    if not leases:
        return set()
    want = {x.table_id: (x.owner, x.fence) for x in leases}
    rows = conn.execute(
        select(table_leases.c.table_id, table_leases.c.owner, table_leases.c.fence)
        .where(table_leases.c.table_id.in_(sorted(want)))
        .order_by(table_leases.c.table_id).with_for_update())
    return {str(r.table_id) for r in rows if want.get(str(r.table_id)) == (r.owner, r.fence)}
