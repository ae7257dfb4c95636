"""The tables domain's services, as route parameters (see taash.server.http.deps)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Protocol

from taash.server.http.deps import service
from taash.server.tables.bus import Bus
from taash.server.tables.connections import Subscriber
from taash.server.tables.room import Room
from taash.server.tables.service import Tables


class Rooms(Protocol):
    """The rooms of this process (``tables.hub.Hub``), as the routes use them."""

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def instance(self) -> str: ...

    @property
    def closing(self) -> bool: ...

    async def room(self, table_id: str) -> Room: ...

    async def peek(self, table_id: str) -> Room: ...


class Signals(Protocol):
    """What a table's socket hands on to voice (``voice.relay.Voice`` is one): a seat's
    socket opened and closed, and its ``voice`` messages (WebRTC signalling)."""

    def joined(self, room: Room, sub: Subscriber) -> None: ...

    async def left(self, room: Room, sub: Subscriber) -> None: ...

    async def handle(self, room: Room, seat: int | None, sub: Subscriber,
                     msg: dict[str, object], size: int, can_act: bool) -> str | None: ...


BusDep = Annotated[Bus, service("bus")]
RoomsDep = Annotated[Rooms, service("hub")]
TablesDep = Annotated[Tables, service("tables")]
SignalsDep = Annotated[Signals, service("voice")]
