"""The hub: the tables' state of one server process.

It owns the rooms of this process (loading a table's room from the store on first use), the
bus to the other instances (with presence and withdrawn tokens), the bot worker pool and the
sweeper (bots that should move and turn timers, after a restart or on another instance's
tables).  It builds no other domain's service: the app's composition (``taash.server.app``)
does, and subscribes them to what the hub tells (a match's end, a turn, a seat left, a room
dropped, a bus message, each sweep); the hub imports none of them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable

from taash.games.base import MatchState
from taash.server.config import Settings
from taash.server.errors import DomainError, Moved, NotFound
from taash.server.store.db import Store, TableRow
from taash.server.tables.bus import Bus, Handler
from taash.server.tables.bus import Heard as BusHeard
from taash.server.tables.loading import replay
from taash.server.tables.owners import Owners, end
from taash.server.tables.pool import BotPool
from taash.server.tables.presence import Presence
from taash.server.tables.room import Room, RoomMetrics
from taash.server.tables.withdrawals import Withdrawals

log = logging.getLogger("taash.server")

IDLE_S = 600  # a room with nothing going on is dropped from memory after this long

Heard = Handler  # a bus message's listener
Chore = Callable[[bool], Awaitable[None]]  # one more job of each sweep (True: the first)


class Hub:
    """Rooms, bus, presence, bot pool and sweeper of one server process."""

    def __init__(self, settings: Settings, store: Store, bus: Bus | None,
                 metrics: RoomMetrics) -> None:
        self.settings = settings
        self.store = store
        self.bus = bus or Bus()
        self.metrics = metrics
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._tasks: set[asyncio.Future[object]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False
        self.closed = asyncio.Event()
        self.pool = BotPool(settings.bot_workers or None)
        self.instance = secrets.token_hex(6)  # names this process on the bus
        self.presence = Presence(self)
        # the table leases this process holds (with other instances: one owner per table)
        self.owners = Owners(store, self.instance, settings.lease_s, settings.lease_renew_s)
        self.owners.lost = self.lost
        self.owners.holds = lambda t: t in self.rooms or t in self._loading
        self.owners.address = settings.instance_url
        self.withdrawals = Withdrawals(self.bus, self.instance, self.rooms)
        # what the other domains hear of the tables (the app's composition subscribes them)
        self.match_ended: list[Callable[[Room], Awaitable[None]]] = []
        self.turn_moved: list[Callable[[Room], None]] = []
        self.seat_freed: list[Callable[[str, int], Awaitable[None]]] = []
        self.room_dropped: list[Callable[[str], None]] = []
        self.listeners: dict[str, list[Heard]] = {}
        self.chores: list[Chore] = []
        # whether any of these players blocked one (social's friends answer; none unless set)
        self.blocks: Callable[[list[str], str], Awaitable[bool]] | None = None
        # why a player may not sit at a table that could be rated (fair play answers)
        self.bars: Callable[[str], Awaitable[str | None]] | None = None

    async def moved(self, room: Room) -> None:
        """An action committed: on the bus unless each table has one owner (no other room)."""
        if not self.owners.on:
            await self.bus.publish({"k": "act", "t": room.id, "v": room.version})

    def listen(self, kinds: Iterable[str], heard: Heard) -> None:
        """Hand the bus's messages of these kinds to ``heard`` too (after the hub's own)."""
        for kind in kinds:
            self.listeners.setdefault(kind, []).append(heard)

    async def start(self) -> None:
        await self.bus.start(self.on_bus)
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="taash-sweeper")
        if self.bus.shared:
            self.presence.start()
            if self.settings.lease_s > 0:
                self.owners.start()

    def begin_close(self) -> None:
        """Stop serving live connections: every stream and socket ends."""
        self.closing = True
        self.closed.set()
        for room in self.rooms.values():
            room.live.wake_all()

    async def close(self) -> None:
        self.begin_close()
        if self.bus.shared:  # the others forget this instance's connections now
            await self.bus.publish({"k": "gone", "i": self.instance})
        tasks = [t for t in [self._sweeper, self.presence.task, *self._tasks] if t is not None]
        for room in list(self.rooms.values()):
            tasks += room.autoplay.tasks()
        for task in tasks:
            task.cancel()
        # let them unwind (a cancelled query returns its connection) before the store closes
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.owners.close()  # the others take this process's tables at once
        await self.bus.close()
        self.pool.close()

    def match_over(self, room: Room) -> None:
        """A room's match has ended: told to whoever listens (its players' history, stats and
        ratings)."""
        for heard in self.match_ended:
            self.spawn(heard(room))

    def turn_changed(self, room: Room) -> None:
        """A move here: told to whoever listens (the notice to the human seat to move)."""
        for heard in self.turn_moved:
            heard(room)

    async def seat_left(self, table_id: str, seat: int) -> None:
        """A seat was given to a bot: whoever keeps something of its player forgets it."""
        for heard in self.seat_freed:
            await heard(table_id, seat)

    async def blocked_by_any(self, players: list[str], player_id: str) -> bool:
        """Whether any of these players blocked ``player_id`` (who may not join them)."""
        return self.blocks is not None and await self.blocks(players, player_id)

    def spawn(self, coro: Awaitable[object]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- rooms -------------------------------------------------------------------------------
    async def room(self, table_id: str) -> Room:
        """The table's room, loaded from the store once however many ask at once."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 24:
            raise NotFound(f"no table {table_id!r}")
        fut = self._loading.get(table_id)
        if fut is None:
            fut = asyncio.get_running_loop().create_future()
            self._loading[table_id] = fut
            try:
                fut.set_result(await self._load(table_id))
            except Exception as e:
                fut.set_exception(e)
                fut.exception()  # retrieved: the caller below raises it
            finally:
                del self._loading[table_id]
        loaded = await fut
        if loaded is None:
            raise NotFound(f"no table {table_id!r}")
        return loaded

    async def _load(self, table_id: str, owned: bool = True) -> Room | None:
        meta = await self.store.load_table(table_id)
        if meta is None:
            return None
        if owned:
            await self.owners.take(table_id)  # Moved while another instance plays it
        room = await replay(self, meta, owned)
        if not owned:  # a copy to read (``peek``): not kept, never written through
            return room
        self.rooms[table_id] = room
        if self.bus.shared:  # who is connected to this table through the other instances?
            self.spawn(self.bus.publish({"k": "who", "t": table_id, "i": self.instance}))
        return room

    async def peek(self, table_id: str) -> Room:
        """The table's room to read from: this process's, or, if another instance owns the
        table, a copy read from the store (not kept; its owner alone writes)."""
        try:
            return await self.room(table_id)
        except Moved:
            copy = await self._load(table_id, owned=False)
        if copy is None:
            raise NotFound(f"no table {table_id!r}")
        return copy

    async def install(self, t: TableRow, state: MatchState) -> None:
        """Own a table just created here, unless a proxy routes tables (docs/ownership.md)."""
        if self.owners.on and self.settings.proxy_routes_tables:
            return
        await self.owners.take(t.id)
        self.rooms[t.id] = room = Room(self, t, state, 0)
        room.kick()

    # -- the bus -----------------------------------------------------------------------------
    async def on_bus(self, msg: BusHeard) -> None:
        kind = str(msg.get("k"))
        if kind in ("here", "gone", "who"):
            self.presence.on_message(msg)
        elif kind == "withdrawn":
            await self.withdrawals.on_withdrawn(msg)
        elif kind == "withdrawn_ok":
            self.withdrawals.on_confirmed(msg)
        elif kind in ("rejoined", "reread"):  # the bus was down here, or someone's publishing
            for r in list(self.rooms.values()):
                await r.reload_meta()
        elif kind in ("chat", "act", "meta"):
            await self._on_table(kind, msg)
        for heard in self.listeners.get(kind, ()):
            await heard(msg)

    async def _on_table(self, kind: str, msg: BusHeard) -> None:
        room = self.rooms.get(str(msg.get("t")))
        if room is None:
            return
        if kind == "chat":  # a chat message said at another instance (chat.py)
            text = msg.get("m")
            if msg.get("i") != self.instance and isinstance(text, str):
                room.tell_all(text)
        elif kind == "act":
            # each room catches up on its own: one message's read of the store does not hold
            # up the next ones (read one after another, a busy bus fell seconds behind)
            v = msg.get("v", 0)
            if isinstance(v, int) and v > room.version:
                self.spawn(self._caught_up(room, v))
        elif kind == "meta":
            await room.reload_meta()

    async def _caught_up(self, room: Room, version: int) -> None:
        try:
            await room.on_remote(version)
        except Exception:
            log.exception("table %s: could not read version %d from the store", room.id,
                          version)

    async def meta_changed(self, room: Room) -> None:
        await self.bus.publish({"k": "meta", "t": room.id})

    async def withdraw(self, table_id: str, hashes: list[str]) -> None:
        """Seat tokens (their hashes) just withdrawn in the store: every instance forgets
        them before this returns (``Withdrawals.withdraw``)."""
        await self.withdrawals.withdraw(table_id, hashes)

    # -- the sweeper -------------------------------------------------------------------------
    async def _sweep_loop(self) -> None:
        first = True
        while not self.closing:
            try:
                await self.sweep(first)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sweeper")
            first = False
            await asyncio.sleep(self.settings.sweep_s)

    async def sweep(self, starting: bool = False) -> None:
        """Kick the tables whose bots or timers should have moved, do the other domains'
        chores (reminders, results a stop kept from being written, forgetting what expired),
        and drop the rooms nobody has used for a while."""
        now = time.time()
        stalled = 0.0 if starting else max(10.0, 3 * self.settings.sweep_s)
        for table_id in await self.store.tables_to_drive(now, stalled,
                                                         self.settings.idle_after_s):
            try:
                room = await self.room(table_id)
            except DomainError:
                continue
            room.kick()
        for chore in self.chores:
            await chore(starting)
        for table_id, room in list(self.rooms.items()):
            if room.idle() and time.monotonic() - room.last_used > IDLE_S:
                self._drop(table_id)
                await self.owners.give_back(table_id)

    def lost(self, table_id: str) -> None:
        """Another instance owns the table now: its room here ends (``owners.end``)."""
        end(self._drop(table_id))

    def _drop(self, table_id: str) -> Room | None:
        room = self.rooms.pop(table_id, None)
        if room is not None:
            for heard in self.room_dropped:
                heard(table_id)
        return room
