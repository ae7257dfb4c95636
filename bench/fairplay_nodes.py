"""The detector's solver budget counted in positions searched (issue 48; not a test).

    # positions searched per millisecond of CPU time, per game: early positions searched
    # to --nodes positions each (the rate at which the solver searches on this machine)
    python bench/fairplay_nodes.py rate --deals 2 --nodes 100000
    # the speed/accuracy trade-off: the same arena records scanned at each budget (reference
    # milliseconds, counted in positions) and, for comparison, at the old wall-clock limit
    python bench/fairplay_nodes.py tradeoff --game court-piece-2p --deals 4 --seed 1 \
        --budgets 62,125,250,500,1000,2000 --wall 0.5 --repeat 2

``tradeoff`` plays its records once (``play_records``: the same records on any machine),
scans them (open-best only, every seat) per budget and prints the decisions judged, the
opportunities and hits, the scan's wall time and whether a second scan found exactly the
same opportunities.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from typing import Any

from taash.fairplay.cheats import Seat, play_records
from taash.fairplay.detect import scan_record
from taash.fairplay.open_best import NODES_PER_MS
from taash.review import solver
from taash.review.replay import load_record, replay_deal

TABLES = {"court-piece-2p": ("court-piece-2p", None, "peeker:0.5,hard"),
          "court-piece/double": ("court-piece", {"sar": "double"},
                                 "peeker:0.5,hard,hard~0.1,easy"),
          "goat": ("goat", None, "peeker:0.5,hard,hard~0.1,easy")}


def records(key: str, deals: int, seed: int) -> list[dict[str, Any]]:
    game, options, table = TABLES[key]
    seats = [Seat(s, f"{i}:{s}") for i, s in enumerate(table.split(","))]
    return [json.loads(json.dumps(r)) for r in play_records(game, options, seats, deals, seed,
                                                            50.0)]


def rate(a: argparse.Namespace) -> None:
    for key in TABLES:
        got: list[float] = []
        for rec in records(key, a.deals, a.seed):
            r, summary = load_record(json.loads(json.dumps(rec)))
            for d in range(len(r["deals"])):
                deal = replay_deal(r, d, summary)
                # early positions (the solver does not finish them): its raw speed
                for step in deal.steps[4:12:2]:
                    st = deal.positions[step.index].state
                    if st.turn() is None:
                        continue
                    solver.clear_tables()
                    t0 = time.process_time()  # the process's own CPU time: a shared
                    # machine's load does not slow it the way it slows the wall clock
                    sol = solver.solve(st.clone(), time_limit=math.inf,
                                       nodes=a.nodes)
                    ms = (time.process_time() - t0) * 1000
                    if sol.nodes > a.nodes // 2 and ms > 0:
                        got.append(sol.nodes / ms)
        med = statistics.median(got) if got else float("nan")
        print(f"{key}: {len(got)} positions, median {med:.0f} positions/ms "
              f"(quartiles {statistics.quantiles(got, n=4) if len(got) > 3 else '-'}), "
              f"NODES_PER_MS now {NODES_PER_MS[key.partition('/')[0]]:.0f}", flush=True)


def tradeoff(a: argparse.Namespace) -> None:
    recs = records(a.game, a.deals, a.seed)
    loaded = [load_record(json.loads(json.dumps(r))) for r in recs]
    runs: list[tuple[str, float, float]] = [(f"{b:g} ms", b, float("inf"))
                                            for b in map(float, a.budgets.split(","))]
    if a.wall:
        runs.append((f"wall {a.wall:g} s", 1e9, a.wall))
    print("| budget | judged | opportunities | hits | scan s (wall) | scan s (CPU) | same on a "
          "rerun |")
    print("|---|---|---|---|---|---|---|")
    for label, ms, wall in runs:
        seen = []
        secs = []
        cpu = []
        for _ in range(a.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            scans = [scan_record(r, s, f"r{i}", budget_ms=50.0, solver_ms=ms, time_limit=wall,
                                 partners=False) for i, (r, s) in enumerate(loaded)]
            secs.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            seen.append(([sc.judged for sc in scans], [sc.opportunities for sc in scans]))
        judged = sum(sum(j) for j in seen[0][0])
        ops = [o for lst in seen[0][1] for o in lst]
        same = all(x == seen[0] for x in seen[1:]) if a.repeat > 1 else "-"
        print(f"| {label} | {judged} | {len(ops)} | {sum(o.hit for o in ops)} | "
              f"{statistics.median(secs):.1f} | {statistics.median(cpu):.1f} | {same} |",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rate")
    r.add_argument("--deals", type=int, default=2)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--nodes", type=int, default=100_000)
    t = sub.add_parser("tradeoff")
    t.add_argument("--game", choices=sorted(TABLES), required=True)
    t.add_argument("--deals", type=int, default=4)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--budgets", default="62,125,250,500,1000,2000")
    t.add_argument("--wall", type=float, default=0.5)
    t.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    {"rate": rate, "tradeoff": tradeoff}[a.cmd](a)


if __name__ == "__main__":
    main()
