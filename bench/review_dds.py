"""DDS (``taash.review.dds``, endplay) against the own solver (``taash.review.solver``) on
random four-player single-sar deals, and what each costs the deal review.

    .venv/bin/python bench/review_dds.py [--deals 10] [--cards 7] [--limit 2] [--analyse 1]

- **Agreement.** ``--deals`` seeded deals played by random legal moves (the trump call at
  random): every card-play position, mid-trick ones too, solved by DDS; those with ``--cards``
  cards a hand or fewer (13: every one) solved by the own solver too, counting every trick to
  the 13th as DDS does (``play_out``), from the deal's last position back (its table carries
  the work), ``--limit`` seconds each.  Both give, per legal card, the tricks the side to move
  takes from there; any difference is printed and makes the exit status 1.  Positions the own
  solver does not settle in time are counted apart.
- **Speed.** Positions solved per second by each solver (DDS over every position; the own
  solver over those it was given), one core.
- **A whole deal.** The review's open-cards analysis (``analyse_deal``, ``hard`` left out) of
  ``--analyse`` seeded deals, once with DDS and once with the own solver alone (``--limit``
  seconds a position): the time per deal and how many plays each could judge.

Bounded: the own solver's time is at most ``--limit`` a position; ``--deals`` stays small by
default (the issue's check is ``--deals 200``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from taash.games import game_class
from taash.record import random_record
from taash.review import dds
from taash.review.analyse import analyse_deal
from taash.review.replay import load_record, replay_deal
from taash.review.solver import action_values, clear_tables


def positions(seed: int) -> list[Any]:
    """Every card-play position of one seeded single-sar deal played by random legal moves."""
    rng = random.Random(seed)
    m: Any = game_class("court-piece").new_match({}, seed=seed).clone()  # stops at the end
    out = []
    while (seat := m.turn()) is not None:
        if m.phase == 1:
            out.append(m.clone())
        m.apply_id(seat, rng.choice(m.legal_ids(seat)))
    return out


def agreement(deals: int, cards: int, limit: float) -> int:
    n_dds = n_own = unsettled = 0
    t_dds = t_own = 0.0
    wrong: list[str] = []

    def report(done: int) -> None:
        print(f"{done} single-sar deals: {n_dds} positions solved by DDS, {n_own} of them "
              f"({cards} cards a hand or fewer) by the own solver too; {len(wrong)} disagree, "
              f"{unsettled} not settled by the own solver within {limit:g} s; "
              f"DDS {n_dds / max(t_dds, 1e-9):.1f} positions/s "
              f"({t_dds * 1000 / max(n_dds, 1):.1f} ms each), own solver "
              f"{n_own / max(t_own, 1e-9):.1f} positions/s "
              f"({t_own * 1000 / max(n_own + unsettled, 1):.1f} ms each)", flush=True)

    for seed in range(deals):
        clear_tables()
        for i, st in reversed(list(enumerate(positions(seed)))):
            t = time.perf_counter()
            want = dds.action_values(st)
            t_dds += time.perf_counter() - t
            n_dds += 1
            if max(h.bit_count() for h in st.hands) > cards:
                continue
            t = time.perf_counter()
            got = action_values(st, time_limit=limit, play_out=True)
            t_own += time.perf_counter() - t
            if set(got) != set(st.legal_ids(st.to_move)):
                unsettled += 1
                continue
            n_own += 1
            if got != want:
                wrong.append(f"deal {seed} position {i}: own {got} DDS {want}")
                print(wrong[-1], flush=True)
        if (seed + 1) % 20 == 0 and seed + 1 < deals:
            report(seed + 1)  # so far (a run cut short still says something)
    report(deals)
    return len(wrong)


def whole_deals(count: int, limit: float) -> None:
    for seed in range(count):
        rec, summary = load_record(random_record("court-piece", None, seed=seed, deals=1))
        d = replay_deal(rec, 0, summary)
        for use in (True, False):
            clear_tables()
            t = time.perf_counter()
            a = analyse_deal(d, hard=False, time_limit=limit, use_dds=use)
            took = time.perf_counter() - t
            plays = [r for r in a.actions if r.action.startswith("play:")]
            judged = sum(1 for r in plays if r.open is not None and r.open.verdict is not None)
            print(f"deal {seed}: the open-cards analysis with {a.solver or 'no solver':10} "
                  f"{took:6.1f} s, {judged} of {len(plays)} plays judged", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, default=10, help="random single-sar deals compared")
    ap.add_argument("--cards", type=int, default=7,
                    help="the own solver is compared from this many cards a hand on (13: all)")
    ap.add_argument("--limit", type=float, default=2.0,
                    help="the own solver's seconds a position")
    ap.add_argument("--analyse", type=int, default=1, metavar="K",
                    help="whole deals analysed with each solver (0: none)")
    args = ap.parse_args()
    if not dds.available():
        raise SystemExit("DDS is not available: endplay is not installed or did not load")
    if args.deals < 0 or args.analyse < 0 or not 1 <= args.cards <= 13 or args.limit <= 0:
        raise SystemExit("--deals and --analyse are 0 or more, --cards 1..13, --limit > 0")
    t = time.perf_counter()
    wrong = agreement(args.deals, args.cards, args.limit)
    whole_deals(args.analyse, args.limit)
    print(f"{time.perf_counter() - t:.0f} s in all")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
