"""A seat's seed for the next fair deal (taash-shuffle/1: the deck is derived from the table's
secret, committed to before, and the seats' seeds)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from taash import fair
from taash.server.errors import BadRequest, Conflict
from taash.server.tables.match import check_seed, next_fair_row
from taash.server.tables.roomish import Played
from taash.server.tables.shapes import SeedTaken

if TYPE_CHECKING:
    from taash.server.store.db import Store
    from taash.server.store.rows import SeatRow


class SeedHost(Protocol):
    @property
    def store(self) -> Store: ...


class Seeded(Played, Protocol):
    """A room, as its seeds are set (``tables.room.Room`` is one): its lock serializes them
    with its actions."""

    @property
    def host(self) -> SeedHost: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    def seat_row(self, seat: int) -> SeatRow: ...


async def set_seed(room: Seeded, seat: int, seed: str) -> SeedTaken:
    """The seat's seed for the next deal (the last one sent before it is dealt counts;
    ``""`` withdraws it): ``{"deal", "commit", "seed"}``."""
    check_seed(seed)
    if room.seat_row(seat).type != "human":
        raise BadRequest(f"seat {seat} is not a human seat")
    async with room.lock:
        meta = room.meta
        if not meta.fair:
            raise Conflict("this table does not deal fair deals (it was made before them)")
        if room.state.is_over():
            raise Conflict("the match is over: there is no next deal")
        meta.fair = await room.host.store.load_fair(room.id)
        row = next_fair_row(meta)
        if row is None:
            raise Conflict("there is no next deal")
        row.seeds[seat] = seed
        await room.host.store.save_fair(room.id, meta.fair)
        return {"deal": row.deal, "commit": fair.commit(row.secret), "seed": seed}
