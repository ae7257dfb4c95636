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
import math
import multiprocessing
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import suppress
from typing import TYPE_CHECKING

from taash.fairplay.detect import Opportunity, Reference, load_reference, verdict
from taash.server.config import Settings
from taash.server.fairplay.decisions import MODERATOR, Decisions, Tell
from taash.server.fairplay.scan import scan_match
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore, ScanRow
from taash.server.store.fairplay_queue import QueuedMatch
from taash.server.tables import wire
from taash.server.worker_pools import stop_pool

if TYPE_CHECKING:
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

TRIES = 3  # a match whose scan fails this often is given up (and logged)
POLL_S = 60.0  # the queue is looked at this often too (matches queued by another instance)
CLAIM_S = 120.0  # a match claimed for its scan is held this long, renewed while it runs
BANNED = ("you are banned from rated play (a moderator's decision after a fair-play review): "
          "you may still play unrated, at a table for pass and play or offline")


def _iso(t: float) -> str:
    return wire.iso(t)


class FairPlay(Decisions):
    """The fair-play job, the moderators' queue and decisions (``Decisions``), and the bans."""

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
        while True:
            try:
                await self.drain()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("fair play: the queue")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_S)
            self._wake.clear()

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
                for player, deals, judged, ops in found]
        await self.store.scanned(q.table_id, rows)
        for r in rows:
            await self.weigh(r.player_id)
        return True

    def reference(self) -> Reference:
        if self._reference is None:
            self._reference = load_reference()
        return self._reference

    async def weigh(self, player_id: str) -> str | None:
        """Weigh a player over their recent finished deals: open a case if they are flagged,
        or bring their open case's evidence up to date.  The case's id, if there is one."""
        async with self._weighing:
            if await self.store.banned([player_id]):
                return None  # decided already
            since = await self.store.last_decided(player_id)
            rows = await self.store.scans(player_id, since if since is not None else -math.inf,
                                          self.settings.fairplay_window_deals)
            picked: list[ScanRow] = []
            deals = 0
            for r in rows:  # the newest first, up to the window
                if deals >= self.settings.fairplay_window_deals:
                    break
                picked.append(r)
                deals += r.deals
            case_id = await self.store.open_case(player_id)
            if deals < self.settings.fairplay_min_deals and case_id is None:
                return None
            ops = [Opportunity(r.table_id, d, step, 0, game, kind, hit)
                   for r in picked for d, step, game, kind, hit in r.opportunities]
            v = verdict(player_id, (player_id,), sum(r.judged for r in picked), ops,
                        self.reference(), self.settings.fairplay_alpha)
            found = v.as_json()
            weighing = found.pop("deals")  # the deals that weigh most
            evidence: dict[str, object] = {
                **found, "weighing": weighing, "alpha": self.settings.fairplay_alpha,
                "deals": deals, "matches": len(picked),
                "min_deals": self.settings.fairplay_min_deals,
                "from": _iso(min(r.ended for r in picked)) if picked else None,
                "to": _iso(max(r.ended for r in picked)) if picked else None,
                "reference": dict(self.reference().meta)}
            evidence.pop("name", None)
            evidence.pop("seats", None)
            now = self.clock()
            if case_id is not None:
                await self.store.refresh(case_id, now, v.p_value, deals, evidence)
                return case_id
            if not v.flagged:
                return None
            case_id = secrets.token_hex(8)
            opened = await self.store.open(case_id, player_id, now, v.p_value, deals, evidence)
            if opened != case_id:  # another instance opened it a moment ago: brought up to date
                await self.store.refresh(opened, now, v.p_value, deals, evidence)
                return opened
            log.info("fair play: player %s flagged for review (p = %.3g over %d deals): case %s",
                     player_id, v.p_value, deals, case_id)
            return case_id

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
