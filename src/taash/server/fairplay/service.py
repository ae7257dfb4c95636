"""Fair play in the server (docs/fairplay.md, "In the server"): the detector over finished
matches in the background, the moderators' review queue and their decisions, the ban from rated
play.  The rest of the server reaches fair play only through this service.

- **The job.**  When a table's match is over (``Hub.match_ended``) its record, every card
  shown, is queued in the store (never a deal still being played); a task of the service
  claims the queued matches in order (a lease in the store: of several instances sharing the
  database, one scans each match) and runs ``taash.fairplay.detect`` on each in a pool of worker
  processes (``fairplay_workers`` at once: off the event loop and its GIL), then weighs each of
  its players over their most recent finished deals (``fairplay_window_deals``, those since
  their last decided case).  A player with at least ``fairplay_min_deals`` deals whose p-value
  is at or below ``fairplay_alpha`` gets a case in the review queue, with the evidence and the
  deals that weigh most; an open case's evidence is refreshed as their deals come in.  Only
  human seats bound to a player are judged: bots never are, nor a table for pass and play.
  **Partnerships** too (``Weighing.weigh_pair``): the two players of a side of Court Piece or
  Goat, both human, are weighed together over their deals as partners (partner-fit; in Goat
  their open-best opportunities pooled), and a flagged partnership gets a case of two; a side
  with a bot is never scored.
- **Moderators** (a role on the player's account, granted by the host with ``taash moderator
  grant``, never through the API) read the queue and a case, and decide it: cleared, warned or
  banned, with a note, recorded with who and when, and the player told (``Decisions``); a
  moderator may lift a ban, with a reason.  Nobody is banned but by a moderator.
- **A ban from rated play**: the player may no longer sit at a table that could be rated
  (``tables`` asks ``bars``), a match with them is not rated (``social`` asks ``banned``), and
  their rated results are taken out of the ratings, their opponents' replayed without them
  (``unrate``: ``Social.unrate``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING

from taash.fairplay.detect import Reference
from taash.server.config import Settings
from taash.server.fairplay.decisions import MODERATOR, Decisions, Tell
from taash.server.fairplay.scan import scan_match
from taash.server.fairplay.weighing import Weighing
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore, ScanRow
from taash.server.store.fairplay_pairs import PairScanRow
from taash.server.store.fairplay_queue import QueuedMatch
from taash.server.tables import wire
from taash.server.worker_pools import drain_forever, stop_pool

if TYPE_CHECKING:
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

TRIES = 3  # a match whose scan fails this often is given up (and logged)
POLL_S = 60.0  # the queue is looked at this often too (matches queued by another instance)
CLAIM_S = 120.0  # a match claimed for its scan is held this long, renewed while it runs
BANNED = ("you are banned from rated play (a moderator's decision after a fair-play review): "
          "you may still play unrated, at a table for pass and play or offline")


class FairPlay(Decisions, Weighing):
    """The fair-play job, the weighing of players and partnerships (``Weighing``), the
    moderators' queue and decisions (``Decisions``), and the bans."""

    def __init__(self, settings: Settings, store: Store,
                 unrate: Callable[[str], Awaitable[int]],
                 executor: Executor | None = None, tell: Tell | None = None) -> None:
        self.settings = settings
        self.store = FairPlayStore(store)
        self.unrate = unrate  # social: take a player's rated results out of the ratings
        self.tell = tell  # notify: push a decision to the player decided about
        self.instance = secrets.token_hex(6)  # names this process's claims on the queue
        self.workers = settings.fairplay_workers
        self._executor = executor
        self._own_executor = executor is None
        self._reference: Reference | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._draining = asyncio.Lock()
        self._weighing = asyncio.Lock()
        self.clock: Callable[[], float] = time.time

    # -- the job ----------------------------------------------------------------------------
    def start(self) -> None:
        if self.workers > 0 and self._task is None:
            self._task = asyncio.create_task(self._loop(), name="taash-fairplay")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._own_executor:  # a scan under way starts again next time
            ex, self._executor = self._executor, None
            stop_pool(ex)
        try:  # this instance's claims given back for the others (else they run out)
            await self.store.release(self.instance)
        except Exception as e:
            log.warning("fair play: claims not given back at the stop (they run out): %r", e)

    async def _loop(self) -> None:
        await drain_forever(self.drain, self._wake, POLL_S, "fair play: the queue")

    async def match_over(self, room: Room) -> None:
        """A table's match is over (the hub tells): its record goes to the queue, unless
        nobody there is a player to judge or the table is for pass and play."""
        meta = room.meta
        if meta.pass_and_play or not any(s.type == "human" and s.player_id for s in meta.seats):
            return
        try:
            await self.queue(room.id, meta.game, meta.updated, wire.record(room))
        except Exception:  # the match is committed; say why it goes unscanned
            log.exception("table %s: fair play's queue", room.id)

    async def queue(self, table_id: str, game: str, ended: float,
                    record: Mapping[str, object]) -> bool:
        """Queue a finished match's record (each human seat's ``player`` the player's id) for
        the detector; False if it was queued before."""
        added = await self.store.enqueue(table_id, game, ended, json.dumps(record))
        self._wake.set()
        return added

    async def drain(self) -> int:
        """Scan every queued match no other instance holds, ``fairplay_workers`` at once, and
        weigh their players; how many matches were scanned here."""
        if self.workers <= 0:
            return 0
        async with self._draining:
            return sum(await asyncio.gather(*(self._worker() for _ in range(self.workers))))

    async def _worker(self) -> int:
        """Claim a match, scan it, again, until none is left that nobody holds."""
        done = 0
        while (q := await self.store.claim(self.instance, self.clock(), CLAIM_S)) is not None:
            done += await self._scan(q)
        return done

    async def _holding(self, table_id: str) -> None:
        """Renew the claim on a match while its scan runs (an instance that stops renews no
        more, and its claim runs out for another to take the match)."""
        while True:
            await asyncio.sleep(CLAIM_S / 3)
            if not await self.store.renew(table_id, self.instance, self.clock() + CLAIM_S):
                return

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def _scan(self, q: QueuedMatch) -> bool:
        holding = asyncio.create_task(self._holding(q.table_id))
        try:
            found = await asyncio.get_running_loop().run_in_executor(
                self._pool(), scan_match, q.record, self.settings.fairplay_solver_ms)
        except Exception as e:
            if q.tries + 1 >= TRIES:
                log.error("fair play: table %s given up after %d tries: %r", q.table_id,
                          TRIES, e)
                await self.store.drop(q.table_id)
            else:  # tried again at a later pass, by whichever instance takes it then
                await self.store.tried(q.table_id, self.clock() + POLL_S)
            return False
        finally:
            holding.cancel()
        rows = [ScanRow(player, q.table_id, q.game, q.ended, deals, judged, ops)
                for player, deals, judged, ops in found[0]]
        pairs = [PairScanRow(a, b, q.table_id, q.game, q.ended, deals, judged, ops)
                 for a, b, deals, judged, ops in found[1]]
        await self.store.scanned(q.table_id, rows, pairs)
        for r in rows:
            await self.weigh(r.player_id)
        for p in pairs:
            await self.weigh_pair(p.player_id, p.partner_id)
        return True


    # -- what the other domains ask ---------------------------------------------------------
    async def banned(self, player_ids: Sequence[str]) -> set[str]:
        """Which of these players are banned from rated play (social: not rated)."""
        return await self.store.banned(player_ids)

    async def bars(self, player_id: str) -> str | None:
        """Why a player may not sit at a table that could be rated (tables), None if they may."""
        return BANNED if await self.store.banned([player_id]) else None


class Moderators:
    """The moderator role on players' accounts, as the host's command (``taash moderator``)
    grants, revokes and lists it: never through the API."""

    def __init__(self, store: Store) -> None:
        self.store = FairPlayStore(store)

    async def find(self, who: str) -> list[tuple[str, str]]:
        """(id, name) of the players whose id or name (any case) is ``who``."""
        return await self.store.find_players(who)

    async def grant(self, player_id: str) -> bool:
        return await self.store.grant(player_id, MODERATOR, time.time())

    async def revoke(self, player_id: str) -> bool:
        return await self.store.revoke(player_id, MODERATOR)

    async def listed(self) -> list[tuple[str, str, float]]:
        return await self.store.holders(MODERATOR)
