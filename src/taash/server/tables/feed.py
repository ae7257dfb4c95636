"""Live connections: each seat's (or spectator's) queue of numbered messages, the catch-up of
a client that reconnects, and the loop that hands the messages out in version order."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from taash.server.errors import RateLimited
from taash.server.tables import wire
from taash.server.tables.match import Step, build_match, deal_next

if TYPE_CHECKING:
    from taash.server.store.db import ActionRow
    from taash.server.tables.room import Room

QUEUE_MAX = 512  # messages waiting for one slow client before it is resynced
MAX_WATCHERS = 200  # spectators' live connections per table and process


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


def check_watchers(room: Room) -> None:
    """Refuse one spectator more than a table takes."""
    if len(room.subs.get(None, ())) >= MAX_WATCHERS:
        raise RateLimited("too many spectators at this table")


async def catch_up(room: Room, seat: int | None, since: int | None) -> tuple[list[str], int]:
    """Messages bringing a client from ``since`` to now, and the version they reach; at
    ``since`` == now, the table message alone.  A client further behind than the settings'
    ``catchup_max_versions``, or whose missed events would take more than
    ``catchup_max_bytes``, gets the current full view instead: one message, whatever it
    missed.  The events are built in a worker thread, off the event loop (each step's state is
    its own: nothing there changes while they are built)."""
    v = room.version
    settings = room.host.settings
    if since is None or since < 0 or since > v or v - since > settings.catchup_max_versions:
        return [wire.view_message(room, seat)], v
    if since == v:
        return [wire.table_message(room)], v
    info = wire.table_info(room)
    budget = settings.catchup_max_bytes
    steps = [s for s in room.history if s.version > since]
    if steps and steps[0].version == since + 1 and steps[-1].version == v:
        out = await asyncio.to_thread(_event_messages, room, seat, steps, info, budget)
    else:
        rows = await room.host.store.load_actions(room.id, 0)
        out = await asyncio.to_thread(_replayed_messages, room, seat, rows, since, v, info,
                                      budget)
    if out is None:  # over the byte budget
        return [wire.view_message(room, seat)], v
    return out, v


def _event_messages(room: Room, seat: int | None, steps: list[Step], info: wire.JsonObject,
                    budget: int) -> list[str] | None:
    out: list[str] = []
    size = 0
    for step in steps:
        out.append(wire.event_message(room, seat, step, info))
        size += len(out[-1])
        if size > budget:
            return None
    return out


def _replayed_messages(room: Room, seat: int | None, rows: list[ActionRow], since: int,
                       v: int, info: wire.JsonObject, budget: int) -> list[str] | None:
    """The event messages after ``since``, from the match replayed from its stored actions."""
    state = build_match(room.meta)
    out: list[str] = []
    size = 0
    for r in rows:
        if r.version > v:
            break
        events = state.apply(r.seat, r.action)
        deal_next(room.meta, state)
        if r.version > since:
            out.append(wire.event_message(room, seat, Step(r.version, events, state),
                                          info))
            size += len(out[-1])
            if size > budget:
                return None
    return out


async def pump(room: Room, sub: Subscriber, ping_s: float) -> AsyncIterator[str]:
    """A seat's (or a spectator's) live messages, in version order, with a keep-alive ping
    when quiet; it ends when the server closes or the seat's token is withdrawn."""
    host = room.host
    while not host.closing and not sub.ended:
        if sub.resync:
            sub.resync = False
            text = wire.view_message(room, sub.seat)
            sub.skip_to(room.version)
            yield text
            continue
        if sub.queue:
            yield sub.queue.popleft()[1]
            continue
        sub.wake.clear()
        try:
            await asyncio.wait_for(sub.wake.wait(), ping_s)
        except TimeoutError:
            yield wire.ping_message("ping", room.version, time.time())
