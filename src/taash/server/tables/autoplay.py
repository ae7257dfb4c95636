"""Seats that move by themselves: bots, and the turn timer that plays for a human too slow.

A room's ``Autoplay`` runs at most one bot driver and one timer task; both submit through the
room like any client, with the version they acted on, so a move thought out for a table that
has moved on is refused (``Stale``) and thought out again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from taash.bots import Bot, make_bot
from taash.games.base import IllegalAction, MalformedAction, MatchState
from taash.server.errors import DomainError, Stale
from taash.server.store.db import SeatRow, TableRow
from taash.server.store.outage import unreachable
from taash.server.tables.pool import BotPool, DeadlineExceeded
from taash.server.tables.roomish import Played

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.tables.connections import Connections

log = logging.getLogger("taash.server")


def turn_deadline(meta: TableRow, state: MatchState) -> float | None:
    """When the turn timer lets a bot move for the seat to move (a time.time() value): None
    unless a timer is set and a human seat is to move."""
    if not meta.turn_timer_s or state.is_over() or meta.to_move is None \
            or meta.seats[meta.to_move].type != "human" or meta.waiting_for():
        return None
    return meta.updated + meta.turn_timer_s


def hard_move(game: str, seed: int, view: Mapping[str, object]) -> str | None:
    """One move of the hard bot (run in a worker process)."""
    action = make_bot(game, "hard", seed=seed).act(view)
    return None if action is None else str(action)


class Thinking(Protocol):
    def thinking(self, level: str) -> Callable[[], None]: ...


class AutoplayHost(Protocol):
    """What autoplay needs of the process that holds its room (``tables.hub.Hub`` is one)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def pool(self) -> BotPool: ...

    @property
    def metrics(self) -> Thinking: ...

    @property
    def closing(self) -> bool: ...


class Driven(Played, Protocol):
    """What autoplay needs of its room (``tables.room.Room`` is one): it reads the table and
    submits moves like any client."""

    @property
    def host(self) -> AutoplayHost: ...

    @property
    def human_seen(self) -> float: ...

    @property
    def live(self) -> Connections: ...

    def seat_row(self, seat: int) -> SeatRow: ...

    async def submit(self, seat: int, text: str, client_id: str | None = None,
                     expected: int | None = None, auto: bool = False) -> object: ...


class Autoplay:
    """One room's bot seats and turn timer."""

    def __init__(self, room: Driven) -> None:
        self.room = room
        self.bots: dict[tuple[int, str], Bot] = {}
        self.declined: set[tuple[int, int]] = set()  # (seat, version): no move wanted
        self.driver: asyncio.Task[None] | None = None
        self.timer: asyncio.Task[None] | None = None
        self.timer_version = -1
        self.fallbacks = 0  # hard moves that missed their deadline (the easy bot's instead)

    def tasks(self) -> list[asyncio.Task[None]]:
        return [t for t in (self.driver, self.timer) if t is not None]

    def idle(self) -> bool:
        return all(t.done() for t in self.tasks())

    def active(self) -> bool:
        """Whether the bots and the turn timer play: someone is connected, or a human moved
        or was here within the hub's idle time (plus the turn timer's, so a correspondence
        table's timer still plays for its slow human once).  A table nobody comes to stops
        rather than play on for no one."""
        room = self.room
        idle_after = room.host.settings.idle_after_s
        if idle_after <= 0 or room.live.any():
            return True
        return time.time() - room.human_seen < idle_after + (room.meta.turn_timer_s or 0.0)

    def moved_on(self, version: int) -> None:
        """The room reached ``version``: what bots declined before it no longer holds."""
        self.declined = {d for d in self.declined if d[1] >= version}

    def kick(self) -> None:
        """Let the bots move if one may, and arm the turn timer."""
        room = self.room
        if room.host.closing or room.state.is_over() or not self.active() \
                or room.meta.waiting_for():  # nobody moves before the invited friends come
            return
        if (self.driver is None or self.driver.done()) and any(
                room.seat_row(s).type == "bot" for s in room.state.actors()):
            self.driver = asyncio.create_task(self._drive(), name=f"bots-{room.id}")
        self._arm_timer()

    def _bot(self, seat: int, level: str) -> Bot:
        key = (seat, level)
        if key not in self.bots:
            meta = self.room.meta
            self.bots[key] = make_bot(meta.game, level, seed=meta.seed + seat)
        return self.bots[key]

    async def think(self, seat: int, level: str, state: MatchState) -> str | None:
        """The bot's move for ``seat``; a legal one whenever the seat must move."""
        room = self.room
        view = state.view(seat)
        done = room.host.metrics.thinking(level)
        try:
            if level == "hard":  # a search: in another process, off this loop and its GIL
                action = await self._search(seat, state, view)
            else:  # random and easy answer in well under a millisecond
                action = self._bot(seat, level).act(view)
        except Exception:
            log.exception("bot %s at table %s seat %d failed", level, room.id, seat)
            action = None
        finally:
            done()
        legal = view.get("legal_actions") or []
        if action is not None and action not in legal:
            log.warning("bot %s at table %s played %r, not legal", level, room.id, action)
            action = None
        if action is None and view.get("to_move") == seat and legal:
            action = legal[0]  # a seat that must move always moves
        return None if action is None else str(action)

    async def _search(self, seat: int, state: MatchState,
                      view: Mapping[str, object]) -> str | None:
        """The hard bot's move, from the hub's worker pool, by its deadline; past it, the
        easy bot's (the table never waits longer than the deadline for a search)."""
        room = self.room
        host = room.host
        seed = room.meta.seed + 1_000_003 * seat + room.version
        try:
            action: str | None = await host.pool.submit(
                room.id, hard_move, (room.meta.game, seed, view),
                host.pool.clock() + host.settings.bot_deadline_s)
            return action
        except DeadlineExceeded:
            self.fallbacks += 1
            log.info("table %s seat %d: the hard bot's search missed its deadline; "
                     "the easy bot moves", room.id, seat)
            return self._bot(seat, "easy").act(view)

    async def _drive(self) -> None:
        """Let bot seats move, in ``actors()`` order, until no bot wants to."""
        room = self.room
        while not room.host.closing:
            state, v = room.state, room.version
            if state.is_over() or not self.active():
                return
            moved = changed = False
            for seat in state.actors():
                row = room.seat_row(seat)
                if row.type != "bot" or (seat, v) in self.declined:
                    continue
                # the delay runs from the last change, so a restarted server does not wait
                # it out again
                delay = (room.meta.updated + room.meta.bot_delay_ms / 1000 - time.time()
                         if room.meta.live else 0.0)
                if delay > 0:
                    await asyncio.sleep(delay)
                    if room.version != v:
                        changed = True
                        break
                action = await self.think(seat, row.level or "easy", state)
                if room.version != v:
                    changed = True
                    break
                if action is None:
                    self.declined.add((seat, v))
                    continue
                try:
                    await room.submit(seat, action, expected=v, auto=True)
                    moved = True
                except Stale:
                    changed = True
                except (IllegalAction, MalformedAction) as e:
                    log.warning("bot at table %s seat %d: %s", room.id, seat, e)
                    self.declined.add((seat, v))
                    continue
                except DomainError:
                    await asyncio.sleep(0.05)
                    changed = True
                except Exception as e:  # a fault, or the database away: again in a moment
                    if not unreachable(e):
                        log.exception("table %s: a bot move could not be stored", room.id)
                    await asyncio.sleep(1)
                    changed = True
                break
            if not (moved or changed):
                return

    def _arm_timer(self) -> None:
        room = self.room
        m = room.meta
        deadline = turn_deadline(m, room.state)
        if deadline is None or m.to_move is None:
            return
        if self.timer is not None and not self.timer.done():
            if self.timer_version == room.version:
                return
            self.timer.cancel()
        delay = max(0.0, deadline - time.time())
        self.timer_version = room.version
        self.timer = asyncio.create_task(self._timer(room.version, m.to_move, delay),
                                         name=f"timer-{room.id}")

    async def _timer(self, version: int, seat: int, delay: float) -> None:
        room = self.room
        await asyncio.sleep(delay)
        if room.version != version or room.host.closing or not self.active():
            return
        action = await self.think(seat, room.host.settings.timer_bot_level, room.state)
        if action is None or room.version != version:
            return
        with contextlib.suppress(DomainError, IllegalAction, MalformedAction):
            await room.submit(seat, action, expected=version, auto=True)
