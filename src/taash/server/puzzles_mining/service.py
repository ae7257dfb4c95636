"""Puzzles mined from the server's finished deals (docs/puzzles.md "Mined on the server").

- **Who may be mined.**  When a table's match is over (``Hub.match_ended``) its record goes to
  the queue if every human seat belongs to a player who turned on "my finished deals may become
  puzzles" (``players.puzzle_consent``, off by default), or if the table had bots alone.  A
  human seat held by its token alone (nobody to ask), a seat a person left to a bot before the
  end (``Hub.seat_freed``: their moves were theirs) and a table whose deals were dealt for
  another (an event's board: its deals are the event's, dealt under the board's name) are
  never queued.  Only the core's record is kept: the deals, no seat's name or player.
- **The job.**  A task of the service takes the queue in order and mines each match in a pool of
  worker processes (``mining_workers`` at once: off the event loop and its GIL): every finished
  deal searched with ``taash.puzzles.mine`` (``work.mine_match``).  The players' consent is
  asked again just before (turned off meanwhile: the match is dropped).  Each puzzle found is
  kept in ``mined_puzzles`` unless its id is there already, and the match leaves the queue in
  the same commit.  A match's first ``MAX_DEALS`` deals are searched, and a table of bots is
  not queued while ``MAX_WAITING`` matches wait, so the work stays bounded.  A record that
  cannot be mined is logged and dropped; a failure of another kind is tried again, up to
  ``TRIES``.
- **Off.**  ``taash serve --no-mining`` (``TAASH_NO_MINING``) or ``mining_workers`` 0: nothing
  is queued and nothing mined.
- **Counted.**  ``taash_puzzles_mined{game}`` (new puzzles kept) and
  ``taash_mining_matches{outcome}`` (queued, skipped, mined, failed, dropped) on ``/metrics``,
  and a log line per match mined.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter

from taash.puzzles.store import GAMES
from taash.server.config import Settings
from taash.server.puzzles_mining.work import mine_match
from taash.server.store.db import Store
from taash.server.store.mined_puzzles import Mined, MinedPuzzles
from taash.server.store.mining_queue import MiningQueue, QueuedMatch
from taash.server.worker_pools import drain_forever, stop_pool

if TYPE_CHECKING:
    from taash.server.tables.hub import Hub
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

BATCH = 8  # queued matches read at once
TRIES = 3  # a match whose mining fails this often (not for its record) is given up
POLL_S = 60.0  # the queue is looked at this often too (matches queued by another instance)
TIME_LIMIT = 1.0  # the solver's seconds a position, as `taash puzzles make`'s default
MAX_DEALS = 16  # a match's deals searched at most (the first ones): a bounded cost per match
MAX_WAITING = 500  # a table of bots is not queued while this many matches wait
OUTCOMES = ("queued", "skipped", "mined", "failed", "dropped")


def own_deals(table_id: str, record: Mapping[str, object]) -> bool:
    """Whether every deal of a record that says which table it was dealt for (its ``fair``
    object) was dealt for this table: an event's board is dealt for the board (``E-b``)."""
    deals = record.get("deals")
    for d in deals if isinstance(deals, list) else []:
        fair = d.get("fair") if isinstance(d, dict) else None
        if isinstance(fair, dict) and fair.get("table") != table_id:
            return False
    return True


def core_record(record: Mapping[str, object]) -> dict[str, object]:
    """What the queue keeps of a match's record: the game, its options, its first seat and its
    deals (deck, trump card, actions); no table, seat, name, player or fair-deal seed."""
    out = {k: v for k, v in record.items() if k not in ("table", "seats")}
    deals = out.get("deals")
    if isinstance(deals, list):
        out["deals"] = [{k: v for k, v in d.items() if k != "fair"} if isinstance(d, dict)
                        else d for d in deals]
    return out


class Mining:
    """The miner: the queue of finished matches and the job that searches them."""

    def __init__(self, settings: Settings, store: Store,
                 registry: CollectorRegistry | None = None,
                 executor: Executor | None = None) -> None:
        self.queue_store = MiningQueue(store)
        self.puzzles = MinedPuzzles(store)
        self.workers = 0 if settings.no_mining else settings.mining_workers
        self.time_limit = TIME_LIMIT
        self._executor = executor
        self._own_executor = executor is None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._draining = asyncio.Lock()
        self.clock: Callable[[], float] = time.time
        self.mined = Counter("taash_puzzles_mined", "new puzzles kept from finished matches",
                             ["game"], registry=registry)
        self.matches = Counter("taash_mining_matches",
                               "finished matches the puzzle miner was told of, by outcome",
                               ["outcome"], registry=registry)
        for outcome in OUTCOMES:  # every series shows from the first scrape, at zero
            self.matches.labels(outcome)
        for game in GAMES:
            self.mined.labels(game)

    @property
    def on(self) -> bool:
        return self.workers > 0

    def listen(self, hub: Hub) -> None:
        """Hear the hub: a match's end queues it, a seat left to a bot keeps it out."""
        hub.match_ended.append(self.match_over)
        hub.seat_freed.append(self.seat_left)

    # -- the job ----------------------------------------------------------------------------
    def start(self) -> None:
        if self.on and self._task is None:
            self._task = asyncio.create_task(self._loop(), name="taash-puzzle-mining")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        self._stop_pool()

    def _stop_pool(self) -> None:
        ex, self._executor = self._executor, None
        if self._own_executor:  # a match being mined is mined again next time
            stop_pool(ex)

    async def _loop(self) -> None:
        await drain_forever(self.drain, self._wake, POLL_S, "puzzles: the mining queue")

    # -- what the hub tells -----------------------------------------------------------------
    async def seat_left(self, table_id: str, seat: int) -> None:
        """A human seat was given to a bot: the table's match is not to be mined."""
        if self.on:
            try:
                await self.queue_store.seat_left(table_id, self.clock())
            except Exception:
                log.exception("table %s: the puzzle miner's mark of a seat left", table_id)

    async def match_over(self, room: Room) -> None:
        """A table's match is over: queued for the miner if its players let it be."""
        if not self.on:
            return
        try:
            meta = room.meta
            humans = [s.player_id for s in meta.seats if s.type == "human"]
            why = None
            if await self.queue_store.was_left(room.id):
                why = "a seat was left to a bot"
            elif None in humans:
                why = "a human seat without a player"
            else:
                ids = [p for p in humans if p is not None]
                if await self.queue_store.consenting(ids) != set(ids):
                    why = "not every player consented"
            if why is not None:
                self.matches.labels("skipped").inc()
                log.debug("puzzles: table %s not mined: %s", room.id, why)
                return
            await self.queue(room.id, meta.game, meta.updated,
                             room.state.record(hide_current=True),
                             [p for p in humans if p is not None])
        except Exception:  # the match is committed; say why it goes unmined
            log.exception("table %s: the puzzle miner's queue", room.id)

    async def queue(self, table_id: str, game: str, ended: float,
                    record: Mapping[str, object], player_ids: Sequence[str] = ()) -> bool:
        """Queue a finished match's record for the miner, on the consent of ``player_ids``
        (none: a table of bots); False if it was queued before, mining is off, or its deals
        were dealt for another table (an event's board)."""
        if not self.on:
            return False
        if not own_deals(table_id, record):
            self.matches.labels("skipped").inc()
            log.info("puzzles: table %s not mined: its deals were dealt for another table "
                     "(an event's board)", table_id)
            return False
        if not player_ids and await self.queue_store.waiting() >= MAX_WAITING:
            self.matches.labels("skipped").inc()  # bots' matches never pile up unmined
            return False
        added = await self.queue_store.enqueue(table_id, game, ended,
                                               json.dumps(core_record(record)), player_ids)
        if added:
            self.matches.labels("queued").inc()
        self._wake.set()
        return added

    async def drain(self) -> int:
        """Mine every queued match, ``mining_workers`` at once; how many were mined."""
        if not self.on:
            return 0
        async with self._draining:
            done, failed = 0, set[str]()
            gate = asyncio.Semaphore(self.workers)
            while True:
                batch = [q for q in await self.queue_store.queued(BATCH + len(failed))
                         if q.table_id not in failed]
                if not batch:
                    return done
                ok = await asyncio.gather(*(self._mine(q, gate) for q in batch))
                failed |= {q.table_id for q, good in zip(batch, ok, strict=True) if not good}
                done += sum(ok)

    def _pool(self) -> Executor:
        if self._executor is None:
            self._own_executor = True
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def _mine(self, q: QueuedMatch, gate: asyncio.Semaphore) -> bool:
        if q.players and await self.queue_store.consenting(q.players) != set(q.players):
            await self.queue_store.drop(q.table_id)  # consent turned off since its end
            self.matches.labels("dropped").inc()
            log.info("puzzles: table %s not mined: a player's consent was withdrawn",
                     q.table_id)
            return True
        async with gate:
            try:
                found = await asyncio.get_running_loop().run_in_executor(
                    self._pool(), mine_match, q.record, self.time_limit, MAX_DEALS)
            except Exception as e:
                await self._failed(q, e)
                return False
        rows = [Mined(p, q.table_id, self.clock()) for p in found]
        added = await self.queue_store.mined(q.table_id, rows)
        self.matches.labels("mined").inc()
        if added:
            self.mined.labels(q.game).inc(added)
        log.info("puzzles: table %s mined: %d puzzles found, %d new", q.table_id,
                 len({p.id for p in rows}), added)
        return True

    async def _failed(self, q: QueuedMatch, e: Exception) -> None:
        """A match's mining failed: given up at once if its record cannot be mined, else
        after ``TRIES``; logged either way."""
        self.matches.labels("failed").inc()
        if isinstance(e, BrokenProcessPool):  # a worker died: a new pool next time
            self._stop_pool()
        if isinstance(e, ValueError) or q.tries + 1 >= TRIES:
            log.error("puzzles: table %s given up, not mined: %s", q.table_id,
                      e if isinstance(e, ValueError) else f"{TRIES} tries, the last: {e!r}")
            await self.queue_store.drop(q.table_id)
        else:
            log.warning("puzzles: mining table %s failed (try %d of %d): %r", q.table_id,
                        q.tries + 1, TRIES, e)
            await self.queue_store.tried(q.table_id)
