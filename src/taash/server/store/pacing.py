"""When the group commit waits a moment for more actions before it writes a batch.

Each batch costs the server about the same whatever its size (a transaction's round trips,
the writer's wake-ups, PostgreSQL's commit or SQLite's fsync), so fuller batches cost less per
action: at 1,000 live tables a wait of 3 ms doubled the mean batch (1.5 to 3 actions) and
took 10-20 % off the server's CPU per action (bench/RESULTS.md, 2026-12-07, eighth session).
The price is the wait itself, added to each action's answer; so it is paid only under load:
when, at the rate actions arrived in the last second, at least half an action more would come
during the wait.  A quiet server (and a test) writes at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: at least this many more actions expected during the wait (half an action: a batch in two
#: gains one), or none is made
WORTH = 0.5
#: how often the arrival rate is measured (seconds)
WINDOW = 1.0


class Pacer:
    """The arrival rate of actions to the group commit, and the wait it makes worth it."""

    def __init__(self, wait_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.wait_s = max(0.0, wait_s)
        self.clock = clock
        self._since = clock()
        self._count = 0
        self.rate = 0.0  # actions a second over the last full window

    def arrived(self) -> None:
        """An action joined the queue."""
        now = self.clock()
        elapsed = now - self._since
        if elapsed >= WINDOW:
            self.rate = self._count / elapsed
            self._since, self._count = now, 0
        self._count += 1

    def wait(self) -> float:
        """Seconds to wait before the next batch is taken (0: write at once)."""
        if self.wait_s and self.rate * self.wait_s >= WORTH:
            return self.wait_s
        return 0.0
