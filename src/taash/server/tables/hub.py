"""The hub: everything one server process shares.

It owns the rooms of this process (loading a table's room from the store on first use), the
store, the bus to the other instances, the notifier, the bot worker pool and the
sweeper (bots that should move, turn timers and reminders after a restart or on another
instance's tables).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable

from taash.games.base import Json, MatchState
from taash.server.accounts.email_sign_in import EmailSignIn
from taash.server.accounts.link import Linker
from taash.server.accounts.passkeys import Passkeys
from taash.server.accounts.players import Players
from taash.server.accounts.sign_in import SignIn
from taash.server.accounts.tokens import Tokens
from taash.server.config import Settings
from taash.server.errors import DomainError, NotFound
from taash.server.notify.notices import notify_turn, send_notice
from taash.server.notify.notifier import Notifier
from taash.server.notify.push import Pusher
from taash.server.ops.metrics import Metrics
from taash.server.review.analyses import Analyses
from taash.server.social.friends import Friends
from taash.server.social.profiles import Social
from taash.server.store.db import Store, TableRow
from taash.server.tables.bus import Bus
from taash.server.tables.match import build_match, deal_next
from taash.server.tables.pool import BotPool
from taash.server.tables.presence import Presence
from taash.server.tables.room import HISTORY, Room
from taash.server.tables.service import Tables
from taash.server.tables.withdrawals import Withdrawals
from taash.server.voice.relay import Voice

log = logging.getLogger("taash.server")

IDLE_S = 600  # a room with nothing going on is dropped from memory after this long
SESSIONS_SWEEP_S = 3600  # expired and revoked sessions are forgotten this often


class Hub:
    """Rooms, store, bus, notifier, presence, tables and sweeper of one server process."""

    def __init__(self, settings: Settings, store: Store, bus: Bus | None = None) -> None:
        self.settings = settings
        self.store = store
        self.bus = bus or Bus()
        self.notifier = Notifier(settings.smtp_url, settings.webhook_allow_private)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._tasks: set[asyncio.Future[object]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False
        self.closed = asyncio.Event()
        self.pool = BotPool(settings.bot_workers or None)
        self.public_url = settings.public_url or ""
        self.instance = secrets.token_hex(6)  # names this process on the bus
        self.presence = Presence(self)
        self._sessions_swept = -float("inf")
        self.tables = Tables(self)
        self.players = Players(settings, store, self.bus, self.rooms, self.tables.my_row)
        self.linker = Linker(settings, store, self.players)
        self.tokens = Tokens(store, self.players, self.bus)
        self.metrics = Metrics()
        self.voice = Voice(self.rooms, self.bus, self.instance)
        store.on_write = self.metrics.wrote
        self.sign_in = SignIn(settings, store, self.players, self.notifier, self.bus)
        self.passkeys = Passkeys(store)
        self.email = EmailSignIn(store, self.notifier, self.spawn)
        self.withdrawals = Withdrawals(self.bus, self.instance, self.rooms)
        self.analyses = Analyses(store, settings.analysis_solver_time)
        self.push = Pusher(settings, store)
        self.social = Social(store, self.room)
        self.friends = Friends(self)

    async def start(self) -> None:
        self.metrics.watch(self.rooms)
        await self.push.start()
        await self.bus.start(self.on_bus)
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="taash-sweeper")
        if self.bus.shared:
            self.presence.start()

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
        await self.bus.close()
        await self.notifier.close()
        await self.push.close()
        self.pool.close()
        self.metrics.stop()
        self.analyses.close()

    def match_over(self, room: Room) -> None:
        """A room's match has ended: its players' history, stats and ratings."""
        self.spawn(self.social.match_over(room))

    def turn_changed(self, room: Room) -> None:
        """A move here: tell the human seat to move now, unless it is connected."""
        notify_turn(self, room)

    async def blocked_by_any(self, players: list[str], player_id: str) -> bool:
        """Whether any of these players blocked ``player_id`` (who may not join them)."""
        return await self.friends.store.blocked_by_any(players, player_id)

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

    async def _load(self, table_id: str) -> Room | None:
        meta = await self.store.load_table(table_id)
        if meta is None:
            return None
        rows = await self.store.load_actions(table_id, 0)
        state = build_match(meta)
        dealt = [(f.deal, f.dealt) for f in meta.fair]
        keep = max(0, len(rows) - HISTORY)
        room = Room(self, meta, state, 0)
        for r in rows[:keep]:  # replay fast, without keeping a state per version
            state.apply(r.seat, r.action)
            deal_next(meta, state)
            if r.client_id is not None:
                room.answers[(r.seat, r.client_id)] = {"version": r.version, "events": r.events}
            room.version = r.version
        room.replay_rows(rows[keep:])
        if dealt != [(f.deal, f.dealt) for f in meta.fair]:  # dealt before a stop: fix it
            await self.store.save_fair(table_id, meta.fair)
        room.meta.updated = meta.updated
        humans = [s.seat for s in meta.seats if s.type == "human"]
        room.human_seen = (await self.store.last_human_move(table_id, humans)
                           or meta.created)  # an idle table stays so after a restart
        self.rooms[table_id] = room
        if self.bus.shared:  # who is connected to this table through the other instances?
            self.spawn(self.bus.publish({"k": "who", "t": table_id, "i": self.instance}))
        return room

    def install(self, t: TableRow, state: MatchState) -> Room:
        """The room of a table just created here."""
        room = Room(self, t, state, 0)
        self.rooms[t.id] = room
        room.kick()
        return room

    # -- the bus -----------------------------------------------------------------------------
    async def on_bus(self, msg: dict[str, Json]) -> None:
        kind = msg.get("k")
        if kind in ("here", "gone", "who"):
            self.presence.on_message(msg)
        if kind in ("here", "gone", "who", "vp", "vs"):
            await self.voice.on_bus(msg)
            return
        if kind == "revoked":
            self.players.end_session(str(msg.get("s")))
            return
        if kind == "withdrawn":
            await self.withdrawals.on_withdrawn(msg)
            return
        if kind == "withdrawn_ok":
            self.withdrawals.on_confirmed(msg)
            return
        if kind == "rejoined":  # the bus was down: a token may have been withdrawn meanwhile
            for r in list(self.rooms.values()):
                await r.reload_meta()
            return
        room = self.rooms.get(str(msg.get("t")))
        if room is None:
            return
        if kind == "chat":  # a chat message said at another instance (chat.py)
            if msg.get("i") != self.instance and isinstance(msg.get("m"), str):
                room.tell_all(str(msg["m"]))
        elif kind == "act":
            # each room catches up on its own: one message's read of the store does not hold
            # up the next ones (read one after another, a busy bus fell seconds behind)
            v = int(msg.get("v", 0))
            if v > room.version:
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
        """Kick the tables whose bots or timers should have moved, remind the humans who have
        kept a table waiting, drop the rooms nobody has used for a while, and (hourly) forget
        the sessions that expired or were revoked a day ago."""
        now = time.time()
        if starting:  # results a stop kept from being written (issue 28)
            await self.social.catch_up()
        stalled = 0.0 if starting else max(10.0, 3 * self.settings.sweep_s)
        for table_id in await self.store.tables_to_drive(now, stalled,
                                                         self.settings.idle_after_s):
            try:
                room = await self.room(table_id)
            except DomainError:
                continue
            room.kick()
        for table_id, seat, version in await self.store.waiting_humans(
                now - self.settings.remind_after_s):
            try:
                room = await self.room(table_id)
            except DomainError:
                continue
            # a turn's first notice goes before its reminder: one that has not gone yet (its
            # move's own notice was slow, or the process stopped first) goes now, and the
            # reminder at a later sweep
            if room.version == version and not await send_notice(self, room, seat, version,
                                                                  "notified"):
                await send_notice(self, room, seat, version, "reminded")
        for table_id, room in list(self.rooms.items()):
            if room.idle() and time.monotonic() - room.last_used > IDLE_S:
                del self.rooms[table_id]
                self.voice.forget(table_id)
        if time.monotonic() - self._sessions_swept >= SESSIONS_SWEEP_S:
            self._sessions_swept = time.monotonic()
            await self.store.drop_sessions(now, now - 86400)
            await self.store.drop_link_codes(now - 86400)
            await self.store.drop_challenges(now)
            await self.store.drop_email_links(now - 86400)
