"""The server's garbage-collector set-up (taash.server.gcpause): short young generations,
the survivors of a full collection frozen, thawed again on a timer, every pause timed."""

from __future__ import annotations

import asyncio
import gc

from taash.server.gcpause import YOUNG, GcPauses


def test_pauses_are_timed_survivors_frozen_and_thawed_and_stop_restores() -> None:
    old = gc.get_threshold()
    frozen_before = gc.get_freeze_count()

    async def run() -> tuple[GcPauses, list[tuple[int, float]], int, int]:
        p = GcPauses(thaw_every=0.2)
        p.start()
        try:
            assert gc.get_threshold() == YOUNG
            keep = [[i] for i in range(1000)]  # survivors of the full collection
            gc.collect(0)
            gc.collect()  # a full one: its survivors are frozen once the loop runs
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            frozen = gc.get_freeze_count()
            pauses = p.drain()
            await asyncio.sleep(0.35)  # past thaw_every: everything thawed
            thawed = gc.get_freeze_count()
            del keep
            return p, pauses, frozen, thawed
        finally:
            p.stop()

    try:
        p, pauses, frozen, thawed = asyncio.run(run())
        assert {g for g, _ in pauses} >= {0, 2}
        assert all(s >= 0 for _, s in pauses)
        assert p.freezes >= 1 and frozen > frozen_before + 1000
        assert p.thaws >= 1 and thawed == 0
        assert p.drain() == []  # drained: nothing counted twice
        assert gc.get_threshold() == old  # stop() gives the old thresholds back
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)
