"""Boards' best results, computed in the background and kept (docs/events.md, "your deal review
against the best result").

A board's best result from the first card depends on the board and its trump call only, so it
is computed once per board and trump call, for every entrant and every instance:

- **When.**  As soon as an entrant reaches the board's first card (the trump called: its
  robot's, or the entrant's own), that is at the latest while the first entrant plays it, so
  the search runs while they play and is usually kept by the time they finish.  Not when the
  event opens: the entrant's own call is not known then, and a board nobody plays would be
  searched for nothing (four calls each, a minute each).  A review asked of a board with none
  kept and none under way claims it then (a board finished before this existed, a computer that
  stopped).
- **Where.**  In a worker process (``best_solve.board_best``), ``workers`` at once: off the
  event loop and its GIL, so play goes on; it may search for ``budget`` seconds.
- **Once.**  The store's row is the claim (its primary key: one instance wins the insert); a
  claim whose lease ran out with no result (its instance stopped) is taken over by the next
  instance that asks.  The result is kept, so a restart reads it.
- **Honest.**  What the search proved is kept as bounds: ``best`` only when they meet.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import socket
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress

from taash.server.events.best_solve import board_best
from taash.server.events.shapes import BoardReview
from taash.server.store.db import Store
from taash.server.store.event_best import BestKey, BestRow, EventBestStore
from taash.server.store.events import EventRow
from taash.server.worker_pools import stop_pool

log = logging.getLogger("taash.server")

BUDGET_S = 60.0  # the solver's seconds for a board (the server's setting event_best_time)
LEASE_GRACE_S = 120.0  # a claim outlives its budget by this much (a worker's start, a busy box)
RETRY_S = 60.0  # a computing that failed is claimed again after this
ASK_AGAIN_S = 3  # while it is computed, a page asks again this often
NOTED_MAX = 10_000  # boards and calls this process remembers having claimed


def best_key(event_id: str, board: int, opening: Sequence[str]) -> BestKey:
    return BestKey(event_id, board, ",".join(opening))


class BestResults:
    """Boards' best results: claimed once among the instances, computed in worker processes,
    kept in the store.  ``runs``: the searches this process has started."""

    def __init__(self, store: Store, budget: float = BUDGET_S, workers: int = 1,
                 executor: Executor | None = None) -> None:
        self.store = EventBestStore(store)
        self.budget = budget
        self.workers = workers
        self.instance = f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.clock = time.time
        self.runs = 0
        self._executor = executor
        self._own_executor = executor is None
        self._gate: asyncio.Semaphore | None = None
        self._computing: dict[BestKey, asyncio.Task[None]] = {}
        self._noted: set[BestKey] = set()
        self._pending: set[asyncio.Task[None]] = set()

    def first_card(self, e: EventRow, board: int, opening: Sequence[str]) -> None:
        """An entrant has reached the board's first card: its best result is claimed and
        computed now, in the background (asked once per board and call by this process)."""
        k = best_key(e.id, board, opening)
        if k in self._noted:
            return
        if len(self._noted) >= NOTED_MAX:
            self._noted.clear()
        self._noted.add(k)
        task = asyncio.get_running_loop().create_task(self._get_logged(e, board, opening))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _get_logged(self, e: EventRow, board: int, opening: Sequence[str]) -> None:
        try:
            await self.get(e, board, opening)
        except Exception:  # the review claims it again when asked
            log.exception("event %s board %d: claiming its best result", e.id, board)

    async def get(self, e: EventRow, board: int, opening: Sequence[str]) -> BestRow | None:
        """The board's best result as kept (done, or being computed); claimed and started in
        this process when nobody computes it (never claimed, or its computer stopped)."""
        k = best_key(e.id, board, opening)
        row = await self.store.get(k)
        now = self.clock()
        if row is not None and (row.done is not None or k in self._computing
                                or row.lease >= now):
            return row
        if await self.store.claim(k, self.instance, now, now + self.budget + LEASE_GRACE_S,
                                  self.budget):
            self._computing[k] = asyncio.get_running_loop().create_task(
                self._compute(e, board, tuple(opening), k))
        return await self.store.get(k)

    def _pool(self) -> Executor:
        if self._executor is None:
            # a fresh process per search: a Goat minute's tables (a few hundred MiB) go
            # back to the system when it ends, not kept by an idle worker
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                max_tasks_per_child=1)
        return self._executor

    async def _compute(self, e: EventRow, board: int, opening: tuple[str, ...],
                       k: BestKey) -> None:
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.workers)
        try:
            async with self._gate:
                now = self.clock()
                if not await self.store.start(k, self.instance, now,
                                              now + self.budget + LEASE_GRACE_S):
                    return  # another instance took it over while it waited here
                self.runs += 1
                got = await asyncio.get_running_loop().run_in_executor(
                    self._pool(), board_best, e.game, e.options, e.id, board, e.secret,
                    opening, self.budget)
            await self.store.save(k, self.clock(), got.lower, got.upper, got.proven,
                                  got.solver, round(got.seconds, 3), got.nodes, got.most)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("event %s board %d: its best result", e.id, board)
            if isinstance(exc, BrokenProcessPool) and self._own_executor:
                self._executor = None  # its worker died: the next search starts a new one
            with suppress(Exception):
                await self.store.give_up(k, self.instance, self.clock() + RETRY_S)
        finally:
            self._computing.pop(k, None)

    async def settled(self) -> None:
        """Wait until every claim and search this process has under way is over."""
        while self._pending or self._computing:
            await asyncio.gather(*self._pending, *self._computing.values(),
                                 return_exceptions=True)

    async def close(self) -> None:
        """Stop: the searches under way end, and their claims are let go (another instance,
        or this one started again, takes them at the next ask)."""
        tasks = [*self._pending, *self._computing.values()]
        held = list(self._computing)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._own_executor:
            ex, self._executor = self._executor, None
            stop_pool(ex)
        for k in held:
            with suppress(Exception):
                await self.store.give_up(k, self.instance, 0.0)


def review_json(e: EventRow, board: int, unit: str, yours: int, opening: Sequence[str],
                kept: BestRow | None, now: float, review: str) -> BoardReview:
    """The review's answer: the entrant's result against the board's best result, as kept
    (``status`` "computing" until it is; ``best`` only where the search proved it)."""
    out: BoardReview = {
        "event": e.id, "board": board, "unit": unit, "yours": yours, "status": "computing",
        "best": None, "proven": False, "lower": None, "upper": None, "most": None,
        "solver": None,
        "seconds": None, "budget": kept.budget if kept else None, "elapsed": None,
        "retry": None, "lost": None, "opening": [a.split(":", 1)[1] for a in opening],
        "review": review}
    if kept is None or kept.done is None:
        if kept is not None and kept.started is not None:
            out["elapsed"] = round(max(0.0, now - kept.started), 1)
        out["retry"] = ASK_AGAIN_S
        return out
    assert kept.lower is not None and kept.upper is not None
    out["status"], out["proven"] = "done", bool(kept.proven)
    out["lower"], out["upper"], out["most"] = kept.lower, kept.upper, kept.most
    out["solver"], out["seconds"] = kept.solver, kept.seconds
    if out["proven"]:
        out["best"], out["lost"] = kept.lower, max(0, kept.lower - yours)
    return out
