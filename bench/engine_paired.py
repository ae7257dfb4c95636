"""Engine speed on a shared machine: short bursts of OpenSpiel's hearts and of each taash game,
alternating, each burst's ratio to the hearts burst just before it, in CPU time; the median
ratio of the repeats.  The same random play as bench/engine.py (which times long runs one
after another by the wall clock, so a load that comes and goes moves its ratios).

    .venv/bin/python bench/engine_paired.py [--reps 5] [--actions 30000] [--only goat ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import CASES
from taash.games import get_game


def taash_rate(game: str, options: dict[str, object], n: int, seed: int) -> float:
    cls = get_game(game)
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    start = time.process_time()
    while actions < n:
        state = cls.new_match(options, rng=rng, deal=False)
        for _ in range(20):
            state.deal_from(rng)
            while not state.needs_deal() and not state.is_over():
                actors = state.actors()
                seat = actors[0] if len(actors) == 1 else choice(actors)
                state.apply_id(seat, choice(state.legal_ids(seat)))
                actions += 1
            if state.is_over():
                break
    return actions / (time.process_time() - start)


def hearts_rate(game: object, n: int, seed: int) -> float:
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    start = time.process_time()
    while actions < n:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
    return actions / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5, help="bursts per case (the median is shown)")
    ap.add_argument("--actions", type=int, default=30000, help="actions in one burst")
    ap.add_argument("--only", nargs="*", default=None, help="game names (default: all cases)")
    args = ap.parse_args()
    import pyspiel

    hearts = pyspiel.load_game("hearts")
    cases = [(g, o) for g, o in CASES if not args.only or g in args.only]
    ratios: list[list[float]] = [[] for _ in cases]
    rates: list[list[float]] = [[] for _ in cases]
    h_rates = []
    for i in range(args.reps):
        for j, (game, options) in enumerate(cases):
            h = hearts_rate(hearts, args.actions, i)
            r = taash_rate(game, options, args.actions, i)
            h_rates.append(h)
            rates[j].append(r)
            ratios[j].append(r / h)
    print(f"{'case':44} {'actions/s':>12} {'vs hearts':>10} {'min':>6} {'max':>6}")
    for (game, options), rs, qs in zip(cases, rates, ratios, strict=True):
        name = game + " " + ",".join(f"{k}={v}" for k, v in options.items())
        print(f"{name:44} {statistics.median(rs):12,.0f} {statistics.median(qs):9.2f}x "
              f"{min(qs):6.2f} {max(qs):6.2f}")
    print(f"{'open_spiel hearts (pyspiel, C++)':44} {statistics.median(h_rates):12,.0f}")


if __name__ == "__main__":
    main()
