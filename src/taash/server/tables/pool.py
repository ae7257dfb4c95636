"""The bot worker pool: searches (the hard bot's moves, and any other slow job) in worker
processes, shared fairly between tables, each with a deadline.

One queue per key (a table id): the workers take the next job from each key in turn (round
robin), so a table with many hard seats cannot starve another; at most one job per worker is
handed to the processes at a time, so the fairness is ours, not the executor's FIFO.  A job
whose deadline passes before it is answered raises ``DeadlineExceeded`` for its caller (who
falls back to something quick) and, if it has not started yet, never runs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TypeVar, TypeVarTuple, cast

log = logging.getLogger("taash.server")

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

# runs ``fn(*args)`` somewhere and answers its result (tests pass their own)
Runner = Callable[[Callable[..., object], tuple[object, ...]], "asyncio.Future[object]"]


class DeadlineExceeded(TimeoutError):
    """A pool job was not answered by its deadline."""


def default_workers() -> int:
    """Worker processes for this machine: one per core, less one for the event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(eq=False)
class Job:
    key: str
    fn: Callable[..., object]
    args: tuple[object, ...]
    deadline: float
    done: asyncio.Future[object]
    started: bool = False


@dataclass
class PoolStats:
    """What the pool did (the bench and the tests read it)."""

    run: int = 0  # jobs handed to a worker
    expired_queued: int = 0  # deadline passed before a worker was free: never ran
    expired_running: int = 0  # deadline passed while running: its answer came too late
    order: deque[str] = field(default_factory=lambda: deque(maxlen=1000))  # keys, as started


class BotPool:
    """``await pool.submit(key, fn, args, deadline)``: ``fn(*args)`` in a worker process, with
    the jobs of different keys taken in turn; ``deadline`` is a ``clock()`` time (by default
    ``time.monotonic``, which is also the event loop's clock)."""

    def __init__(self, workers: int | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 runner: Runner | None = None) -> None:
        self.workers = max(1, workers or default_workers())
        self.clock = clock
        self._runner = runner
        self._procs: ProcessPoolExecutor | None = None
        self.queues: OrderedDict[str, deque[Job]] = OrderedDict()
        self.running = 0
        self.closed = False
        self.stats = PoolStats()

    # -- submitting --------------------------------------------------------------------------
    async def submit(self, key: str, fn: Callable[[*Ts], T], args: tuple[*Ts],
                     deadline: float) -> T:
        """``fn(*args)``'s result; DeadlineExceeded if it is not ready by ``deadline``."""
        if self.closed:
            raise DeadlineExceeded("the pool is closed")
        job = Job(key, fn, args, deadline, asyncio.get_running_loop().create_future())
        self.queues.setdefault(key, deque()).append(job)
        self._pump()
        try:
            done = await asyncio.wait_for(asyncio.shield(job.done),
                                          max(0.0, deadline - self.clock()))
            return cast(T, done)  # what fn(*args) gave: the queue holds jobs of every type
        except TimeoutError:
            self._expire(job)
            raise DeadlineExceeded(f"no answer by the deadline for {key}") from None
        finally:
            if not job.started:  # its caller is gone (expired or cancelled): never run it
                self._drop(job)

    def queued(self, key: str | None = None) -> int:
        if key is not None:
            return len(self.queues.get(key, ()))
        return sum(len(q) for q in self.queues.values())

    # -- the queue ---------------------------------------------------------------------------
    def next_job(self) -> Job | None:
        """The next job to run: the first of the key whose turn it is (that key goes to the
        back of the line).  Jobs already past their deadline are dropped on the way."""
        now = self.clock()
        while self.queues:
            key, q = next(iter(self.queues.items()))
            job = q.popleft()
            if q:
                self.queues.move_to_end(key)
            else:
                del self.queues[key]
            if job.done.done():
                continue
            if now >= job.deadline:
                self.stats.expired_queued += 1
                job.done.set_exception(DeadlineExceeded("expired in the queue"))
                job.done.exception()  # its caller has its own DeadlineExceeded
                continue
            return job
        return None

    def _pump(self) -> None:
        while self.running < self.workers and not self.closed:
            job = self.next_job()
            if job is None:
                return
            job.started = True
            self.running += 1
            self.stats.run += 1
            self.stats.order.append(job.key)
            fut = self._run(job.fn, job.args)
            fut.add_done_callback(lambda f, j=job: self._finished(j, f))  # type: ignore[misc]

    def _finished(self, job: Job, fut: asyncio.Future[object]) -> None:
        self.running -= 1
        if not fut.cancelled() and isinstance(fut.exception(), BrokenProcessPool):
            log.warning("bot workers: a worker process died; starting new ones")
            self._procs = None
        if not job.done.done():
            if fut.cancelled():
                job.done.cancel()
            elif fut.exception() is not None:
                job.done.set_exception(fut.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(fut.result())
        elif not fut.cancelled():
            fut.exception()  # answered too late: nobody waits for it
        self._pump()

    def _expire(self, job: Job) -> None:
        if job.started:
            self.stats.expired_running += 1
        if not job.done.done():
            job.done.set_exception(DeadlineExceeded("expired"))
            job.done.exception()

    def _drop(self, job: Job) -> None:
        q = self.queues.get(job.key)
        if q is not None and job in q:
            q.remove(job)
            if not q:
                del self.queues[job.key]

    # -- the workers -------------------------------------------------------------------------
    def _run(self, fn: Callable[..., object], args: tuple[object, ...]) -> asyncio.Future[object]:
        if self._runner is not None:
            return self._runner(fn, args)
        loop = asyncio.get_running_loop()
        if self._procs is None:
            import multiprocessing

            self._procs = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"))
        try:
            return loop.run_in_executor(self._procs, fn, *args)
        except BrokenProcessPool:  # a worker died: start new ones, this job in a thread
            log.warning("bot workers: the process pool broke; starting a new one")
            self._procs = None
            return asyncio.ensure_future(asyncio.to_thread(fn, *args))

    def close(self) -> None:
        self.closed = True
        for q in self.queues.values():
            for job in q:
                if not job.done.done():
                    job.done.cancel()
        self.queues.clear()
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
            self._procs = None
