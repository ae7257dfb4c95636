"""Engine speed: uniformly random play through the core's public step API.

    .venv/bin/python bench/engine.py [--seconds 2] [--runs 5]

For each game it plays random matches (legal_ids, then apply_id, for every seat that may act)
and prints actions per second and deals per second, the median of several runs.  If open-spiel
is installed it does the same for OpenSpiel's C++ `hearts` through pyspiel and prints the ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from taash.games import get_game

CASES = [
    ("court-piece", {"sar": "single", "session_end": None}),
    ("court-piece", {"sar": "double", "ace_rule": True, "session_end": None}),
    ("court-piece-2p", {"target": 1000000}),
    ("goat", {"target": 1000000}),
]


def taash_run(game: str, options: dict[str, object], seconds: float, seed: int
              ) -> tuple[int, int, float]:
    """Random play for about ``seconds``; returns (actions, deals, elapsed)."""
    cls = get_game(game)
    rng = random.Random(seed)
    choice = rng.choice
    actions = deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = cls.new_match(options, rng=rng, deal=False)
        for _ in range(20):
            state.deal_from(rng)
            while not state.needs_deal() and not state.is_over():
                actors = state.actors()
                seat = actors[0] if len(actors) == 1 else choice(actors)
                state.apply_id(seat, choice(state.legal_ids(seat)))
                actions += 1
            deals += 1
            if state.is_over():
                break
    return actions, deals, time.perf_counter() - start


def hearts_run(seconds: float, seed: int) -> tuple[int, int, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    choice = rng.choice
    actions = deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(choice(outcomes)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        deals += 1
    return actions, deals, time.perf_counter() - start


def median_rates(run: Callable[[int], tuple[int, int, float] | None], runs: int
                 ) -> tuple[float, float] | None:
    aps, dps = [], []
    for i in range(runs):
        r = run(i)
        if r is None:
            return None
        a, d, t = r
        aps.append(a / t)
        dps.append(d / t)
    return statistics.median(aps), statistics.median(dps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    ap.add_argument("--runs", type=int, default=5, help="runs per case (the median is shown)")
    args = ap.parse_args()
    hearts = median_rates(lambda i: hearts_run(args.seconds, i), args.runs)
    print(f"{'case':44} {'actions/s':>12} {'deals/s':>10} {'vs hearts':>10}")
    for game, options in CASES:
        r = median_rates(lambda i, g=game, o=options: taash_run(g, o, args.seconds, i), args.runs)
        assert r is not None
        ratio = f"{r[0] / hearts[0]:.2f}x" if hearts else "-"
        name = game + " " + ",".join(f"{k}={v}" for k, v in options.items())
        print(f"{name:44} {r[0]:12,.0f} {r[1]:10,.1f} {ratio:>10}")
    if hearts:
        print(f"{'open_spiel hearts (pyspiel, C++)':44} {hearts[0]:12,.0f} {hearts[1]:10,.1f}")
    else:
        print("open_spiel is not installed: pip install 'taash[rl]' for the comparison")


if __name__ == "__main__":
    main()
