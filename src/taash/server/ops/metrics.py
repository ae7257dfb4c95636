"""The server's metrics in Prometheus's format (``prometheus-client``), at ``GET /metrics`` when
``taash serve --metrics-token TOKEN`` turns it on (``Authorization: Bearer TOKEN``).

Each hub has its own registry, so several servers in one process (the tests) never mix their
figures.  What is counted, and where:

- ``taash_actions_total{game, result}``: actions accepted, and refused by reason (the wire's
  error code: illegal, malformed, stale, conflict, ...), counted by ``Room.submit``;
- ``taash_action_seconds{game}``: from an action's arrival to its commit, its fan-out to every
  connection here and its publish to the other instances (a histogram);
- ``taash_connections{kind, who}``: open live connections, kind ``ws`` or ``stream``, who
  ``seat`` or ``spectator``; ``taash_live_tables``: tables held in memory;
- ``taash_bot_queue``: bot decisions waiting or thinking; ``taash_bot_think_seconds{level}``;
- ``taash_db_write_seconds`` and ``taash_db_batch_actions``: the group commit's transactions;
- ``taash_event_loop_lag_seconds``: how late a 0.25 s timer fires on the event loop;
- ``taash_gc_pause_seconds{generation}``: each garbage collection, which stops the loop;
  ``taash_gc_frozen_objects``: what it leaves alone until thawed (taash.server.ops.gcpause);
- ``process_cpu_seconds_total`` and the other ``process_*`` figures of this process.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from taash.bots import LEVELS
from taash.games import GAMES
from taash.games.base import IllegalAction, MalformedAction
from taash.server.errors import DomainError, error_of
from taash.server.store.schema import actions

if TYPE_CHECKING:
    from taash.server.ops.gcpause import GcPauses
    from taash.server.tables.room import Room

FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class _Live(Collector):
    """Figures read from the hub when scraped (nothing to keep up to date)."""

    def __init__(self, rooms: Mapping[str, Room], metrics: Metrics) -> None:
        self.rooms = rooms
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        conns = GaugeMetricFamily("taash_connections", "open live connections",
                                  labels=["kind", "who"])
        counts: dict[tuple[str, str], int] = {(k, w): 0 for k in ("ws", "stream")
                                              for w in ("seat", "spectator")}
        for room in list(self.rooms.values()):
            for seat, subs in room.live.subs.items():
                who = "spectator" if seat is None else "seat"
                for sub in subs:
                    key = (getattr(sub, "kind", "stream"), who)
                    counts[key] = counts.get(key, 0) + 1
        for (kind, who), n in sorted(counts.items()):
            conns.add_metric([kind, who], n)
        yield conns
        tables = GaugeMetricFamily("taash_live_tables", "tables held in memory")
        tables.add_metric([], len(self.rooms))
        yield tables
        frozen = GaugeMetricFamily("taash_gc_frozen_objects",
                                   "objects the garbage collector leaves alone until thawed")
        frozen.add_metric([], gc.get_freeze_count())
        yield frozen


class Metrics:
    """One server process's metrics."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=r)  # process_cpu_seconds_total: CPU per accepted action
        self.actions = Counter("taash_actions", "actions accepted and refused (by reason)",
                               ["game", "result"], registry=r)
        self.action_seconds = Histogram(
            "taash_action_seconds", "an action's arrival to its commit and fan-out",
            ["game"], buckets=FAST, registry=r)
        self.bot_queue = Gauge("taash_bot_queue", "bot decisions waiting or thinking",
                               registry=r)
        self.bot_think = Histogram("taash_bot_think_seconds", "time a bot took to decide",
                                   ["level"], buckets=SLOW, registry=r)
        self.db_write = Histogram("taash_db_write_seconds", "one group-commit transaction",
                                  buckets=FAST, registry=r)
        self.db_batch = Histogram("taash_db_batch_actions", "actions in one group commit",
                                  buckets=(1, 2, 4, 8, 16, 32, 64), registry=r)
        self.loop_lag = Histogram("taash_event_loop_lag_seconds",
                                  "how late a 0.25 s timer fired on the event loop",
                                  buckets=FAST, registry=r)
        self.gc_pause = Histogram("taash_gc_pause_seconds",
                                  "a garbage collection (the event loop waits for it)",
                                  ["generation"], buckets=FAST, registry=r)
        # one owner per table (issue 44): what a table's non-owner costs (it should read none
        # of the table's moves, only pass its requests on)
        self.move_reads = Counter("taash_move_reads", "reads of the stored moves (actions)",
                                  registry=r)
        self.forwarded = Counter("taash_forwarded", "requests passed on to a table's owner",
                                 ["kind"], registry=r)
        for kind in ("http", "websocket"):
            self.forwarded.labels(kind)
        #: the process's collector, when the server set it up (taash.server.ops.gcpause)
        self.gc: GcPauses | None = None
        self._lag_task: asyncio.Task[None] | None = None
        for generation in ("0", "1", "2"):
            self.gc_pause.labels(generation)
        for game in GAMES:  # every series shows from the first scrape, at zero
            self.actions.labels(game, "accepted")
            self.action_seconds.labels(game)
        for level in LEVELS:
            self.bot_think.labels(level)

    def watch(self, rooms: Mapping[str, Room]) -> None:
        """Read the process's rooms and connections at each scrape; time the event loop."""
        self.registry.register(_Live(rooms, self))
        if self._lag_task is None:
            self._lag_task = asyncio.get_running_loop().create_task(self._lag(),
                                                                    name="taash-loop-lag")

    def watch_reads(self, engine: AsyncEngine) -> None:
        """Count the statements that read the stored moves (``taash_move_reads``)."""
        def seen(conn: object, cursor: object, sql: str, *rest: object) -> None:
            if sql.startswith("SELECT") and f"FROM {actions.name} " in sql:
                self.move_reads.inc()

        event.listen(engine.sync_engine, "before_cursor_execute", seen)

    async def _lag(self, every: float = 0.25) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(every)
            self.loop_lag.observe(max(0.0, loop.time() - start - every))
            self.gc_pauses()

    def gc_pauses(self) -> None:
        """Move the collections timed since the last call into the histogram."""
        if self.gc is not None:
            for generation, seconds in self.gc.drain():
                self.gc_pause.labels(str(generation)).observe(seconds)

    def stop(self) -> None:
        if self._lag_task is not None:
            self._lag_task.cancel()
            self._lag_task = None

    # -- hooks (one line each where the work is done) ----------------------------------------
    def action_done(self, game: str, started: float, error: Exception | None) -> None:
        if error is None:
            self.actions.labels(game, "accepted").inc()
            self.action_seconds.labels(game).observe(time.perf_counter() - started)
        else:
            self.actions.labels(game, reason_of(error)).inc()

    def wrote(self, started: float, size: int) -> None:
        self.db_write.observe(time.perf_counter() - started)
        self.db_batch.observe(size)

    def thinking(self, level: str) -> Callable[[], None]:
        """Count a bot decision as queued now; call what it returns when it is made."""
        self.bot_queue.inc()
        started = time.perf_counter()

        def done() -> None:
            self.bot_queue.dec()
            self.bot_think.labels(level).observe(time.perf_counter() - started)
        return done

    def exposition(self) -> bytes:
        self.gc_pauses()
        return generate_latest(self.registry)


def reason_of(e: Exception) -> str:
    """The refusal's wire code (illegal, stale, ...), or ``error`` for anything else."""
    if isinstance(e, IllegalAction | MalformedAction | DomainError):
        try:
            return str(error_of(e)["code"])
        except Exception:
            return type(e).__name__.lower()
    return "error"
