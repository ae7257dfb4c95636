"""One owner per table (issue 44, docs/ownership.md): the table leases this process holds.

With several instances (a shared bus), a process plays a table only while it holds the table's
lease in the store: it takes it before it loads the table's room, renews all its leases in one
statement every ``lease_renew_s``, writes each action under it (the store's group commit
checks the fence in the action's transaction) and gives them back when it stops or drops a
room.  A lease found taken by another instance (at a renewal, or by the database at a commit)
drops the room here: its live connections close, and the clients, reconnecting, reach the
owner.  With one instance there is nobody to share with and no lease is taken.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from taash.server.errors import Moved
from taash.server.store.db import Store
from taash.server.store.leases import Lease

if TYPE_CHECKING:
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")


class Owners:
    """The leases of one process, by table id (the store's ``fencing`` when on)."""

    def __init__(self, store: Store, instance: str, lease_s: float, renew_s: float) -> None:
        self.store = store
        self.instance = instance
        self.lease_s = lease_s
        self.renew_s = renew_s
        self.leases: dict[str, Lease] = {}
        #: where the other instances reach this one (the forwarded requests): set by
        #: ``taash serve`` from --instance-url or the address it listens on
        self.address: str | None = None
        #: the other instances' leases as last read, by table id (where to forward)
        self.seen: dict[str, Lease] = {}
        self.on = False
        self.closing = False
        #: told each request passed on to another instance ("http" or "websocket")
        self.forwarded: Callable[[str], None] = lambda kind: None
        #: told the id of a table whose lease this process lost (its room is dropped)
        self.lost: Callable[[str], None] = lambda table_id: None
        #: whether this process holds (or is loading) the table's room: a lease without one
        #: (its load failed) is given back at the next renewal, not renewed forever
        self.holds: Callable[[str], bool] = lambda table_id: True
        self._renewer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Own tables from now on: every action is written under its table's lease."""
        self.on = True
        self.store.fencing = self.leases
        self.store.on_lease_lost = self.drop
        self._renewer = asyncio.create_task(self._renew_loop(), name="taash-leases")

    async def take(self, table_id: str) -> None:
        """Take the table's lease (or keep it, renewed); Moved while another instance holds
        it."""
        if not self.on:
            return
        if self.closing:  # a stopping process takes no table: another instance will
            raise Moved(f"table {table_id}: this server instance is stopping; ask again")
        lease = await self.store.take_lease(table_id, self.instance, self.lease_s, time.time(),
                                            self.address)
        if lease is None:
            raise Moved(f"table {table_id} is played by another server instance now: "
                        "ask again in a moment")
        self.leases[table_id] = lease

    async def elsewhere(self, table_id: str) -> str | None:
        """The address of the other instance that owns the table now (one read of its lease,
        then remembered until it runs out); None if nobody else does, or if its owner gave
        no address."""
        if not self.on or table_id in self.leases:
            return None
        now = time.time()
        lease = self.seen.get(table_id)
        if lease is None or lease.expires < now:
            lease = await self.store.lease_of(table_id)
            if lease is None:
                return None
            if len(self.seen) > 10_000:
                self.seen.clear()
            self.seen[table_id] = lease
        if lease.owner == self.instance or lease.expires < now:
            return None
        return lease.address

    def unreachable(self, table_id: str) -> None:
        """The owner last read did not answer: read the lease again next time."""
        self.seen.pop(table_id, None)

    def drop(self, table_id: str) -> None:
        """The lease was found taken by another instance: forget it, drop the room."""
        if self.leases.pop(table_id, None) is not None:
            log.info("table %s: lost its lease to another instance", table_id)
        self.lost(table_id)

    async def give_back(self, table_id: str) -> None:
        """This process lets the table go (its room was dropped): another may take it now."""
        lease = self.leases.pop(table_id, None)
        if lease is not None:
            await self.store.give_back_lease(lease)

    async def renew(self) -> None:
        """Renew every lease held (one statement); drop the tables whose lease was taken;
        give back the leases of tables whose room is not here."""
        for table_id in [t for t in self.leases if not self.holds(t)]:
            await self.give_back(table_id)
        held = list(self.leases.values())
        if not held:
            return
        now = time.time()
        kept = await self.store.renew_leases(self.instance, held, self.lease_s, now)
        for lease in held:
            if lease.table_id in kept:
                if self.leases.get(lease.table_id) == lease:
                    self.leases[lease.table_id] = replace(lease, expires=now + self.lease_s)
            elif self.leases.get(lease.table_id) == lease:
                self.drop(lease.table_id)

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.renew_s)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database is away: the fence still guards each write
                log.warning("leases not renewed: %s: %s", type(e).__name__, e)

    async def close(self) -> None:
        """Stop renewing and give every lease back: the other instances take the tables at
        once rather than when the leases run out."""
        self.closing = True
        if self._renewer is not None:
            self._renewer.cancel()
            await asyncio.gather(self._renewer, return_exceptions=True)
        for table_id in list(self.leases):
            try:
                await self.give_back(table_id)
            except Exception as e:
                log.warning("lease of table %s not given back: %s", table_id, e)
                break


def end(room: Room | None) -> None:
    """A room whose table another instance owns now: its live connections close (the clients
    reconnect and reach the owner) and its bots stop."""
    if room is None:
        return
    for subs in room.live.subs.values():
        for sub in subs:
            sub.ended = True
            sub.wake.set()
    for task in room.autoplay.tasks():
        task.cancel()
