"""Live connections: the catch-up of a client that reconnects, and the loop that hands each
connection's numbered messages (``connections.Subscriber``) out in version order."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Protocol

from taash.server.errors import RateLimited
from taash.server.tables import watch, wire
from taash.server.tables.connections import Subscriber as Subscriber  # its old home: re-exported
from taash.server.tables.match import Step, build_match, deal_next
from taash.server.tables.shapes import TableInfo

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.store.db import ActionRow, Store

MAX_WATCHERS = 200  # spectators' live connections per table and process


class FeedHost(Protocol):
    """What the feed needs of the process that holds the room (``tables.hub.Hub`` is one)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store: ...

    @property
    def closing(self) -> bool: ...


class Fed(watch.Watched, Protocol):
    """What the feed needs of a room (``tables.room.Room`` is one): what the wire shows of it
    (to its spectators too), its recent steps and its host."""

    @property
    def history(self) -> Sequence[Step]: ...

    @property
    def host(self) -> FeedHost: ...


def check_watchers(room: Fed) -> None:
    """Refuse one spectator more than a table takes, and any while a table whose host keeps
    spectators out is played."""
    watch.refuse_hidden(room.watch)
    if len(room.live.subs.get(None, ())) >= MAX_WATCHERS:
        raise RateLimited("too many spectators at this table")


async def catch_up(room: Fed, seat: int | None, since: int | None) -> tuple[list[str], int]:
    """Messages bringing a client from ``since`` to now, and the version they reach; at
    ``since`` == now, the table message alone.  A client further behind than the settings'
    ``catchup_max_versions``, or whose missed events would take more than
    ``catchup_max_bytes``, gets the current full view instead: one message, whatever it
    missed.  The events are built in a worker thread, off the event loop (each step's state is
    its own: nothing there changes while they are built).  A spectator of a delayed table is
    brought to the version it is shown (``tables.watch``), never past it."""
    delayed = seat is None and room.watch.delayed
    v = room.watch.shown.version if delayed else room.version
    info = watch.watchers_info(room) if delayed else wire.table_info(room)

    def full() -> str:
        return watch.view_message(room)[0] if delayed else wire.view_message(room, seat)

    settings = room.host.settings
    if since is None or since < 0 or since > v or v - since > settings.catchup_max_versions:
        return [full()], v
    if since == v:
        return [wire.table_message(room, info)], v
    budget = settings.catchup_max_bytes
    steps = [s for s in room.history if since < s.version <= v]
    if steps and steps[0].version == since + 1 and steps[-1].version == v:
        out = await asyncio.to_thread(_event_messages, room, seat, steps, info, budget)
    else:
        rows = await room.host.store.load_actions(room.id, 0)
        out = await asyncio.to_thread(_replayed_messages, room, seat, rows, since, v, info,
                                      budget)
    if out is None:  # over the byte budget
        return [full()], v
    return out, v


def _event_messages(room: Fed, seat: int | None, steps: list[Step], info: TableInfo,
                    budget: int) -> list[str] | None:
    out: list[str] = []
    size = 0
    for step in steps:
        out.append(wire.event_message(room, seat, step, info))
        size += len(out[-1])
        if size > budget:
            return None
    return out


def _replayed_messages(room: Fed, seat: int | None, rows: list[ActionRow], since: int,
                       v: int, info: TableInfo, budget: int) -> list[str] | None:
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


async def pump(room: Fed, sub: Subscriber, ping_s: float) -> AsyncIterator[str]:
    """A seat's (or a spectator's) live messages, in version order, with a keep-alive ping
    when quiet; it ends when the server closes or the seat's token is withdrawn."""
    host = room.host
    while not host.closing and not sub.ended:
        if sub.resync:
            sub.resync = False
            if sub.seat is None:
                text, v = watch.view_message(room)
            else:
                text, v = wire.view_message(room, sub.seat), room.version
            sub.skip_to(v)
            yield text
            continue
        if sub.queue:
            yield sub.queue.popleft()[1]
            continue
        sub.wake.clear()
        try:
            await asyncio.wait_for(sub.wake.wait(), ping_s)
        except TimeoutError:
            v = room.version if sub.seat is not None else watch.shown_version(room)
            yield wire.ping_message("ping", v, time.time())
