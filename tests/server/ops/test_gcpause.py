"""The server's garbage-collector set-up (taash.server.ops.gcpause): start-up frozen, young
garbage collected less often, every pause timed, the old thresholds back on stop."""

from __future__ import annotations

import gc

from taash.server.ops.gcpause import THRESHOLDS, GcPauses


def test_pauses_are_timed_start_up_frozen_and_stop_restores() -> None:
    old = gc.get_threshold()
    p = GcPauses()
    try:
        p.start()
        assert gc.get_threshold() == THRESHOLDS
        assert gc.get_freeze_count() > 0  # what was loaded is out of the collections
        gc.collect(0)
        gc.collect()
        pauses = p.drain()
        assert {g for g, _ in pauses} >= {0, 2}
        assert all(s >= 0 for _, s in pauses)
        assert p.drain() == []  # drained: nothing counted twice
    finally:
        p.stop()
        gc.unfreeze()
    assert gc.get_threshold() == old  # stop() gives the old thresholds back
    gc.collect()
    assert p.drain() == []  # no longer timing
