"""The detector's budgets are counted in work, not time (issue 48): the solver's in positions
searched, the hard bot's in playout steps with its wall-clock cap off, so the same records give
the same scan, and the arena the same records, on any machine however slow or loaded.  A
machine where every clock reading is a second past the last stands in for a very slow one."""

from __future__ import annotations

import itertools
import json
import math
import types
from typing import Any

import pytest

from taash.bots import pimc
from taash.fairplay.cheats import Seat, play_records
from taash.fairplay.detect import scan_record
from taash.games import new_match
from taash.review import solver, solver_court, solver_goat
from taash.review.replay import load_record

GAME = "court-piece-2p"
BUDGET = 50.0


def slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock the solver and the hard bot read jumps a second each time it is read."""
    tick = itertools.count(0.0, 1.0)

    def now() -> float:
        return next(tick)

    monkeypatch.setattr(solver, "perf_counter", now)
    monkeypatch.setattr(solver_court, "perf_counter", now)
    monkeypatch.setattr(solver_goat, "perf_counter", now)
    monkeypatch.setattr(pimc, "time", types.SimpleNamespace(perf_counter=now))


def scan_all(recs: list[dict[str, Any]]) -> list[tuple[list[int], list[Any]]]:
    out = []
    for i, rec in enumerate(recs):
        r, summary = load_record(json.loads(json.dumps(rec)))
        sc = scan_record(r, summary, f"r{i}", budget_ms=BUDGET)
        out.append((sc.judged, sc.opportunities))
    return out


def test_a_node_budget_stops_the_solver_after_that_many_positions() -> None:
    m = new_match(GAME, seed=3, first_seat=0)
    while m.view(m.actors()[0]).get("phase") == "trump":
        s = m.actors()[0]
        m.apply(s, m.legal_actions(s)[0])
    solver.clear_tables()
    first = solver.solve(m.clone(), time_limit=math.inf, nodes=5000)
    assert not first.exact and 5000 <= first.nodes < 5000 + 1024
    solver.clear_tables()
    assert solver.solve(m.clone(), time_limit=math.inf, nodes=5000) == first
    solver.clear_tables()
    vals = solver.action_values(m.clone(), time_limit=math.inf, nodes=5000)
    assert len(vals) < len(m.legal_actions(m.actors()[0]))  # not every card settled


@pytest.mark.slow
def test_the_same_records_give_the_same_scan_on_a_slow_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seats = [Seat("peeker:0.5", "p"), Seat("hard~0.1", "h")]
    recs = play_records(GAME, None, seats, 3, 5, budget_ms=BUDGET)
    here = scan_all(recs)
    assert sum(len(ops) for _j, ops in here) > 0 and all(sum(j) > 0 for j, _o in here)
    again = scan_all(recs)
    assert again == here  # twice on one machine
    slow_clock(monkeypatch)
    assert scan_all(recs) == here  # and on a machine where each clock reading is 1 s later
    # the arena's records too: the peeker's solver and every hard bot count work, not time
    assert play_records(GAME, None, seats, 3, 5, budget_ms=BUDGET) == recs
