"""A room's live connections: each seat's (or spectator's) queue of numbered messages.

Nothing here knows a room: the room, its feed and presence all import this, and it imports
none of them."""

from __future__ import annotations

import asyncio
from collections import deque

QUEUE_MAX = 512  # messages waiting for one slow client before it is resynced


class Subscriber:
    """One live connection of one seat (``None``: a spectator): a queue of
    ``(version, message)``."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: deque[tuple[int, str]] = deque()
        self.wake = asyncio.Event()
        self.min_version = -1
        self.resync = False
        self.ended = False  # the seat's token was withdrawn: the connection closes
        self.kind = "stream"  # or "ws" (the metrics count them apart)

    def push(self, version: int, text: str, info: bool = False) -> None:
        """Queue a message; ``info``: a table message, which may come at the version the
        client already has (the seats changed, not the match)."""
        if version < self.min_version or (version == self.min_version and not info):
            return
        if len(self.queue) >= QUEUE_MAX:
            self.queue.clear()
            self.resync = True
        else:
            self.queue.append((version, text))
        self.wake.set()

    def skip_to(self, version: int) -> None:
        self.min_version = version
        while self.queue and self.queue[0][0] <= version:
            self.queue.popleft()
