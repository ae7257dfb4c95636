"""Partnership statistics against colluders (issue 48; not a test): play known tables into
records, keep every decision's facts once, then compare statistics by their ROC.

    # 1. play and scan (one JSON line per deal: the record and, per decision of the seats
    #    scanned, its kind, the open best actions, hard's choice and the partner-seeing
    #    choice with their search's means); run in pieces
    python bench/collusion.py collect --game court-piece --table colluder,hard,colluder,hard~0.1 \
        --seats 0,2 --deals 4 --seed 301 --cache /tmp/col
    # 2. the partner-fit counts of the honest tables (seeds 1-99), into reference.json
    python bench/collusion.py reference --cache /tmp/col --seeds 1-99 \
        --into src/taash/fairplay/reference.json
    # 3. ROC of each statistic: 60-deal samples of colluding and of honest partnerships
    #    (honest seeds 100-199, which the reference did not use)
    python bench/collusion.py roc --cache /tmp/col --samples 400
    #    or with the shipped reference's honest rates (``open``: its counts, ``fit``: its
    #    pair_counts), as the detector scores, where no honest tables of seeds 1-99 were played
    python bench/collusion.py roc --cache /tmp/col --reference src/taash/fairplay/reference.json \
        --stats open,fit
    #    --split-honest: each kind of honest pair of the false-alarm pool measured too (its
    #    false alarms); --fa honest:hard: the threshold from two plain hard bots' samples only

The statistics (per partnership, both seats' decisions pooled):

- ``open``: the detector's open-best opportunities (hard's choice not among the best actions
  with every card open; hit: a best action played), as ``taash fairplay`` scored them before;
- ``fit``: partner-fit (hard's choice and the partner-seeing choice differ; hit: the
  partner-seeing choice played);
- ``fit∩open``: open-best opportunities where the partner-seeing choice is among the best;
- ``open+fit``: both kinds of opportunity in one Poisson-binomial tail;
- ``fit>M``: partner-fit where the partner-seeing search preferred its choice to hard's by at
  least M (mean playout score);
- ``sign``: partner-fit's opportunities where the card played is hard's or the partner-seeing
  one; hit: the partner-seeing one, against an honest rate of one half (an honest player's
  information is hard's, so it should not side with the partner-seeing card more often
  than with hard's, however strong it is: a test that needs no reference);
- ``llr``: the log-likelihood ratio of the plays, a softmax of each search's mean scores
  (``--beta``), partner-seeing against the seat's view: no p-value, its threshold is the
  honest samples' 99th percentile.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from taash.bots.pimc import work_only
from taash.fairplay.cheats import Seat, play_records
from taash.fairplay.detect import GIVE_UP, game_key
from taash.fairplay.open_best import best_actions, node_budget, open_values, position_kind
from taash.fairplay.partner import pair_search
from taash.fairplay.score import rates_from_counts, upper_tail
from taash.review import solver
from taash.review.analyse import hard_search
from taash.review.replay import DealReplay, load_record, replay_deal

HONEST = ("hard", "easy", "random")
BUDGET_MS = 50.0
STATS = ("open", "fit", "fit>0.05", "fit>0.15", "fit∩open", "open+fit", "sign")


def honest(spec: str) -> bool:
    return spec.partition("~")[0] in HONEST and ":" not in spec


def decisions(deal: DealReplay, seats: set[int], budget_ms: float, nodes: int
              ) -> list[list[Any]]:
    """Each decision of ``seats`` with a choice: [seat, step, kind, legal, best (None:
    unsettled), own, pair, played, own means, pair means] (actions as ids)."""
    solver.clear_tables()
    best: dict[int, list[int]] = {}
    unsettled = 0
    for step in reversed(deal.steps):  # as the detector does: from the end back
        if unsettled >= GIVE_UP:
            break
        state = deal.positions[step.index].state
        if step.seat not in seats or state.turn() != step.seat:
            continue
        legal = state.legal_ids(step.seat)
        if len(legal) < 2:
            continue
        vals = open_values(state, step.seat, nodes=nodes)
        if vals is None:
            unsettled += 1
            continue
        unsettled = 0
        best[step.index] = sorted(best_actions(vals, legal))
    out = []
    for step in deal.steps:
        seat = step.seat
        state = deal.positions[step.index].state
        if seat not in seats or state.turn() != seat or len(state.legal_ids(seat)) < 2:
            continue
        own, own_found = hard_search(deal, step.index, budget_ms)
        pair, pair_found = pair_search(deal, step.index, budget_ms)
        out.append([seat, step.index, position_kind(state, seat, step.action),
                    len(state.legal_ids(seat)), best.get(step.index),
                    action_id(state, seat, own), action_id(state, seat, pair),
                    action_id(state, seat, step.action), means(state, seat, own_found),
                    means(state, seat, pair_found)])
    return out


def action_id(state: Any, seat: int, text: str | None) -> int | None:
    return None if not text else int(state.action_id(seat, text))


def means(state: Any, seat: int, found: dict[str, tuple[float, int]] | None
          ) -> dict[str, float] | None:
    """A search's mean score per candidate, by action id (a declined molodka left out)."""
    return None if found is None else {str(action_id(state, seat, a)): round(m, 5)
                                       for a, (m, _n) in found.items() if a}


def collect(a: argparse.Namespace) -> None:
    specs = a.table.split(",")
    seats = {int(x) for x in a.seats.split(",")} if a.seats else set(range(len(specs)))
    options = json.loads(a.options) if a.options else None
    cache = Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / f"{a.game}{'-' + options['sar'] if options else ''}.jsonl"
    nodes = node_budget(a.game, a.solver_ms)
    t0 = time.perf_counter()
    for d in range(a.deals):
        seed = a.seed * 1000 + d
        recs = play_records(a.game, options, [Seat(s, f"{i}:{s}") for i, s in enumerate(specs)],
                            1, seed, a.budget_ms)
        raw = json.loads(json.dumps(recs[0]))
        rec, summary = load_record(json.loads(json.dumps(raw)))
        with work_only():
            found = decisions(replay_deal(rec, 0, summary), seats, a.budget_ms, nodes)
        line = {"game": a.game, "options": options, "seed": a.seed, "deal_seed": seed,
                "table": specs, "seats": sorted(seats), "budget_ms": a.budget_ms,
                "solver_ms": a.solver_ms, "decisions": found, "record": raw}
        with out.open("a") as f:
            f.write(json.dumps(line) + "\n")
        print(f"{a.game} {specs} deal {d + 1}/{a.deals} ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr)


def seeds(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def lines(cache: str) -> list[dict[str, Any]]:
    out = []
    for p in sorted(Path(cache).glob("*.jsonl")):
        out += [json.loads(x) for x in p.read_text().splitlines() if x.strip()]
    return out


# -- the statistics: each decision to (kind, hit) trials of one statistic -----------------

Trial = tuple[str, int]


def clear(dec: list[Any], margin: float) -> bool:
    """Whether the partner-seeing search preferred its choice to hard's by ``margin`` (mean
    playout score; hard's choice not searched by it: yes)."""
    own, pair, pm = dec[5], dec[6], dec[9]
    if not pm or str(pair) not in pm or str(own) not in pm:
        return True
    return bool(pm[str(pair)] - pm[str(own)] >= margin)


def trials(dec: list[Any], stat: str) -> list[Trial]:
    _seat, _step, kind, legal, best, own, pair, played, _om, _pm = dec
    out: list[Trial] = []
    if stat.startswith("fit>"):
        if kind != "call" and own is not None and pair is not None and own != pair and clear(
                dec, float(stat[4:])):
            out.append(("partner:" + kind, int(played == pair)))
        return out
    opened = best is not None and len(best) < legal and own not in best
    if stat in ("open", "open+fit") and opened:
        out.append((kind, int(played in best)))
    if (stat in ("fit", "open+fit") and kind != "call" and own is not None and pair is not None
            and own != pair):
        out.append(("partner:" + kind, int(played == pair)))
    if stat == "fit∩open" and opened and pair in best:
        out.append((kind, int(played in best)))
    if (stat == "sign" and kind != "call" and own is not None and pair is not None
            and own != pair and played in (own, pair)):
        out.append(("partner:" + kind, int(played == pair)))
    return out


def llr(dec: list[Any], beta: float) -> float:
    """log P(played | partner-seeing) - log P(played | own view), each a softmax of the
    search's mean scores; 0 where either did not search or the play was not a candidate."""
    played, om, pm = dec[7], dec[8], dec[9]
    if not om or not pm or str(played) not in om or str(played) not in pm:
        return 0.0

    def logp(means: dict[str, float]) -> float:
        top = max(means.values())
        z = sum(math.exp(beta * (m - top)) for m in means.values())
        return beta * (means[str(played)] - top) - math.log(z)

    return logp(pm) - logp(om)


Unit = list[list[Any]]  # the decisions of one partnership in one deal


def units(cache: str, game: str, split: bool = False) -> dict[str, list[tuple[int, Unit]]]:
    """Per policy ("honest" or a cheat's spec), each partnership-deal: (seed, decisions).
    ``split``: each honest partnership-deal is also under "honest:" and its two specs (its
    kind of honest pair, e.g. ``honest:hard`` for two plain hard bots)."""
    out: dict[str, list[tuple[int, Unit]]] = defaultdict(list)
    for ln in lines(cache):
        if game_key(ln) != game:
            continue
        table = ln["table"]
        for side in ((0, 2), (1, 3)):
            if not set(side) <= set(ln["seats"]):
                continue
            specs = {table[s] for s in side}
            pair = "+".join(sorted(specs))
            unit = (ln["seed"], [d for d in ln["decisions"] if d[0] in side])
            if all(honest(s) for s in specs):
                out["honest"].append(unit)
                if split:
                    out["honest:" + pair].append(unit)
            else:
                out[pair].append(unit)
    return out


def reference_counts(pool: list[tuple[int, Unit]], stat: str) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _seed, unit in pool:
        for dec in unit:
            for kind, hit in trials(dec, stat):
                for k in (kind, "all"):
                    counts[k][0] += 1
                    counts[k][1] += hit
    return dict(counts)


def reference(a: argparse.Namespace) -> None:
    wanted = seeds(a.seeds)
    out = {}
    for game in sorted({game_key(ln) for ln in lines(a.cache)}):
        pool = [u for u in units(a.cache, game).get("honest", []) if u[0] in wanted]
        fit = reference_counts(pool, "fit")
        out[game] = {k.removeprefix("partner:"): v for k, v in fit.items()}
    made_by = " ".join(["python bench/collusion.py", *sys.argv[1:]])
    if a.into:  # merged into a reference file (the shipped one: its open-best counts kept)
        path = Path(a.into)
        data = json.loads(path.read_text())
        data["pair_counts"] = out
        data["meta"]["pair_made_by"] = made_by
        data["meta"]["pair_deals"] = {g: sum(1 for ln in lines(a.cache) if game_key(ln) == g
                                             and ln["seed"] in wanted
                                             and all(honest(x) for x in ln["table"]))
                                      for g in out}
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps({"pair_counts": out, "made_by": made_by}, indent=1, sort_keys=True))


def sample_score(pool: list[Unit], n: int, rng: random.Random, stat: str,
                 rate: Callable[[str], float], posterior: bool) -> float:
    """-log10 p of one n-deal sample of a partnership (``llr``: the summed log-likelihood
    ratio).  ``posterior``: the hits drawn afresh at a rate drawn from the pool's posterior
    (as bench/fairplay.py does: the pools are small); else the sampled deals' own hits."""
    picks = [rng.choice(pool) for _ in range(n)]
    if stat.startswith("llr"):
        beta = float(stat.partition(":")[2])
        return sum(llr(d, beta) for unit in picks for d in unit)
    ts = [t for unit in picks for d in unit for t in trials(d, stat)]
    qs = [rate(k) for k, _h in ts]
    if posterior:
        all_ts = [t for unit in pool for d in unit for t in trials(d, stat)]
        h = sum(x for _k, x in all_ts)
        p = rng.betavariate(h + 1, len(all_ts) - h + 1)
        hits = sum(rng.random() < p for _ in ts)
    else:
        hits = sum(x for _k, x in ts)
    return -math.log10(max(upper_tail(qs, hits), 1e-300))


def roc(a: argparse.Namespace) -> None:
    ref_seeds, honest_seeds = seeds(a.ref_seeds), seeds(a.honest_seeds)
    rng = random.Random(a.seed)
    stats = [*STATS, *(f"llr:{b:g}" for b in a.beta)]
    if a.stats:
        stats = [x for x in stats if x in a.stats.split(",") or x.partition(":")[0] in a.stats]
    shipped = json.loads(Path(a.reference).read_text()) if a.reference else None
    if shipped:  # only the statistics whose honest counts the file holds (or need none)
        stats = [x for x in stats if x in ("open", "fit", "sign") or x.startswith("llr")]
    for game in sorted({game_key(ln) for ln in lines(a.cache)}):
        per = units(a.cache, game, a.split_honest or a.fa != "honest")
        ref_pool = [u for s, u in per.get("honest", []) if s in ref_seeds]
        fa_pool = [u for s, u in per.get(a.fa, []) if s in honest_seeds]
        # honest:... pools (--split-honest): the kinds of honest pair in the false-alarm pool,
        # each measured against its threshold like a cheat (their "detection" is their false
        # alarms)
        cheats = {k: [u for s, u in v if not k.startswith("honest:") or s in honest_seeds]
                  for k, v in sorted(per.items()) if k != "honest"}
        cheats = {k: v for k, v in cheats.items() if v}
        if not (ref_pool or shipped) or not fa_pool or not cheats:
            continue
        ref_text = (f"{a.reference}'s rates" if shipped
                    else f"{len(ref_pool)} honest partnership-deals")
        print(f"\n{game}: reference {ref_text}, false-alarm ({a.fa}) "
              f"pool {len(fa_pool)}, " + ", ".join(f"{k} {len(v)}" for k, v in cheats.items()),
              file=sys.stderr)
        print("| statistic | pool hits/opportunities (honest; cheat) | det. at 1 % FA "
              "(posterior) | det. at 1 % FA (plain) | FA / det. at p ≤ 0.001 |",
              file=sys.stderr)
        print("|---|---|---|---|---|", file=sys.stderr)
        for stat in stats:
            rates = {}
            if stat == "sign":  # an honest seat knows what hard knows: half the time at most
                rates = {"all": 0.5}
            elif shipped and not stat.startswith("llr"):
                got = shipped["counts" if stat == "open" else "pair_counts"].get(game, {})
                rates = rates_from_counts({"g": {k if stat == "open" or k == "all"
                                                 else "partner:" + k: v
                                                 for k, v in got.items()}})["g"]
            elif not stat.startswith("llr"):
                rates = rates_from_counts({"g": reference_counts(
                    [(0, u) for u in ref_pool], stat)})["g"]

            def rate(k: str, rates: dict[str, float] = rates) -> float:
                return rates.get(k, rates.get("all", 0.5))

            binomial = not stat.startswith("llr")
            post = at_1pct(a, rng, fa_pool, cheats, stat, rate, True)[0] if binomial else "-"
            plain, hs, got = at_1pct(a, rng, fa_pool, cheats, stat, rate, False)
            fixed = counts = "-"
            if binomial:
                fixed = f"{sum(h >= 3 for h in hs) / len(hs):.1%} / " + ", ".join(
                    f"{sum(c >= 3 for c in cs) / len(cs):.0%}" for cs in got)
                counts = tally(fa_pool, stat) + "; " + ", ".join(
                    tally(v, stat) for v in cheats.values())
            print(f"| {stat} | {counts} | {post} | {plain} | {fixed} |", file=sys.stderr)


def tally(pool: list[Unit], stat: str) -> str:
    ts = [t for u in pool for d in u for t in trials(d, stat)]
    return f"{sum(h for _k, h in ts)}/{len(ts)}"


def at_1pct(a: argparse.Namespace, rng: random.Random, fa_pool: list[Unit],
            cheats: dict[str, list[Unit]], stat: str, rate: Callable[[str], float],
            posterior: bool) -> tuple[str, list[float], list[list[float]]]:
    """The threshold flagging 1 % of honest samples, and each cheat's samples above it."""
    hs = sorted(sample_score(fa_pool, a.deals, rng, stat, rate, posterior)
                for _ in range(a.samples))
    thr = hs[min(len(hs) - 1, math.ceil(0.99 * len(hs)))]
    got = [[sample_score(pool, a.deals, rng, stat, rate, posterior) for _ in range(a.samples)]
           for pool in cheats.values()]
    text = ", ".join(f"{name} {sum(c > thr for c in cs) / len(cs):.0%}"
                     for name, cs in zip(cheats, got, strict=True))
    return f"{text} (threshold {thr:.2f})", hs, got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--game", required=True)
    c.add_argument("--options")
    c.add_argument("--table", required=True)
    c.add_argument("--seats", help="seats to scan (default: all)")
    c.add_argument("--deals", type=int, default=3)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--cache", required=True)
    c.add_argument("--budget-ms", type=float, default=BUDGET_MS)
    c.add_argument("--solver-ms", type=float, default=500.0)
    r = sub.add_parser("reference")
    r.add_argument("--cache", required=True)
    r.add_argument("--seeds", default="1-99")
    r.add_argument("--into", help="a reference file to write the pair counts into")
    o = sub.add_parser("roc")
    o.add_argument("--cache", required=True)
    o.add_argument("--ref-seeds", default="1-99")
    o.add_argument("--honest-seeds", default="100-199")
    o.add_argument("--samples", type=int, default=400)
    o.add_argument("--deals", type=int, default=60)
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--beta", type=float, nargs="*", default=[10.0, 30.0])
    o.add_argument("--reference", help="take the honest rates from this reference file "
                   "(the shipped one: src/taash/fairplay/reference.json) instead of the "
                   "cache's honest tables of --ref-seeds")
    o.add_argument("--stats", help="only these statistics (comma-separated; llr: every beta)")
    o.add_argument("--fa", default="honest", help="the pool whose samples set the 1 %% "
                   "threshold: honest (every honest pair), or one kind of honest pair "
                   "(honest:hard: two plain hard bots; see --split-honest)")
    o.add_argument("--split-honest", action="store_true",
                   help="also each kind of honest pair of the false-alarm pool against the "
                   "threshold, as if it were a cheat: its false alarms")
    a = ap.parse_args()
    {"collect": collect, "reference": reference, "roc": roc}[a.cmd](a)


if __name__ == "__main__":
    main()
