"""The events domain's services, as route parameters (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.events.play import Boards
from taash.server.events.service import Events
from taash.server.http.deps import service

EventsDep = Annotated[Events, service("events")]
BoardsDep = Annotated[Boards, service("event_boards")]
