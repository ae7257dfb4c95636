"""The tables domain's services, as route parameters (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.http.deps import service
from taash.server.tables.bus import Bus
from taash.server.tables.hub import Hub
from taash.server.tables.service import Tables

BusDep = Annotated[Bus, service("bus")]
RoomsDep = Annotated[Hub, service("hub")]  # the rooms of this process
TablesDep = Annotated[Tables, service("tables")]
