"""Worker processes the server's background jobs run in (fair play's scans, the puzzle miner,
events' best results): how a job's process pool is stopped with the server."""

from __future__ import annotations

from concurrent.futures import Executor, ProcessPoolExecutor


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
