"""Calibrating the fair-play detector (issue 48; not a test): play known players into records,
scan them once, keep each deal's opportunities, then build the honest reference and ROC points.

    # 1. play and scan (appends one JSON line per deal to the cache; run in pieces)
    python bench/fairplay.py collect --game court-piece-2p --table hard,hard~0.1 \
        --deals 10 --seed 1 --cache /tmp/fp
    # 2. the honest reference shipped in src/taash/fairplay/reference.json (honest tables
    #    only: every seat hard, hard~NOISE, easy or random)
    python bench/fairplay.py reference --cache /tmp/fp --seeds 1-99 \
        --out src/taash/fairplay/reference.json
    # 3. ROC points: 40-deal samples (60 for colluders) drawn with replacement from the
    #    cached deals of each policy, scored against the reference, honest players' samples
    #    from seeds the reference did not use
    python bench/fairplay.py roc --cache /tmp/fp --honest-seeds 100-199 --samples 200

Seats are policy specs of ``taash.fairplay.cheats.make_policy``; a table lists one per seat.
Every policy and the detector's hard bot use ``--budget-ms`` (default 50) a move.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from taash.fairplay.cheats import Seat, play_records
from taash.fairplay.detect import (
    Reference,
    game_key,
    load_reference,
    rates_from_counts,
    scan_record,
    upper_tail,
)
from taash.review.replay import load_record

HONEST = ("hard", "easy", "random")
BUDGET_MS = 50.0
ALPHAS = (1e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)


def honest(spec: str) -> bool:
    return spec.partition("~")[0] in HONEST and ":" not in spec


def collect(a: argparse.Namespace) -> None:
    specs = a.table.split(",")
    options = json.loads(a.options) if a.options else None
    cache = Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / f"{a.game}{'-' + options['sar'] if options else ''}.jsonl"
    t0 = time.perf_counter()
    for d in range(a.deals):
        seed = a.seed * 1000 + d
        recs = play_records(a.game, options, [Seat(s, f"{i}:{s}") for i, s in enumerate(specs)],
                            1, seed, a.budget_ms)
        rec, summary = load_record(json.loads(json.dumps(recs[0])))
        sc = scan_record(rec, summary, f"seed{seed}", budget_ms=a.budget_ms, partners=False)
        line = {"game": a.game, "options": options, "seed": a.seed, "deal_seed": seed,
                "table": specs, "judged": sc.judged, "budget_ms": a.budget_ms,
                "ops": [[o.seat, o.game, o.kind, int(o.hit)] for o in sc.opportunities]}
        with out.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(f"{a.game} {specs} deal {d + 1}/{a.deals} ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr)


def key_of(ln: dict[str, Any]) -> str:
    """The reference's game key of a cached deal."""
    return game_key({"game": ln["game"], "options": ln["options"]})


def seeds(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def lines(cache: str) -> list[dict[str, Any]]:
    out = []
    for p in sorted(Path(cache).glob("*.jsonl")):
        out += [json.loads(x) for x in p.read_text().splitlines() if x.strip()]
    return out


def reference(a: argparse.Namespace) -> None:
    wanted = seeds(a.seeds)
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    deals: dict[str, int] = defaultdict(int)
    for ln in lines(a.cache):
        if ln["seed"] not in wanted or not all(honest(s) for s in ln["table"]):
            continue
        for _seat, game, kind, hit in ln["ops"]:
            for k in (kind, "all"):
                counts[game][k][0] += 1
                counts[game][k][1] += hit
        deals[key_of(ln)] += 1
    data = {"meta": {"made_by": " ".join(["python bench/fairplay.py", *sys.argv[1:]]),
                     "budget_ms": BUDGET_MS, "deals": dict(deals),
                     "population": "honest tables: hard, hard with random actions (~NOISE), "
                                   "easy"},
            "counts": {g: {k: v for k, v in per.items()} for g, per in counts.items()}}
    old = Path(a.out)
    if old.exists():  # the partner-fit counts are bench/collusion.py's: kept
        before = json.loads(old.read_text())
        if a.merge:  # the games this cache holds replaced, the others' counts kept
            made_by = data["meta"]["made_by"]
            for g, per in before["counts"].items():
                if g not in data["counts"]:
                    data["counts"][g] = per
                    data["meta"]["deals"][g] = before["meta"]["deals"][g]
            data["meta"]["made_by"] = before["meta"]["made_by"]
            data["meta"]["remade"] = {**before["meta"].get("remade", {}),
                                      **{g: made_by for g in counts}}
        if "pair_counts" in before:
            data["pair_counts"] = before["pair_counts"]
            for k in ("pair_made_by", "pair_deals"):
                if k in before.get("meta", {}):
                    data["meta"][k] = before["meta"][k]
    Path(a.out).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps(rates_from_counts(data["counts"]), indent=1))


def sample_p(pool: list[list[tuple[str, int]]], n: int, rng: random.Random,
             ref: Reference, game: str) -> float:
    """The p-value of one n-deal sample of a player.  The pool is small, so a plain bootstrap
    would repeat its few hits many times over: the sample's deals (their opportunities and
    kinds) are drawn with replacement from the pool, but each opportunity's hit is drawn
    afresh with the player's hit rate, itself drawn from its posterior given the pool's hits
    (Beta(hits + 1, misses + 1)), so the pool's uncertainty shows in the spread."""
    ops = [o for deal in pool for o in deal]
    hits_in_pool = sum(h for _k, h in ops)
    rate = rng.betavariate(hits_in_pool + 1, len(ops) - hits_in_pool + 1)
    qs: list[float] = []
    hits = 0
    for _ in range(n):
        for kind, _hit in rng.choice(pool):
            qs.append(ref.rate(game, kind))
            hits += rng.random() < rate
    return upper_tail(qs, hits)


def roc(a: argparse.Namespace) -> None:
    ref = load_reference(a.reference)
    honest_seeds = seeds(a.honest_seeds)
    # per game key, per policy: a list of deals, each the (kind, hit) of one player (seat) or
    # one partnership (colluders: both seats pooled)
    pools: dict[str, dict[str, list[list[tuple[str, int]]]]] = defaultdict(
        lambda: defaultdict(list))
    for ln in lines(a.cache):
        game = key_of(ln)
        table = ln["table"]
        for seat, spec in enumerate(table):
            if honest(spec) and ln["seed"] not in honest_seeds:
                continue
            if spec == "colluder" and seat >= 2:
                continue  # a partnership counted once, at its first seat
            side = (seat, seat + 2) if spec == "colluder" else (seat,)
            pools[game][spec if not honest(spec) else "honest"].append(
                [(k, h) for s, _g, k, h in ln["ops"] if s in side])
    rng = random.Random(a.seed)
    report: dict[str, Any] = {}
    for game, per in sorted(pools.items()):
        if "honest" not in per:
            continue
        ps = {pol: [sample_p(pool, 60 if pol == "colluder" else 40, rng, ref, game)
                    for _ in range(a.samples)] for pol, pool in per.items()}
        points = []
        for alpha in ALPHAS:
            row: dict[str, float] = {"alpha": alpha}
            for pol, vals in ps.items():
                row[pol] = round(sum(p <= alpha for p in vals) / len(vals), 3)
            points.append(row)
        # the most sensitive threshold of the grid whose false alarms stay at 1 % or less
        ok = [r for r in points if r["honest"] <= 0.01]
        report[game] = {"deals": {pol: len(pool) for pol, pool in per.items()},
                        "opportunities": {pol: sum(map(len, pool)) for pol, pool in per.items()},
                        "hits": {pol: sum(h for deal in pool for _k, h in deal)
                                 for pol, pool in per.items()},
                        "points": points, "at_1pct": ok[-1] if ok else None}
    print(json.dumps(report, indent=1))
    for game, r in report.items():
        pols = sorted(k for k in r["deals"] if k != "honest")
        print(f"\n{game}: " + ", ".join(
            f"{pol} {r['hits'][pol]}/{r['opportunities'][pol]} hits in {r['deals'][pol]} "
            "deals" for pol in ["honest", *pols]), file=sys.stderr)
        print("| alpha | honest flagged | " + " | ".join(pols) + " |", file=sys.stderr)
        print("|---" * (len(pols) + 2) + "|", file=sys.stderr)
        for row in r["points"]:
            print(f"| {row['alpha']:g} | {row['honest']:.1%} | "
                  + " | ".join(f"{row[p]:.1%}" for p in pols) + " |", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--game", required=True)
    c.add_argument("--options")
    c.add_argument("--table", required=True)
    c.add_argument("--deals", type=int, default=5)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--cache", required=True)
    c.add_argument("--budget-ms", type=float, default=BUDGET_MS)
    r = sub.add_parser("reference")
    r.add_argument("--cache", required=True)
    r.add_argument("--seeds", default="1-99")
    r.add_argument("--out", required=True)
    r.add_argument("--merge", action="store_true",
                   help="replace only the games this cache holds in --out, keep the others")
    o = sub.add_parser("roc")
    o.add_argument("--cache", required=True)
    o.add_argument("--honest-seeds", default="100-199")
    o.add_argument("--samples", type=int, default=200)
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--reference")
    a = ap.parse_args()
    {"collect": collect, "reference": reference, "roc": roc}[a.cmd](a)


if __name__ == "__main__":
    main()
