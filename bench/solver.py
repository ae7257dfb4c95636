"""Exact solver speed (``taash.review.solver``), one core, every game.

    .venv/bin/python bench/solver.py [--seconds 60] [--limit 2] [--tricks 5]
    .venv/bin/python bench/solver.py --dds-compare 200 [--limit 2] [--tricks 13]
    .venv/bin/python bench/solver.py --analyse [--limit 2]

Two figures per game, the budget ``--seconds`` (at most 60) shared out between them:

- positions per second: random endgames (``--tricks`` tricks left; Goat: the stock empty,
  four cards or fewer each) solved exactly, one after another, each from an empty table;
- a whole deal: a seeded deal played by random legal moves, every position of it solved with
  ``--limit`` seconds each, from the last position back to the first (the solver's table,
  kept between calls, then carries each position's work to the one before); it prints how
  many were exact, from which trick on every position was, and the time taken.

``--dds-compare N`` instead compares the solver with DDS (``bench/dd.py``, the library in the
``endplay`` wheel) on N random four-player single-sar deals: every position of each deal
(random legal play, the trump call made at once) with ``--tricks`` tricks left or fewer, both
counting every trick to the 13th (``play_out``, as DDS does): the tricks the mover's side takes
after each legal card.  Positions the solver does not settle within ``--limit`` seconds are
counted apart, not compared; any disagreement is printed and makes the exit status 1.

``--analyse`` times the review's whole analysis (``taash.review.analyse.analyse_deal``: hard's
choice from each seat's view and the exact solver, ``--limit`` seconds a position) of one
seeded random deal of each game, and says how many actions the solver judged.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from taash.games import game_class
from taash.review.solver import action_values, clear_tables, solve

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("single sar", "court-piece", {}),
    ("double sar, ace rule", "court-piece", {"sar": "double", "ace_rule": True}),
    ("two-player", "court-piece-2p", {}),
    ("goat", "goat", {}),
]


def random_deal(game: str, options: dict[str, Any], seed: int) -> list[Any]:
    """Every position of one deal played by random legal moves (trump call made at once),
    each a clone that stops at the deal's end."""
    rng = random.Random(seed)
    m = game_class(game).new_match(options, seed=seed).clone()
    out = []
    while (seat := m.turn()) is not None:
        if game != "goat" and m.phase == 0:
            m.apply_id(seat, m.legal_ids(seat)[0])
            continue
        out.append(m.clone())
        s = rng.choice(m.actors()) if game == "goat" else seat
        m.apply_id(s, rng.choice(m.legal_ids(s)))
    return out


def endgames(game: str, options: dict[str, Any], tricks: int, seed: int) -> list[Any]:
    deal = random_deal(game, options, seed)
    if game == "goat":
        return [p for p in deal if p.stock_pos >= 36]
    return [p for p in deal if p.hands[p.to_move].bit_count() <= tricks]


def per_second(game: str, options: dict[str, Any], tricks: int, seconds: float) -> str:
    solved = nodes = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for p in endgames(game, options, tricks, seed):
            clear_tables()  # each one solved cold
            s = solve(p, time_limit=seconds)
            solved += s.exact
            nodes += s.nodes
            if time.perf_counter() - start >= seconds:
                break
        seed += 1
    took = time.perf_counter() - start
    return (f"{solved / took:8.1f} positions/s ({solved} in {took:.1f} s, "
            f"{nodes / took:,.0f} nodes/s)")


def whole_deal(game: str, options: dict[str, Any], limit: float, seconds: float) -> str:
    deal = random_deal(game, options, 1)
    clear_tables()
    start = time.perf_counter()
    exact = 0
    first_exact = len(deal)
    done = 0
    for i in range(len(deal) - 1, -1, -1):
        if time.perf_counter() - start + limit > seconds:
            break
        s = solve(deal[i], time_limit=limit)
        done += 1
        if s.exact:
            exact += 1
            if first_exact == i + 1:
                first_exact = i
    took = time.perf_counter() - start
    p = deal[first_exact] if first_exact < len(deal) else None
    if p is None:
        where = "none exact"
    elif game == "goat":
        where = f"exact from position {first_exact + 1} (stock {36 - p.stock_pos} left)"
    else:
        left = p.hands[p.to_move].bit_count()
        where = f"exact from position {first_exact + 1} ({left} tricks left)"
    return (f"{len(deal)} positions, {done} solved in {took:.1f} s, {exact} exact, {where}")


def load_dd() -> ModuleType:
    """bench/dd.py (DDS through the endplay wheel), loaded from beside this file."""
    spec = importlib.util.spec_from_file_location("dd", Path(__file__).with_name("dd.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def single_sar_positions(seed: int, tricks: int) -> list[Any]:
    """Every card-play position of a seeded single-sar deal (random legal play, the trump
    call made at once) with ``tricks`` tricks left or fewer, each a clone."""
    return [p for p in random_deal("court-piece", {}, seed)
            if max(h.bit_count() for h in p.hands) <= tricks]


def dds_compare(seeds: range, tricks: int, limit: float,
                dd: ModuleType | None = None) -> tuple[int, int, int, list[str]]:
    """Every position of ``single_sar_positions`` for these seeds, the solver against DDS:
    (positions compared, cards compared, positions not settled in ``limit``, disagreements).
    Each deal is solved from its last position back (the solver's table carries the work)."""
    dd = dd or load_dd()
    compared = cards = unsettled = 0
    wrong: list[str] = []
    for seed in seeds:
        clear_tables()
        for i, st in reversed(list(enumerate(single_sar_positions(seed, tricks)))):
            want, _ = dd.solve(list(st.hands), st.trump, st.leader, list(st.trick))
            got = action_values(st, time_limit=limit, play_out=True)
            legal = st.legal_ids(st.to_move)
            if set(got) != set(legal):
                unsettled += 1
                continue
            compared += 1
            cards += len(got)
            if got != want:
                wrong.append(f"deal {seed} position {i}: solver {got} DDS {want}")
    return compared, cards, unsettled, wrong


def analyse_whole_deals(limit: float) -> None:
    from taash.record import random_record
    from taash.review.analyse import analyse_deal
    from taash.review.replay import load_record, replay_deal

    for name, game, options in CASES:
        rec, summary = load_record(random_record(game, options or None, seed=1, deals=1))
        d = replay_deal(rec, 0, summary)
        start = time.perf_counter()
        a = analyse_deal(d, time_limit=limit)
        took = time.perf_counter() - start
        judged = sum(s.judged for s in a.seats)
        print(f"{name:22} {len(a.actions)} actions analysed in {took:.0f} s "
              f"({judged} judged with all cards open)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="the whole bench's budget")
    ap.add_argument("--limit", type=float, default=2.0, help="time limit per position")
    ap.add_argument("--tricks", type=int, default=5, help="tricks left in the endgames")
    ap.add_argument("--dds-compare", type=int, metavar="N", default=0,
                    help="compare with DDS on N random single-sar deals instead")
    ap.add_argument("--analyse", action="store_true",
                    help="time the review's analysis of a whole deal of each game instead")
    args = ap.parse_args()
    if args.analyse:
        analyse_whole_deals(args.limit)
        return
    if args.dds_compare:
        start = time.perf_counter()
        tricks = args.tricks if "--tricks" in sys.argv else 13
        compared, cards, unsettled, wrong = dds_compare(range(args.dds_compare), tricks,
                                                        args.limit)
        for line in wrong:
            print(line)
        print(f"{args.dds_compare} single-sar deals, positions with {tricks} tricks left or "
              f"fewer: {compared} compared ({cards} cards), {len(wrong)} disagree, "
              f"{unsettled} not settled within {args.limit:g} s; "
              f"{time.perf_counter() - start:.0f} s")
        sys.exit(1 if wrong else 0)
    budget = min(args.seconds, 60.0) / len(CASES)
    for name, game, options in CASES:
        print(f"{name:22} endgames ({args.tricks} tricks): "
              f"{per_second(game, options, args.tricks, budget * 0.3)}", flush=True)
        print(f"{'':22} a whole deal, {args.limit:g} s a position: "
              f"{whole_deal(game, options, args.limit, budget * 0.7)}", flush=True)


if __name__ == "__main__":
    main()
