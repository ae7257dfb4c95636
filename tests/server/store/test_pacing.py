"""The group commit's pacing: under load it waits a moment so that actions arriving close
together share one transaction; a quiet server writes each at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from taash.server.config import Settings
from taash.server.store.db import SeatRow, Store, TableRow
from taash.server.store.pacing import Pacer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_quiet_server_never_waits() -> None:
    clock = Clock()
    p = Pacer(0.003, clock)
    for _ in range(60):  # 50 actions a second: 0.15 expected in 3 ms, not worth a wait
        clock.now += 0.02
        p.arrived()
    assert 45 < p.rate <= 50
    assert p.wait() == 0.0


def test_under_load_it_waits_and_stops_when_the_load_goes() -> None:
    clock = Clock()
    p = Pacer(0.003, clock)
    assert p.wait() == 0.0  # nothing measured yet
    for _ in range(1001):  # 1,000 actions a second: 3 expected in 3 ms
        clock.now += 0.001
        p.arrived()
    assert p.rate > 900
    assert p.wait() == 0.003
    clock.now += 30  # half a minute of silence, then one action: the rate is measured anew
    p.arrived()
    assert p.rate < 1
    assert p.wait() == 0.0


def test_no_wait_configured_means_none() -> None:
    clock = Clock()
    p = Pacer(0.0, clock)
    for _ in range(5000):
        clock.now += 0.0002
        p.arrived()
    assert p.rate > 1000
    assert p.wait() == 0.0


async def test_actions_a_few_ms_apart_share_a_batch_under_load(tmp_path: Path) -> None:
    s = Store(Settings(db_url=f"sqlite:///{tmp_path / 'p.db'}").resolved_db_url(),
              commit_wait_s=0.1)
    await s.migrate()
    try:
        ids = [f"t{i}" for i in range(8)]
        for tid in ids:
            await s.create_table(TableRow(
                id=tid, game="goat", options={}, seed=1, first_seat=0, live=False, open=False,
                bot_delay_ms=0, turn_timer_s=None, created=0, updated=0,
                seats=[SeatRow(n, "human") for n in range(4)]))
        clock = Clock()
        s.pacer.clock = clock  # a busy second measured, and time standing still after it
        s.pacer.rate = 1000.0
        s.pacer._since = clock.now
        batches: list[int] = []
        s.on_write = lambda _started, n: batches.append(n)
        acks = []
        for tid in ids:  # 5 ms apart: without the wait each would be written on its own
            acks.append(asyncio.ensure_future(
                s.append_action(tid, 0, 1, "lead:6S", None, [], 2, False)))
            await asyncio.sleep(0.005)
        done = await asyncio.gather(*acks)
        assert len(done) == 8 and all(isinstance(t, float) for t in done)
        assert sum(batches) == 8
        assert len(batches) <= 2, batches
        assert [r.version for r in await s.load_actions("t7")] == [1]
    finally:
        await s.close()
