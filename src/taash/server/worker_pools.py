"""Worker processes the server's background jobs run in (fair play's scans, the puzzle miner,
events' best results): how a job's process pool is stopped with the server, and the loop that
drains a job's queue."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import suppress

log = logging.getLogger("taash.server")


async def drain_forever(drain: Callable[[], Awaitable[object]], wake: asyncio.Event,
                        poll_s: float, what: str) -> None:
    """A job's loop until cancelled: drain its queue, then wait until woken (or ``poll_s``
    seconds); a failed drain is logged (as ``what``) and tried again, never the end."""
    while True:
        try:
            await drain()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s", what)
        with suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), poll_s)
        wake.clear()


def stop_pool(ex: Executor | None) -> None:
    """Stop a job's own pool now: nothing queued is started, and work under way is not waited
    for (its processes are ended; the job does it again at its next start)."""
    if ex is None:
        return
    assert isinstance(ex, ProcessPoolExecutor)
    procs = list((getattr(ex, "_processes", None) or {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
