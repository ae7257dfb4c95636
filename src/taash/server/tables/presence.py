"""Presence: which seats have a live connection, here or through the other instances.

Each instance tells the others its connected seats per table when they change, again every
few seconds while any are, and that it is gone when it stops; what is not heard again in time
is forgotten (an instance that was killed).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.tables.bus import Bus, Heard, HereMessage
    from taash.server.tables.connections import Connections

log = logging.getLogger("taash.server")

class Seen(Protocol):
    """A room's connections, as presence reads them (``tables.room.Room`` is one)."""

    @property
    def live(self) -> Connections: ...


class Present(Seen, Protocol):
    """A room, as presence tells it what the other instances said (``tables.room.Room``)."""

    @property
    def id(self) -> str: ...

    def announce(self) -> None: ...


def connected(room: Seen, seat: int) -> bool:
    """Whether the seat has a live connection to this or another server instance."""
    return room.live.seat(seat)


def local_seats(room: Seen) -> list[int]:
    """The seats with a live connection to this instance."""
    return room.live.local_seats()


def told(room: Present, instance: str, seats: frozenset[int] | None, n: int = -1) -> None:
    """Another instance's live seats at this table, told in its message ``n`` (``None``: it
    is gone); an older message than one already heard changes nothing."""
    if room.live.heard(instance, seats, n):
        room.announce()


class PresenceHost(Protocol):
    """What presence needs of the process (``tables.hub.Hub`` is one)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def rooms(self) -> Mapping[str, Present]: ...

    @property
    def instance(self) -> str: ...

    @property
    def closing(self) -> bool: ...

    def spawn(self, coro: Awaitable[None]) -> None: ...


class Presence:
    """What this instance tells the others of its seats, and hears of theirs, on the bus."""

    def __init__(self, hub: PresenceHost) -> None:
        self.hub = hub
        self.n = 0  # numbers this instance's presence messages: a late one is ignored
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="taash-presence")

    def changed(self, room: Present) -> None:
        """The seats connected here to ``room`` changed: tell the others."""
        hub = self.hub
        if hub.bus.shared and not hub.closing:
            hub.spawn(hub.bus.publish(self.here({room.id: local_seats(room)})))

    def here(self, rooms: dict[str, list[int]]) -> HereMessage:
        self.n += 1
        return {"k": "here", "i": self.hub.instance, "n": self.n, "rooms": rooms}

    def on_message(self, msg: Heard) -> None:
        """A ``here``, ``gone`` or ``who`` message from the bus."""
        hub = self.hub
        inst = str(msg.get("i"))
        if inst == hub.instance:
            return
        kind = msg.get("k")
        if kind == "gone":
            for room in hub.rooms.values():
                if inst in room.live.remote:
                    told(room, inst, None)
        elif kind == "who":
            asked = hub.rooms.get(str(msg.get("t")))
            if asked is not None and local_seats(asked):
                self.changed(asked)
        else:
            rooms = msg.get("rooms")
            n = msg.get("n")
            if not isinstance(rooms, dict) or not isinstance(n, int):
                return
            for tid, seats in rooms.items():
                at = hub.rooms.get(str(tid))
                if at is not None and isinstance(seats, list):
                    told(at, inst, frozenset(int(s) for s in seats), n)

    def forget(self, before: float) -> None:
        """Forget what other instances told of their seats before that (monotonic) time."""
        for room in list(self.hub.rooms.values()):
            for inst, (seen, _, _) in list(room.live.remote.items()):
                if seen < before:
                    told(room, inst, None)

    def interval(self) -> float:
        return max(0.5, min(20.0, 2 * self.hub.settings.ping_s))

    async def _loop(self) -> None:
        hub = self.hub
        every = self.interval()
        while not hub.closing:
            await asyncio.sleep(every)
            try:
                mine = {r.id: seats for r in hub.rooms.values() if (seats := local_seats(r))}
                items = list(mine.items())
                for i in range(0, len(items), 500):
                    await hub.bus.publish(self.here(dict(items[i:i + 500])))
                self.forget(time.monotonic() - 3 * every - 1)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence")
