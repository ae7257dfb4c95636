"""Rooms: one serialized worker per table (after lichess's round actors).

A ``Room`` holds a table's match in memory, applies actions one at a time under its lock, commits
each to the store before answering, and pushes one numbered message per accepted action to every
seat connected to this process.  The ``Hub`` owns the rooms of one process, the store, the bus,
the notifier and the sweeper (bots that should move, turn timers, reminders).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from taash.games import get_game, new_match
from taash.games.base import IllegalAction, MalformedAction, RecordError
from taash.server.bus import Bus
from taash.server.config import Settings
from taash.server.notify import Notifier
from taash.server.store import ActionRow, SeatRow, Store, TableRow, VersionConflict

log = logging.getLogger("taash.server")

HISTORY = 24  # versions kept in memory per room, for clients that reconnect (the rest: replay)
MAX_CATCHUP = 2000  # further behind than this: a fresh full view instead of every event
QUEUE_MAX = 512  # messages waiting for one slow client before it is resynced
MAX_WATCHERS = 200  # spectators' live connections per table and process
BOT_LEVELS = ("random", "easy", "hard")


class ApiError(Exception):
    """An error answered as ``{"error": {"code", "rule", "message"}}``."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "rule": self.rule, "message": self.message}}


class Stale(Exception):
    """The table moved on while a bot or timer was thinking."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def derived_token(token: str, salt: str) -> str:
    """A token only the holder of ``token`` can compute (a rematch seat's token)."""
    mac = hmac.new(token.encode(), salt.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:32]


def new_table_id() -> str:
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def iso(t: float, timespec: str = "seconds") -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec=timespec).replace("+00:00", "Z")


def fork(state: Any) -> Any:
    """An independent copy of a match that still deals its next deals (its rng copied)."""
    return state.clone(keep_rng=True)


def turn_of(state: Any) -> int | None:
    """The seat whose turn it is (Goat: not the optional molodka holders)."""
    seat: int | None = state.turn()
    return seat


def build_match(t: TableRow) -> Any:
    return new_match(t.game, t.options, seed=t.seed, first_seat=t.first_seat)


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def hard_move(game: str, seed: int, view: dict[str, Any]) -> str | None:
    """One move of the hard bot (run in a worker process)."""
    from taash.bots import make_bot

    action = make_bot(game, "hard", seed=seed).act(view)
    return None if action is None else str(action)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark an outcome seen: its caller may have gone, the caller's caller was answered."""
    if not task.cancelled():
        task.exception()


@dataclass
class Step:
    version: int
    events: list[dict[str, Any]]
    state: Any


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


class Room:
    """One table in this process."""

    def __init__(self, hub: Hub, meta: TableRow, state: Any, version: int) -> None:
        self.hub = hub
        self.meta = meta
        self.id = meta.id
        self.state = state
        self.version = version
        self.lock = asyncio.Lock()
        self.history: deque[Step] = deque(maxlen=HISTORY)
        self.answers: dict[tuple[int, str], dict[str, Any]] = {}
        self.subs: dict[int | None, set[Subscriber]] = {}  # None: spectators
        # seats with live connections to other server instances:
        # instance -> (when heard, its message number, seats)
        self.remote: dict[str, tuple[float, int, frozenset[int]]] = {}
        self.announced: str | None = None
        self.bots: dict[tuple[int, str], Any] = {}
        self.declined: set[tuple[int, int]] = set()
        self.driver: asyncio.Task[None] | None = None
        self.timer: asyncio.Task[None] | None = None
        self.timer_version = -1
        self.last_used = time.monotonic()

    # -- what clients see --------------------------------------------------------------------
    def seat_row(self, seat: int) -> SeatRow:
        return self.meta.seats[seat]

    def seat_of_hash(self, h: str) -> int | None:
        for s in self.meta.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.seat
        return None

    def table_info(self) -> dict[str, Any]:
        m = self.meta
        return {
            "id": m.id, "game": m.game, "options": m.options, "live": m.live, "open": m.open,
            "bot_delay_ms": m.bot_delay_ms, "turn_timer_s": m.turn_timer_s,
            "turn_ends": self.turn_ends(),
            "created": iso(m.created), "updated": iso(m.updated), "version": self.version,
            "over": bool(self.state.is_over()), "to_move": m.to_move,
            "rematch": m.rematch_id, "rematch_of": m.rematch_of,
            "seats": [{"seat": s.seat, "type": s.type, "level": s.level, "name": s.name,
                       "claimed": s.claimed or s.type == "bot",
                       "connected": self.connected(s.seat)} for s in m.seats],
        }

    def connected(self, seat: int) -> bool:
        """Whether the seat has a live connection to this or another server instance."""
        return bool(self.subs.get(seat)) or any(seat in seats for _, _, seats in
                                                self.remote.values())

    def local_seats(self) -> list[int]:
        return sorted(s for s, subs in self.subs.items() if s is not None and subs)

    def public(self, state: Any = None, version: int | None = None,
               info: dict[str, Any] | None = None) -> dict[str, Any]:
        st = self.state if state is None else state
        v: dict[str, Any] = st.public_view()
        v["version"] = self.version if version is None else version
        v["table"] = self.table_info() if info is None else info
        v["id"] = self.id
        return v

    def seat_view(self, seat: int, state: Any = None, version: int | None = None,
                  info: dict[str, Any] | None = None) -> dict[str, Any]:
        st = self.state if state is None else state
        v: dict[str, Any] = st.view(seat)
        v["version"] = self.version if version is None else version
        v["table"] = self.table_info() if info is None else info
        return v

    def view_of(self, seat: int | None, state: Any = None, version: int | None = None,
                info: dict[str, Any] | None = None) -> dict[str, Any]:
        """A seat's view, or (``None``) the public view."""
        if seat is None:
            return self.public(state, version, info)
        return self.seat_view(seat, state, version, info)

    def view_message(self, seat: int | None) -> str:
        return dumps({"type": "view", "version": self.version, "view": self.view_of(seat)})

    def event_message(self, seat: int | None, step: Step,
                      info: dict[str, Any] | None = None) -> str:
        return dumps({"type": "event", "version": step.version, "events": step.events,
                      "view": self.view_of(seat, step.state, step.version, info)})

    def table_message(self, info: dict[str, Any] | None = None) -> str:
        return dumps({"type": "table", "version": self.version,
                      "table": self.table_info() if info is None else info})

    def announce(self) -> None:
        """Tell every live connection here the table's info, if its seats (who sits, who is
        connected, names) or its rematch changed since last told."""
        info = self.table_info()
        key = dumps([info["seats"], info["rematch"], info["rematch_of"], info["open"]])
        if key == self.announced:
            return
        self.announced = key
        text = self.table_message(info)
        for subs in self.subs.values():
            for sub in subs:
                sub.push(self.version, text, info=True)

    def record(self) -> dict[str, Any]:
        """The match's record; an unfinished deal without its deck or face-down cards."""
        rec: dict[str, Any] = self.state.record()
        if not self.state.is_over() and not self.state.needs_deal() and rec["deals"]:
            deal = rec["deals"][-1]
            deal.pop("deck", None)
            deal["hidden"] = True
            acts = []
            for a in deal["actions"]:
                verb, _, cards = a["action"].partition(":")
                if verb == "pass":
                    acts.append({"seat": a["seat"], "action": "pass",
                                 "count": len(cards.split(","))})
                else:
                    acts.append(a)
            deal["actions"] = acts
        rec["table"] = self.id
        return rec

    # -- live connections --------------------------------------------------------------------
    def check_watchers(self) -> None:
        if len(self.subs.get(None, ())) >= MAX_WATCHERS:
            raise ApiError(429, "rate_limited", "too many spectators at this table")

    def subscribe(self, seat: int | None) -> Subscriber:
        sub = Subscriber(seat)
        subs = self.subs.setdefault(seat, set())
        first = not subs
        subs.add(sub)
        self.last_used = time.monotonic()
        if first and seat is not None:
            self.announce()
            self.hub.presence_changed(self)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.subs.get(sub.seat, set())
        if sub not in subs:
            return
        subs.discard(sub)
        self.last_used = time.monotonic()
        if not subs and sub.seat is not None:
            self.announce()
            self.hub.presence_changed(self)

    def end_seat(self, seat: int) -> None:
        """Close the seat's live connections here (its token was withdrawn)."""
        for sub in self.subs.get(seat, ()):
            sub.ended = True
            sub.wake.set()

    def remote_presence(self, instance: str, seats: frozenset[int] | None, n: int = -1) -> None:
        """Another instance's live seats at this table, told in its message ``n`` (``None``:
        it is gone); an older message than one already heard changes nothing."""
        old = self.remote.get(instance)
        if old is not None and n >= 0 and n < old[1]:
            return
        if seats is None:
            self.remote.pop(instance, None)
        else:
            self.remote[instance] = (time.monotonic(), n, seats)
        self.announce()

    async def catch_up(self, seat: int | None, since: int | None) -> tuple[list[str], int]:
        """Messages bringing a client from ``since`` to now, and the version they reach; at
        ``since`` == now, the table message alone."""
        v = self.version
        if since is None or since < 0 or since > v:
            return [self.view_message(seat)], v
        if since == v:
            return [self.table_message()], v
        steps = [s for s in self.history if s.version > since]
        if steps and steps[0].version == since + 1 and steps[-1].version == v:
            info = self.table_info()
            return [self.event_message(seat, s, info) for s in steps], v
        if v - since > MAX_CATCHUP:
            return [self.view_message(seat)], v
        rows = await self.hub.store.load_actions(self.id, 0)
        state = build_match(self.meta)
        info = self.table_info()
        out = []
        for r in rows:
            if r.version > v:
                break
            events = state.apply(r.seat, r.action)
            if r.version > since:
                out.append(self.event_message(seat, Step(r.version, events, state), info))
        return out, v

    def _fan_out(self, step: Step) -> None:
        info: dict[str, Any] | None = None
        for seat, subs in self.subs.items():
            if not subs:
                continue
            if info is None:
                info = self.table_info()
            text = self.event_message(seat, step, info)
            for sub in subs:
                sub.push(step.version, text)

    # -- applying actions --------------------------------------------------------------------
    def _advance(self, seat: int, action: str, client_id: str | None,
                 events: list[dict[str, Any]], state: Any, updated: float) -> Step:
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
        self.declined = {d for d in self.declined if d[1] >= self.version}
        self.last_used = time.monotonic()
        self._fan_out(step)
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
            self._advance(r.seat, r.action, r.client_id, events, state, time.time())

    async def _catch_up_locked(self) -> None:
        self.replay_rows(await self.hub.store.load_actions(self.id, self.version))

    async def submit(self, seat: int, text: str, client_id: str | None = None,
                     expected: int | None = None) -> dict[str, Any]:
        """Apply, commit and publish one action; ``{"version", "events"}``.  IllegalAction or
        MalformedAction if it is not legal now; Stale if ``expected`` is no longer the
        version.  A caller that goes away (a closed socket) does not cut it short: once
        started, an action is committed and pushed to every seat."""
        task = asyncio.ensure_future(self._submit(seat, text, client_id, expected))
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    async def _submit(self, seat: int, text: str, client_id: str | None,
                      expected: int | None) -> dict[str, Any]:
        async with self.lock:
            for _ in range(5):
                if client_id is not None:
                    done = self.answers.get((seat, client_id))
                    if done is not None:
                        return done
                if expected is not None and expected != self.version:
                    raise Stale
                trial = fork(self.state)
                canonical = trial.action_text(trial.action_id(seat, text))
                events = trial.apply(seat, canonical)
                try:
                    now = await self.hub.store.append_action(
                        self.id, self.version, seat, canonical, client_id, events,
                        turn_of(trial), bool(trial.is_over()))
                except VersionConflict:
                    await self._catch_up_locked()  # another instance got there first
                    continue
                self._advance(seat, canonical, client_id, events, trial, now)
                await self.hub.bus.publish({"k": "act", "t": self.id, "v": self.version})
                answer = {"version": self.version, "events": events}
                break
            else:
                raise ApiError(409, "conflict", "the table is busy: try again")
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
        seats = await self.hub.store.load_seats(self.id)
        if seats:
            old = {s.seat: s.token_hash for s in self.meta.seats}
            self.meta.seats = seats
            for s in seats:
                if old.get(s.seat) is not None and old.get(s.seat) != s.token_hash:
                    self.end_seat(s.seat)
        t = await self.hub.store.load_table(self.id)
        if t is not None:
            self.meta.rematch_id = t.rematch_id
        self.announce()

    # -- bots, timers, notices ---------------------------------------------------------------
    def after_change(self) -> None:
        """After a local commit: let bots move, restart the turn timer, notify."""
        self.kick()
        self._notify_turn()

    def kick(self) -> None:
        if self.hub.closing or self.state.is_over():
            return
        if (self.driver is None or self.driver.done()) and any(
                self.seat_row(s).type == "bot" for s in self.state.actors()):
                self.driver = asyncio.create_task(self._drive(), name=f"bots-{self.id}")
        self._arm_timer()

    def _bot(self, seat: int, level: str) -> Any:
        from taash.bots import make_bot

        key = (seat, level)
        if key not in self.bots:
            self.bots[key] = make_bot(self.meta.game, level, seed=self.meta.seed + seat)
        return self.bots[key]

    async def _think(self, seat: int, level: str, state: Any) -> str | None:
        view = state.view(seat)
        try:
            if level == "hard":  # a search: in another process, off this loop and its GIL
                seed = self.meta.seed + 1_000_003 * seat + self.version
                action = await self.hub.think_hard(self.meta.game, seed, view)
            else:  # random and easy answer in well under a millisecond
                action = self._bot(seat, level).act(view)
        except Exception:
            log.exception("bot %s at table %s seat %d failed", level, self.id, seat)
            action = None
        legal = view.get("legal_actions") or []
        if action is not None and action not in legal:
            log.warning("bot %s at table %s played %r, not legal", level, self.id, action)
            action = None
        if action is None and view.get("to_move") == seat and legal:
            action = legal[0]  # a seat that must move always moves
        return None if action is None else str(action)

    async def _drive(self) -> None:
        """Let bot seats move, in ``actors()`` order, until no bot wants to."""
        while not self.hub.closing:
            state, v = self.state, self.version
            if state.is_over():
                return
            moved = changed = False
            for seat in state.actors():
                row = self.seat_row(seat)
                if row.type != "bot" or (seat, v) in self.declined:
                    continue
                # the delay runs from the last change, so a restarted server does not wait
                # it out again
                delay = (self.meta.updated + self.meta.bot_delay_ms / 1000 - time.time()
                         if self.meta.live else 0.0)
                if delay > 0:
                    await asyncio.sleep(delay)
                    if self.version != v:
                        changed = True
                        break
                action = await self._think(seat, row.level or "easy", state)
                if self.version != v:
                    changed = True
                    break
                if action is None:
                    self.declined.add((seat, v))
                    continue
                try:
                    await self.submit(seat, action, expected=v)
                    moved = True
                except Stale:
                    changed = True
                except (IllegalAction, MalformedAction) as e:
                    log.warning("bot at table %s seat %d: %s", self.id, seat, e)
                    self.declined.add((seat, v))
                    continue
                except ApiError:
                    await asyncio.sleep(0.05)
                    changed = True
                except Exception:
                    log.exception("table %s: a bot move could not be stored", self.id)
                    await asyncio.sleep(1)
                    changed = True
                break
            if not (moved or changed):
                return

    def turn_deadline(self) -> float | None:
        """When the turn timer lets a bot move for the seat to move (a time.time() value):
        None unless a timer is set and a human seat is to move."""
        m = self.meta
        if not m.turn_timer_s or self.state.is_over() or m.to_move is None \
                or self.seat_row(m.to_move).type != "human":
            return None
        return m.updated + m.turn_timer_s

    def turn_ends(self) -> str | None:
        """``turn_deadline`` as the table info gives it (ISO time)."""
        deadline = self.turn_deadline()
        return None if deadline is None else iso(deadline, "milliseconds")

    def _arm_timer(self) -> None:
        m = self.meta
        deadline = self.turn_deadline()
        if deadline is None or m.to_move is None:
            return
        if self.timer is not None and not self.timer.done():
            if self.timer_version == self.version:
                return
            self.timer.cancel()
        delay = max(0.0, deadline - time.time())
        self.timer_version = self.version
        self.timer = asyncio.create_task(self._timer(self.version, m.to_move, delay),
                                         name=f"timer-{self.id}")

    async def _timer(self, version: int, seat: int, delay: float) -> None:
        await asyncio.sleep(delay)
        if self.version != version or self.hub.closing:
            return
        action = await self._think(seat, self.hub.settings.timer_bot_level, self.state)
        if action is None or self.version != version:
            return
        with contextlib.suppress(Stale, IllegalAction, MalformedAction, ApiError):
            await self.submit(seat, action, expected=version)

    def _notify_turn(self) -> None:
        seat = self.meta.to_move
        if seat is None or self.meta.over:
            return
        row = self.seat_row(seat)
        if row.type != "human" or not (row.webhook or row.email) or self.connected(seat):
            return
        self.hub.spawn(self.hub.notice(self, seat, self.version, "notified"))

    def idle(self) -> bool:
        return (not any(self.subs.values()) and (self.driver is None or self.driver.done())
                and (self.timer is None or self.timer.done()) and not self.lock.locked())


class Hub:
    """Everything one server process shares: rooms, store, bus, notifier, sweeper."""

    def __init__(self, settings: Settings, store: Store, bus: Bus | None = None) -> None:
        self.settings = settings
        self.store = store
        self.bus = bus or Bus()
        self.notifier = Notifier(settings.smtp_url, settings.webhook_allow_private)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False
        self.closed = asyncio.Event()
        self._procs: Any = None
        self.public_url = settings.public_url or ""
        self.instance = secrets.token_hex(6)  # names this process on the bus
        self._presence_n = 0  # numbers its presence messages: a late one is ignored
        self._presence: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.bus.start(self.on_bus)
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="taash-sweeper")
        if self.bus.shared:
            self._presence = asyncio.create_task(self._presence_loop(), name="taash-presence")

    async def think_hard(self, game: str, seed: int, view: dict[str, Any]) -> str | None:
        """The hard bot's move, computed in a worker process."""
        loop = asyncio.get_running_loop()
        if self._procs is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            workers = max(1, (os.cpu_count() or 2) - 1)
            self._procs = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"))
        try:
            return await loop.run_in_executor(self._procs, hard_move, game, seed, view)
        except BrokenProcessPool:
            self._procs = None
            return await asyncio.to_thread(hard_move, game, seed, view)

    def begin_close(self) -> None:
        """Stop serving live connections: every stream and socket ends."""
        self.closing = True
        self.closed.set()
        for room in self.rooms.values():
            for subs in room.subs.values():
                for sub in subs:
                    sub.wake.set()

    async def close(self) -> None:
        self.begin_close()
        if self.bus.shared:  # the others forget this instance's connections now
            await self.bus.publish({"k": "gone", "i": self.instance})
        tasks = [t for t in [self._sweeper, self._presence, *self._tasks] if t is not None]
        for room in list(self.rooms.values()):
            tasks += [t for t in (room.driver, room.timer) if t is not None]
        for task in tasks:
            task.cancel()
        # let them unwind (a cancelled query returns its connection) before the store closes
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.bus.close()
        await self.notifier.close()
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- rooms -------------------------------------------------------------------------------
    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 24:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
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
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        return loaded

    async def _load(self, table_id: str) -> Room | None:
        meta = await self.store.load_table(table_id)
        if meta is None:
            return None
        rows = await self.store.load_actions(table_id, 0)
        state = build_match(meta)
        keep = max(0, len(rows) - HISTORY)
        room = Room(self, meta, state, 0)
        for r in rows[:keep]:  # replay fast, without keeping a state per version
            state.apply(r.seat, r.action)
            if r.client_id is not None:
                room.answers[(r.seat, r.client_id)] = {"version": r.version, "events": r.events}
            room.version = r.version
        room.replay_rows(rows[keep:])
        room.meta.updated = meta.updated
        self.rooms[table_id] = room
        if self.bus.shared:  # who is connected to this table through the other instances?
            self.spawn(self.bus.publish({"k": "who", "t": table_id, "i": self.instance}))
        return room

    async def on_bus(self, msg: dict[str, Any]) -> None:
        kind = msg.get("k")
        if kind in ("here", "gone", "who"):
            self.on_presence(msg)
            return
        room = self.rooms.get(str(msg.get("t")))
        if room is None:
            return
        if kind == "act":
            await room.on_remote(int(msg.get("v", 0)))
        elif kind == "meta":
            await room.reload_meta()

    async def meta_changed(self, room: Room) -> None:
        await self.bus.publish({"k": "meta", "t": room.id})

    # -- presence: which seats are connected through the other instances ---------------------
    # Each instance tells the others its connected seats per table when they change, again
    # every few seconds while any are, and that it is gone when it stops; what is not heard
    # again in time is forgotten (an instance that was killed).
    def presence_changed(self, room: Room) -> None:
        if self.bus.shared and not self.closing:
            self.spawn(self.bus.publish(self.here({room.id: room.local_seats()})))

    def here(self, rooms: dict[str, list[int]]) -> dict[str, Any]:
        self._presence_n += 1
        return {"k": "here", "i": self.instance, "n": self._presence_n, "rooms": rooms}

    def on_presence(self, msg: dict[str, Any]) -> None:
        inst = str(msg.get("i"))
        if inst == self.instance:
            return
        kind = msg.get("k")
        if kind == "gone":
            for room in self.rooms.values():
                if inst in room.remote:
                    room.remote_presence(inst, None)
        elif kind == "who":
            asked = self.rooms.get(str(msg.get("t")))
            if asked is not None and asked.local_seats():
                self.presence_changed(asked)
        else:
            rooms = msg.get("rooms")
            n = msg.get("n")
            if not isinstance(rooms, dict) or not isinstance(n, int):
                return
            for tid, seats in rooms.items():
                told = self.rooms.get(str(tid))
                if told is not None and isinstance(seats, list):
                    told.remote_presence(inst, frozenset(int(s) for s in seats), n)

    def forget_presence(self, before: float) -> None:
        """Forget what other instances told of their seats before that (monotonic) time."""
        for room in list(self.rooms.values()):
            for inst, (seen, _, _) in list(room.remote.items()):
                if seen < before:
                    room.remote_presence(inst, None)

    def presence_interval(self) -> float:
        return max(0.5, min(20.0, 2 * self.settings.ping_s))

    async def _presence_loop(self) -> None:
        every = self.presence_interval()
        while not self.closing:
            await asyncio.sleep(every)
            try:
                mine = {r.id: seats for r in self.rooms.values() if (seats := r.local_seats())}
                items = list(mine.items())
                for i in range(0, len(items), 500):
                    await self.bus.publish(self.here(dict(items[i:i + 500])))
                self.forget_presence(time.monotonic() - 3 * every - 1)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence")

    # -- seats and tokens --------------------------------------------------------------------
    async def authorize(self, table_id: str, token: str | None,
                        seat: int | None = None) -> tuple[Room, int]:
        if not token:
            raise ApiError(401, "unauthorized",
                           "a seat token is needed: Authorization: Bearer TOKEN")
        room = await self.room(table_id)
        h = token_hash(token)
        found = room.seat_of_hash(h)
        if found is None:
            where = await self.store.seat_by_token(h)
            if where is None:
                raise ApiError(401, "unauthorized", "unknown or withdrawn seat token")
            if where[0] != table_id:
                raise ApiError(403, "forbidden", "this token is for another table")
            await room.reload_meta()  # changed by another instance
            found = room.seat_of_hash(h)
            if found is None:
                raise ApiError(401, "unauthorized", "unknown or withdrawn seat token")
        if seat is not None and seat != found:
            raise ApiError(403, "forbidden", f"this token is for seat {found}, not seat {seat}")
        row = room.seat_row(found)
        if not row.claimed:
            row.claimed = True
            if room.meta.open:  # only the lobby asks which seats are taken
                await self.store.update_seat(table_id, found, claimed=True)
                await self.meta_changed(room)
            room.announce()
        room.last_used = time.monotonic()
        return room, found

    async def watch_or_authorize(self, table_id: str, token: str | None,
                                 seat: int | None = None) -> tuple[Room, int | None]:
        """A seat's room and seat, or without a token a spectator's: ``(room, None)``."""
        if not token and seat is None:
            return await self.room(table_id), None
        return await self.authorize(table_id, token, seat)

    async def create_table(self, game: str, options: Any, seat_specs: list[dict[str, Any]] | None,
                           live: bool, open_: bool, bot_delay_ms: int | None,
                           turn_timer_s: float | None, first_seat: int | None,
                           rematch_of: str | None = None) -> tuple[TableRow, dict[int, str]]:
        try:
            cls = get_game(game)
            opts = cls.check_options(options)
        except RecordError as e:
            raise ApiError(400, "bad_request", str(e)) from None
        n = cls.num_seats
        specs = seat_specs if seat_specs is not None else [{"type": "human"}] * n
        if len(specs) != n:
            raise ApiError(400, "bad_request", f"{game} has {n} seats, not {len(specs)}")
        if first_seat is not None and not 0 <= first_seat < n:
            raise ApiError(400, "bad_request", f"first_seat must be a seat 0..{n - 1}")
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for i, spec in enumerate(specs):
            kind = spec.get("type")
            if kind == "bot":
                level = spec.get("level") or "easy"
                if level not in BOT_LEVELS:
                    raise ApiError(400, "bad_request", f"seat {i}: unknown bot level {level!r} "
                                   f"(levels: {', '.join(BOT_LEVELS)})")
                rows.append(SeatRow(i, "bot", level=level, name=spec.get("name"), claimed=True))
            elif kind == "human":
                if rematch_of is None:
                    tokens[i] = new_token()
                rows.append(SeatRow(i, "human", name=spec.get("name"),
                                    token_hash=token_hash(tokens[i]) if i in tokens else None))
            else:
                raise ApiError(400, "bad_request", f"seat {i}: type must be human or bot")
        if open_:  # the creator holds the first human seat; the others are free to join
            for r in rows:
                if r.type == "human":
                    r.claimed = True
                    break
        now = time.time()
        fs = first_seat if first_seat is not None else secrets.randbelow(n)
        t = TableRow(id=new_table_id(), game=game, options=opts, seed=secrets.randbits(62),
                     first_seat=fs, live=live, open=open_,
                     bot_delay_ms=(self.settings.bot_delay_ms if live else 0)
                     if bot_delay_ms is None else bot_delay_ms,
                     turn_timer_s=turn_timer_s, created=now, updated=now, rematch_of=rematch_of,
                     seats=rows)
        state = build_match(t)
        t.to_move = turn_of(state)
        if rematch_of is None:
            await self.store.create_table(t)
            self._install(t, state)
        return t, tokens

    def _install(self, t: TableRow, state: Any) -> Room:
        room = Room(self, t, state, 0)
        self.rooms[t.id] = room
        room.kick()
        return room

    async def join(self, table_id: str, seat: int | None, name: str | None) -> tuple[int, str]:
        room = await self.room(table_id)
        await room.reload_meta()
        if not room.meta.open:
            raise ApiError(403, "forbidden", "this table is not open to join: ask for an invite")
        if room.state.is_over():
            raise ApiError(409, "full", "this match is over")
        free = [s.seat for s in room.meta.seats if s.type == "human" and not s.claimed]
        if seat is not None:
            if seat not in free:
                raise ApiError(409, "full", f"seat {seat} is not free")
            free = [seat]
        for s in free:
            token = new_token()
            values: dict[str, Any] = {"token_hash": token_hash(token), "claimed": True}
            if name:
                values["name"] = name
            if await self.store.update_seat(table_id, s, only_unclaimed=True, **values):
                await room.reload_meta()
                await self.meta_changed(room)
                return s, token
        raise ApiError(409, "full", "no free seat at this table")

    async def leave(self, room: Room, seat: int) -> None:
        await self.store.update_seat(room.id, seat, type="bot", level="easy", token_hash=None,
                                     claimed=True, webhook=None, email=None)
        await room.reload_meta()
        await self.meta_changed(room)
        room.kick()

    async def set_notify(self, room: Room, seat: int, webhook: str | None,
                         email: str | None) -> None:
        await self.store.update_seat(room.id, seat, webhook=webhook, email=email)
        await room.reload_meta()
        await self.meta_changed(room)

    async def rematch(self, room: Room, seat: int, token: str) -> tuple[str, str]:
        if not room.state.is_over():
            raise ApiError(409, "not_over", "a rematch is for a finished match")
        m = room.meta
        specs = [{"type": s.type, "level": s.level, "name": s.name} for s in m.seats]
        new, _ = await self.create_table(m.game, m.options, specs, m.live, False,
                                         m.bot_delay_ms, m.turn_timer_s,
                                         (m.first_seat + 1) % len(specs), rematch_of=m.id)
        rid = await self.store.set_rematch(m.id, new)
        m.rematch_id = rid
        room.announce()
        if rid == new.id:
            await self.meta_changed(room)
        target = await self.room(rid)
        if target.seat_row(seat).type != "human":
            raise ApiError(409, "conflict", "your seat in the rematch is a bot's")
        tok = derived_token(token, f"rematch:{rid}:{seat}")
        h = token_hash(tok)
        row = target.seat_row(seat)
        if row.token_hash != h:
            if row.token_hash is not None:
                raise ApiError(409, "conflict", "this seat of the rematch is taken")
            await self.store.update_seat(rid, seat, token_hash=h, claimed=True)
            await target.reload_meta()
            await self.meta_changed(target)
        return rid, tok

    async def my_tables(self, tokens: Sequence[str]) -> list[dict[str, Any]]:
        rows = await self.store.my_tables([token_hash(t) for t in tokens])
        return [{"id": r["id"], "game": r["game"], "seat": r["seat"],
                 "your_turn": (not r["over"]) and r["to_move"] == r["seat"],
                 "over": bool(r["over"]), "version": r["version"], "live": bool(r["live"]),
                 "updated": iso(r["updated"])} for r in rows]

    async def lobby(self) -> list[dict[str, Any]]:
        return [{"id": t.id, "game": t.game, "options": t.options, "free_seats": free,
                 "created": iso(t.created), "live": t.live}
                for t, free in await self.store.lobby()]

    # -- notices and the sweeper -------------------------------------------------------------
    async def notice(self, room: Room, seat: int, version: int, kind: str) -> None:
        try:
            where = await self.store.claim_notice(room.id, seat, version, kind)
        except Exception:
            log.exception("notice for table %s", room.id)
            return
        if where is None:
            return
        webhook, email = where
        url = f"{self.public_url}/t/{room.id}?seat={seat}"
        what = "reminder" if kind == "reminded" else "your_turn"
        payload = {"type": what, "table": room.id, "game": room.meta.game, "seat": seat,
                   "version": version, "url": url}
        game = room.meta.game
        subject = (f"taash: still your turn ({game})" if what == "reminder"
                   else f"taash: your turn ({game})")
        body = (f"It is your turn at table {room.id} ({game}, seat {seat}).\n\n"
                f"Open your invite link to play: {url}\n")
        self.notifier.send(webhook, email, payload, subject, body)

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
        now = time.time()
        stalled = 0.0 if starting else max(10.0, 3 * self.settings.sweep_s)
        for table_id in await self.store.tables_to_drive(now, stalled):
            try:
                room = await self.room(table_id)
            except ApiError:
                continue
            room.kick()
        for table_id, seat, version in await self.store.waiting_humans(
                now - self.settings.remind_after_s):
            try:
                room = await self.room(table_id)
            except ApiError:
                continue
            if room.version == version:
                await self.notice(room, seat, version, "reminded")
        for table_id, room in list(self.rooms.items()):
            if room.idle() and time.monotonic() - room.last_used > 600:
                del self.rooms[table_id]
