"""A room's live connections: each seat's (or spectator's) queue of numbered messages, and
who is connected to the table, here and through the other instances.

Nothing here knows a room: the room, its feed and presence all import this, and it imports
none of them."""

from __future__ import annotations

import asyncio
import time
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


Remote = dict[str, tuple[float, int, frozenset[int]]]  # instance -> (when heard, its n, seats)


class Connections:
    """A table's live connections: this instance's, by seat (``None``: spectators), and the
    seats that the other instances said are connected to them."""

    def __init__(self) -> None:
        self.subs: dict[int | None, set[Subscriber]] = {}
        self.remote: Remote = {}

    def add(self, seat: int | None) -> tuple[Subscriber, bool]:
        """A new connection of ``seat``, and whether it is that seat's first here."""
        sub = Subscriber(seat)
        subs = self.subs.setdefault(seat, set())
        subs.add(sub)
        return sub, len(subs) == 1

    def remove(self, sub: Subscriber) -> bool | None:
        """Forget a connection: whether it was its seat's last here (None: not known)."""
        subs = self.subs.get(sub.seat, set())
        if sub not in subs:
            return None
        subs.discard(sub)
        return not subs

    def any(self) -> bool:
        """Whether anyone watches or sits here now, through this instance (a seat or a
        spectator) or another (a seat)."""
        return any(self.subs.values()) or any(seats for _, _, seats in self.remote.values())

    def seat(self, seat: int) -> bool:
        """Whether the seat has a live connection to this or another server instance."""
        return bool(self.subs.get(seat)) or any(seat in seats for _, _, seats in
                                                self.remote.values())

    def local_seats(self) -> list[int]:
        """The seats with a live connection to this instance."""
        return sorted(s for s, subs in self.subs.items() if s is not None and subs)

    def heard(self, instance: str, seats: frozenset[int] | None, n: int = -1) -> bool:
        """Another instance's live seats, told in its message ``n`` (``None``: it is gone);
        False if that message is older than one already heard (nothing changes)."""
        old = self.remote.get(instance)
        if old is not None and n >= 0 and n < old[1]:
            return False
        if seats is None:
            self.remote.pop(instance, None)
        else:
            self.remote[instance] = (time.monotonic(), n, seats)
        return True

    def push_all(self, version: int, text: str,
                 watchers: tuple[int, str] | None = None) -> int:
        """Push a table message (``info``) to every connection here (to spectators, the
        ``watchers`` version and text where given); how many."""
        n = 0
        for seat, subs in self.subs.items():
            v, t = watchers if watchers is not None and seat is None else (version, text)
            for sub in subs:
                sub.push(v, t, info=True)
                n += 1
        return n

    def end(self, seat: int) -> None:
        """Close the seat's connections here (its token was withdrawn)."""
        for sub in self.subs.get(seat, ()):
            sub.ended = True
            sub.wake.set()

    def wake_all(self) -> None:
        """Wake every connection here (the server stops: each sees it and ends)."""
        for subs in self.subs.values():
            for sub in subs:
                sub.wake.set()
