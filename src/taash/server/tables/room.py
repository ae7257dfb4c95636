"""A room: one serialized worker per table (after lichess's round actors).

A ``Room`` holds a table's match in memory, applies actions one at a time under its lock,
commits each to the store before answering, and pushes one numbered message per accepted
action to every seat connected to this process.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from taash.games.base import IllegalAction, MalformedAction, MatchState, RecordError
from taash.server.errors import Conflict, Stale
from taash.server.store.db import ActionRow, SeatRow, TableRow, VersionConflict
from taash.server.tables import shapes, waiting, watch, wire
from taash.server.tables.autoplay import Autoplay
from taash.server.tables.connections import Connections, Subscriber
from taash.server.tables.match import Step, deal_next, fork, turn_of
from taash.server.tables.shapes import Event

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus
    from taash.server.tables.pool import BotPool

HISTORY = 24  # versions kept in memory per room, for clients that reconnect (the rest: replay)

Answer = shapes.Answer  # {"version", "events"}: what a submitted action is answered


def _retrieve(task: asyncio.Future[Answer]) -> None:
    """Mark an outcome seen: its caller may have gone, the caller's caller was answered."""
    if not task.cancelled():
        task.exception()



class RoomMetrics(Protocol):
    def action_done(self, game: str, started: float, error: Exception | None) -> None: ...

    def thinking(self, level: str) -> Callable[[], None]: ...


class RoomPresence(Protocol):
    def changed(self, room: Room) -> None: ...


class Host(Protocol):
    """What a room (its autoplay and its live feed too) needs of the process that holds it:
    ``tables.hub.Hub`` is one.  A match's end and a seat's turn are told to the host, which
    tells whoever listens (the ratings, the notices): the room knows neither."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def pool(self) -> BotPool: ...

    @property
    def metrics(self) -> RoomMetrics: ...

    @property
    def presence(self) -> RoomPresence: ...

    @property
    def closing(self) -> bool: ...

    async def moved(self, room: Room) -> None:
        """An action of ``room`` committed: the other instances' rooms of it catch up (no
        such rooms where each table has one owner, docs/ownership.md)."""
        ...

    def spawn(self, coro: Awaitable[None]) -> None: ...

    def match_over(self, room: Room) -> None: ...

    def turn_changed(self, room: Room) -> None: ...

class Room:
    """One table in this process."""

    def __init__(self, host: Host, meta: TableRow, state: MatchState, version: int) -> None:
        self.host = host
        self.meta = meta
        self.id = meta.id
        self.state = state
        self.version = version
        self.lock = asyncio.Lock()
        self.history: deque[Step] = deque(maxlen=HISTORY)
        self.answers: dict[tuple[int, str], Answer] = {}
        self.live = Connections()
        self.watch = watch.Watch(meta.spectator_delay, version, state)  # spectators' side
        self.announced: str | None = None
        self.autoplay = Autoplay(self)
        self.last_used = time.monotonic()
        # when a human last moved here or was connected (a time.time() value): a table nobody
        # has come to for the hub's idle time stops driving its bots (``Autoplay.active``)
        self.human_seen = time.time()
        # seat tokens withdrawn while this room was loaded: refused even if a read of the
        # seats that began before the withdrawal brings one back
        self.withdrawn: set[str] = set()

    def seat_row(self, seat: int) -> SeatRow:
        return self.meta.seats[seat]

    def seat_of_hash(self, h: str) -> int | None:
        if h in self.withdrawn:
            return None
        for s in self.meta.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.seat
        return None

    # -- live connections --------------------------------------------------------------------
    def announce(self) -> None:
        """Tell every live connection here the table's info, if its seats (who sits, who is
        connected, names) or its rematch changed since last told."""
        info = wire.table_info(self)
        key = wire.dumps([info["seats"], info["rematch"], info["rematch_of"], info["open"],
                          info["waiting"], info["spectators"]])
        if key == self.announced:
            return
        self.announced = key
        self.live.push_all(self.version, wire.table_message(self, info),
                           watchers=watch.table_message(self, info))

    def human_came(self) -> None:
        """A human moved, connected or asked for their seat: a table stopped for being idle
        plays on."""
        self.human_seen = time.time()
        self.kick()

    def subscribe(self, seat: int | None) -> Subscriber:
        sub, first = self.live.add(seat)
        self.last_used = time.monotonic()
        self.human_came()
        if first or seat is None:  # a seat came, or one more watches: the table is told
            self.announce()
        if first and seat is not None:
            self.host.presence.changed(self)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        last = self.live.remove(sub)
        if last is None:
            return
        self.last_used = time.monotonic()
        self.human_seen = time.time()  # the idle time runs from the last one to leave
        if last or sub.seat is None:
            self.announce()
        if last and sub.seat is not None:
            self.host.presence.changed(self)

    def tell_all(self, text: str) -> int:
        """Push an informational message (a chat line) to every live connection to the table
        here; how many."""
        return self.live.push_all(self.version, text)

    def forget_tokens(self, hashes: set[str]) -> None:
        """These seat tokens were withdrawn (here or on another instance): refuse them now
        and close the connections they opened."""
        self.withdrawn |= hashes
        for s in self.meta.seats:
            if s.token_hash is not None and s.token_hash in hashes:
                s.token_hash = None
                self.live.end(s.seat)

    # -- applying actions --------------------------------------------------------------------
    def _advance(self, seat: int, client_id: str | None, events: Sequence[Event],
                 state: MatchState, updated: float, by_human: bool = False) -> Step:
        if by_human or (client_id is not None and self.seat_row(seat).type == "human"):
            self.human_seen = time.time()  # bots and timers never send a client id
        self.version += 1
        step = Step(self.version, events, state)
        self.state = state
        self.history.append(step)
        if client_id is not None:
            self.answers[(seat, client_id)] = {"version": self.version, "events": events}
        self.meta.version = self.version
        self.meta.updated = updated
        self.meta.to_move = turn_of(state)
        self.meta.over = bool(state.is_over())
        self.autoplay.moved_on(self.version)
        self.last_used = time.monotonic()
        watch.fan_out(self, step, self.watch.moved(step))
        return step

    def replay_rows(self, rows: Sequence[ActionRow]) -> None:
        """Apply stored actions (already committed) to the room, in version order."""
        for r in rows:
            if r.version <= self.version:
                continue
            if r.version != self.version + 1:
                raise RecordError(f"table {self.id}: version {r.version} follows {self.version}")
            state = fork(self.state)
            events = state.apply(r.seat, r.action)
            deal_next(self.meta, state)
            self._advance(r.seat, r.client_id, events, state, time.time())

    def _sole_writer(self) -> bool:
        """Nobody else changes this table's rows: the only instance, or the one holding the
        table's lease (the others forward its requests here)."""
        fencing = self.host.store.fencing
        return not self.host.bus.shared or (fencing is not None and self.id in fencing)

    async def _catch_up_locked(self) -> None:
        if self.meta.fair:  # another instance may have dealt, or taken seeds
            self.meta.fair = await self.host.store.load_fair(self.id)
        self.replay_rows(await self.host.store.load_actions(self.id, self.version))

    async def submit(self, seat: int, text: str, client_id: str | None = None,
                     expected: int | None = None, auto: bool = False) -> Answer:
        """Apply, commit and publish one action; ``{"version", "events"}``.  IllegalAction or
        MalformedAction if it is not legal now.  With ``expected`` (the version the client
        acted on) it is refused, changing nothing, if the table has moved on since (Stale): a
        card chosen for one trick never lands in the next.  The same client id again is
        answered as the first time, whatever the version.  A caller that goes away (a closed
        socket) does not cut it short: once started, an action is committed and pushed to
        every seat.  ``auto``: a bot's or a turn timer's move, not a human's."""
        waiting.refuse_while_waiting(self.id, self.meta)  # nobody moves before the friends come
        started = time.perf_counter()
        task = asyncio.ensure_future(self._submit(seat, text, client_id, expected, auto))
        task.add_done_callback(_retrieve)
        try:
            answer = await asyncio.shield(task)
        except Stale as e:
            self.host.metrics.action_done(self.meta.game, started, e)
            raise Stale.since(self.version, expected) from None
        except Exception as e:
            self.host.metrics.action_done(self.meta.game, started, e)
            raise
        self.host.metrics.action_done(self.meta.game, started, None)
        return answer

    async def _submit(self, seat: int, text: str, client_id: str | None,
                      expected: int | None, auto: bool = False) -> Answer:
        async with self.lock:
            # with other instances, this room may not have heard of their latest moves yet:
            # an action that looks stale or illegal here is judged again after reading them
            # from the store, not refused on an old state
            caught_up = not self.host.bus.shared
            for _ in range(5):
                if client_id is not None:
                    done = self.answers.get((seat, client_id))
                    if done is not None:
                        return done
                if expected is not None and expected != self.version:
                    if expected > self.version and not caught_up:
                        caught_up = True
                        await self._catch_up_locked()
                        continue
                    raise Stale("stale")
                trial = fork(self.state)
                try:
                    canonical = trial.action_text(trial.action_id(seat, text))
                    events = trial.apply(seat, canonical)
                except (IllegalAction, MalformedAction):
                    if caught_up:
                        raise
                    caught_up = True
                    before = self.version
                    await self._catch_up_locked()
                    if self.version == before:
                        raise
                    continue
                dealt = False
                if self.meta.fair and trial.needs_deal() and not trial.is_over():
                    if not self._sole_writer():  # another instance may have taken seeds
                        self.meta.fair = await self.host.store.load_fair(self.id)
                    dealt = deal_next(self.meta, trial)
                try:
                    now = await self.host.store.append_action(
                        self.id, self.version, seat, canonical, client_id, events,
                        turn_of(trial), bool(trial.is_over()))
                except VersionConflict:
                    await self._catch_up_locked()  # another instance got there first
                    continue
                if dealt:
                    await self.host.store.save_fair(self.id, self.meta.fair)
                self._advance(seat, client_id, events, trial, now, by_human=not auto)
                if trial.is_over():  # this commit ended the match: history, stats, ratings
                    self.host.match_over(self)
                await self.host.moved(self)
                answer: Answer = {"version": self.version, "events": events}
                break
            else:
                raise Conflict("the table is busy: try again")
        self.after_change()
        return answer

    async def on_remote(self, version: int) -> None:
        """Another instance committed ``version``: read what we miss from the store."""
        if version <= self.version:
            return
        async with self.lock:
            if version > self.version:
                await self._catch_up_locked()

    async def reload_meta(self) -> None:
        """Read the seats and the rematch again (changed here or by another instance); end
        the connections of a seat whose token was withdrawn; tell the others what changed."""
        seats = await self.host.store.load_seats(self.id)
        if seats:
            old = {s.seat: s.token_hash for s in self.meta.seats}
            self.meta.seats = seats
            for s in seats:
                if old.get(s.seat) is not None and old.get(s.seat) != s.token_hash:
                    self.live.end(s.seat)
        t = await self.host.store.load_table(self.id)
        if t is not None:
            self.meta.rematch_id = t.rematch_id
            if self.meta.waiting and not t.waiting:  # started through another instance
                self.meta.waiting, self.meta.updated = False, t.updated
        if not await waiting.settle(self):  # the last invited friend came: it starts
            self.announce()

    # -- after a change ----------------------------------------------------------------------
    def after_change(self) -> None:
        """After a local commit: let bots move, restart the turn timer, notify."""
        self.kick()
        self.host.turn_changed(self)

    def kick(self) -> None:
        self.autoplay.kick()

    def idle(self) -> bool:
        return (not any(self.live.subs.values()) and self.autoplay.idle()
                and not self.lock.locked())
