"""What the tables service needs of the process that holds the rooms (``tables.hub.Hub`` is
one): its rooms, the store, and the telling of the other instances when a table's seats
change."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from taash.games.base import MatchState
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.store.rows import TableRow
    from taash.server.tables.bus import Bus
    from taash.server.tables.room import Room


class Host(Protocol):
    """What the tables need of the process (``tables.hub.Hub`` is one): its rooms, the store,
    and the telling of the other instances when a table's seats change."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store: ...

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def bus(self) -> Bus: ...

    async def room(self, table_id: str) -> Room: ...

    async def install(self, t: TableRow, state: MatchState) -> None: ...

    async def blocked_by_any(self, players: list[str], player_id: str) -> bool: ...

    #: why a player may not sit at a table that could be rated (None: they may)
    bars: Callable[[str], Awaitable[str | None]] | None

    async def meta_changed(self, room: Room) -> None: ...

    async def withdraw(self, table_id: str, hashes: list[str]) -> None: ...

    async def seat_left(self, table_id: str, seat: int) -> None: ...
