"""The deal analysis runs in a worker process of its own and answers on a pipe of its own
(issue 43): the server shares no lock and no queue with it, so however the worker ends (done,
failed, or ended by the server mid-write) nothing is left for the server's exit to wait on.
With the old ``multiprocessing.Queue`` the server's own feeder thread, started by closing, had
to take the lock the workers shared, and the exit joined that thread: a worker ended while it
held the lock hung ``systemctl stop``."""

from __future__ import annotations

import asyncio
import json
import multiprocessing.util
import threading
from typing import Any

import pytest

from taash.record import random_record
from taash.server.review.analyses import Analyses


class Kept:
    """The store's two calls the analyses make, kept in a dict."""

    def __init__(self) -> None:
        self.rows: dict[str, str] = {}

    async def load_analysis(self, key: str) -> str | None:
        return self.rows.get(key)

    async def save_analysis(self, key: str, table: str | None, deal: int, at: float,
                            text: str) -> None:
        self.rows[key] = text


class Hub:
    def __init__(self) -> None:
        self.store = Kept()


def waiting_at_exit() -> list[str]:
    """What multiprocessing would join or close when this process exits."""
    registry: dict[Any, Any] = multiprocessing.util._finalizer_registry  # type: ignore[attr-defined]
    return [repr(f) for f in registry.values() if "_finalize_join" in repr(f)]


@pytest.mark.slow
async def test_an_analysis_leaves_nothing_for_the_exit_to_wait_on() -> None:
    hub = Hub()
    analyses = Analyses(hub.store, solver_time=0.05)  # type: ignore[arg-type]
    rec = random_record("court-piece-2p", {"target": 1}, seed=3)
    first = await analyses.start(rec, 0, None)
    for _ in range(600):
        if (await analyses.status(first["key"]))["status"] == "done":
            break
        await asyncio.sleep(0.1)
    status = await analyses.status(first["key"])
    assert status["status"] == "done" and json.loads(hub.store.rows[first["key"]])["actions"]
    # a second one, ended by the server while it works
    second = await analyses.start(random_record("court-piece-2p", {"target": 1}, seed=4), 0,
                                  None)
    assert second["status"] == "running"
    analyses.close()
    await asyncio.sleep(0)
    assert waiting_at_exit() == []
    assert not [t.name for t in threading.enumerate() if t.name == "QueueFeederThread"]
    # the results' reader ends with its worker
    for _ in range(100):
        if not [t for t in threading.enumerate() if t.name == "taash-analysis-results"]:
            break
        await asyncio.sleep(0.05)
    assert not [t for t in threading.enumerate() if t.name == "taash-analysis-results"]
