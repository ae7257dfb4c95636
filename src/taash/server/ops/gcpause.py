"""Python's garbage collector in a server holding thousands of live tables: set up, and every
pause timed (``taash_gc_pause_seconds{generation}`` in /metrics), since a collection stops
the event loop and every action that arrives meanwhile waits for it.

Rooms and connections keep many small, long-lived objects (1,000 tables are about 500,000
that the collector tracks), and each HTTP connection and request leaves some garbage made of
reference cycles (uvicorn's protocol and its parser, FastAPI's exit stack).  So young garbage
is collected less often than Python's default (``THRESHOLDS``) and what start-up loaded is
frozen out of every collection.  Tried and not kept (bench/RESULTS.md, 2026-12-04): smaller
young generations with a full collection's survivors frozen, or every middle collection's —
both made more and longer pauses in steady play (p99 at 1,000 tables 225-948 ms against
93-102 ms, 1.8-3.6 s of collection in a minute against 0.6-0.7 s), and freezing kept
thousands of cyclic garbage objects a second alive.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections import deque
from typing import Literal

# new objects before a young collection; young collections before a middle one; middle ones
# before a full one
THRESHOLDS = (20_000, 50, 100)


class GcPauses:
    """Sets the collector up for this process and times its pauses (``start``/``stop``);
    ``drain()`` hands over the pauses timed since it was last called, as (generation,
    seconds)."""

    def __init__(self) -> None:
        # filled by the collector's callback (any thread, any moment: no lock may be taken
        # there, so a deque's atomic append), emptied by drain()
        self._pauses: deque[tuple[int, float]] = deque(maxlen=100_000)
        self._started = 0.0
        self._old: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Freeze what is loaded now, set the thresholds, time each collection."""
        gc.freeze()
        self._old = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        gc.callbacks.append(self._collected)

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collected)
        if self._old is not None:
            gc.set_threshold(*self._old)
            self._old = None

    def _collected(self, phase: Literal["start", "stop"], info: dict[str, int]) -> None:
        # called by the collector in whichever thread allocated: nothing here may block
        if phase == "start":
            self._started = time.perf_counter()
            return
        self._pauses.append((int(info.get("generation", 0)),
                             time.perf_counter() - self._started))

    def drain(self) -> list[tuple[int, float]]:
        out = []
        while self._pauses:
            out.append(self._pauses.popleft())
        return out
