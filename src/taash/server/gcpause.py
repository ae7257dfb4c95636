"""Python's garbage collector, set for a server holding thousands of live tables.

Each live table keeps a few hundred long-lived objects (its room, states, the coroutines and
tasks of its connections): 1,500 tables are about 750,000.  With the collector's young
generations made large (as this server once set them) a collection of the middle generation
walked most of them and stopped the event loop for ~450 ms, and each full collection for
~300 ms, so every action that arrived meanwhile waited (bench/RESULTS.md, 2026-12-04).

So: young generations kept small (short collections, each freeing the cyclic garbage that
every HTTP connection and request leaves: uvicorn's protocol and its parser, FastAPI's exit
stack), and after each full collection its survivors are frozen (``gc.freeze``): they are the
long-lived tables and connections, and the next full collections walk only what came after
them.  A frozen object is still freed as soon as nothing refers to it (reference counting);
what freezing holds back is garbage made of reference cycles among frozen objects (a
connection open at the freeze, closed later), so every ``thaw_every`` seconds everything is
thawed, to be walked once by the next full collection.  Every pause is timed:
``taash_gc_pause_seconds{generation}`` in /metrics.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections import deque
from typing import Any

# gc thresholds: new objects before a young collection; young collections before a middle
# one; middle before a full one (rare: freezing keeps the old generation small)
YOUNG = (5000, 5, 10)


class GcPauses:
    """Sets the collector up for this process and times its pauses (``start``/``stop``);
    ``drain()`` hands over the pauses timed since it was last called, as (generation,
    seconds)."""

    def __init__(self, thaw_every: float = 900.0) -> None:
        self.thaw_every = thaw_every
        # filled by the collector's callback (any thread, any moment: no lock may be taken
        # there, so a deque's atomic append), emptied by drain()
        self._pauses: deque[tuple[int, float]] = deque(maxlen=100_000)
        self._started = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thaw: asyncio.Task[None] | None = None
        self._old: tuple[int, int, int] | None = None
        self.freezes = 0
        self.thaws = 0

    def start(self) -> None:
        """On the running loop: set the thresholds, time and follow each collection."""
        self._loop = asyncio.get_running_loop()
        self._old = gc.get_threshold()
        gc.set_threshold(*YOUNG)
        gc.callbacks.append(self._collected)
        if self.thaw_every > 0:
            self._thaw = self._loop.create_task(self._thaws(), name="taash-gc-thaw")

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        if self._thaw is not None:
            self._thaw.cancel()
            self._thaw = None
        if self._old is not None:
            gc.set_threshold(*self._old)
            self._old = None

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # called by the collector in whichever thread allocated: nothing here may block
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = int(info.get("generation", 0))
        self._pauses.append((generation, time.perf_counter() - self._started))
        if generation == 2 and self._loop is not None and not self._loop.is_closed():
            # freeze the survivors once the collection is over, from the loop
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._freeze)

    def drain(self) -> list[tuple[int, float]]:
        out = []
        while self._pauses:
            out.append(self._pauses.popleft())
        return out

    def _freeze(self) -> None:
        gc.freeze()
        self.freezes += 1

    async def _thaws(self) -> None:
        while True:
            await asyncio.sleep(self.thaw_every)
            gc.unfreeze()  # to the oldest generation: the next full collection walks them
            self.thaws += 1
