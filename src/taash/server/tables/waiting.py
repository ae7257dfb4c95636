"""A live table made to wait for the friends invited to it (issue 43): nobody moves (no action,
no bot, no turn timer) until every human seat is claimed or a player at the table starts it;
the turn timer then counts from that moment.  Whom a table waits for is
``TableRow.waiting_for``; the room asks here before an action and when its seats change."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol

from taash.server.errors import Waiting
from taash.server.store.db import TableRow
from taash.server.tables.roomish import Tabled

if TYPE_CHECKING:
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus


class WaitHost(Protocol):
    @property
    def store(self) -> Store: ...

    @property
    def bus(self) -> Bus: ...


class Waits(Tabled, Protocol):
    """What this needs of a room (``tables.room.Room`` is one)."""

    @property
    def host(self) -> WaitHost: ...

    def announce(self) -> None: ...

    def kick(self) -> None: ...


def refuse_while_waiting(table_id: str, meta: TableRow) -> None:
    """Waiting (409 ``waiting``) while the table waits for its invited friends."""
    waits = meta.waiting_for()
    if waits:
        who = ", ".join(meta.seats[s].name or f"seat {s}" for s in waits)
        raise Waiting(f"the table waits for {who} to join: a player at it can start it now "
                      f"(POST /api/tables/{table_id}/start)")


async def settle(room: Waits) -> bool:
    """A table that waited for its invited friends and has them all now starts: whether it
    did."""
    if room.meta.waiting and not room.meta.waiting_for():
        return await start(room)
    return False


async def start(room: Waits) -> bool:
    """End the wait (they all came, or a player at the table started it): the turn timer
    counts from now, the bots move, the other instances are told.  Whether it waited."""
    meta = room.meta
    if not meta.waiting:
        return False
    now = time.time()
    started = await room.host.store.start_table(room.id, now)
    meta.waiting = False
    if started:
        meta.updated = now
        await room.host.bus.publish({"k": "meta", "t": room.id})
    room.announce()
    room.kick()
    return started
