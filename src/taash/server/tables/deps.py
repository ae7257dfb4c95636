"""The tables domain's services, as route parameters (see taash.server.http.deps)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Protocol

from taash.server.http.deps import service
from taash.server.tables.bus import Bus
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


BusDep = Annotated[Bus, service("bus")]
RoomsDep = Annotated[Rooms, service("hub")]
TablesDep = Annotated[Tables, service("tables")]
