"""Pairing benchmark for Swiss tournaments (not a test): a field of ``--entrants`` entrants
after ``--played`` rounds of random results (each round paired by the server's own pairing,
``taash.server.tournaments.pairing.swiss_pairing``, its games' results drawn from a seeded
rng), then the next round's pairing timed: the median of ``--runs`` runs, and the slowest.

    python bench/tournament_pairing.py --entrants 256 --played 7 --runs 9

Also prints the repeats in the timed pairing (0 unless no pairing without one exists) and the
search's steps.  The issue's bound: a 256-entrant round paired in under a second (issue 47).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from taash.server.tournaments.pairing import (
    WIN,
    Game,
    entrants_for_pairing,
    swiss_pairing,
)


def field(entrants: int, played: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    seeds = {i: i for i in range(1, entrants + 1)}
    games: list[Game] = []
    for r in range(1, played + 1):
        p = swiss_pairing(entrants_for_pairing(seeds, games))
        for a, b in p.pairs:
            games.append(Game(r, a, b, rng.choice((0, 1, 1, 2, 2, 2))))
        if p.bye is not None:
            games.append(Game(r, p.bye, None, WIN))
    return games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entrants", type=int, default=256)
    ap.add_argument("--played", type=int, default=7, help="rounds played before the timed one")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    times = []
    for run in range(a.runs):
        games = field(a.entrants, a.played, a.seed + run)
        seeds = {i: i for i in range(1, a.entrants + 1)}
        t0 = time.perf_counter()
        entrants = entrants_for_pairing(seeds, games)  # what the server does: scores first
        p = swiss_pairing(entrants)
        times.append(time.perf_counter() - t0)
        assert len(p.pairs) * 2 + (p.bye is not None) == a.entrants
        print(f"run {run + 1}: {times[-1] * 1000:.1f} ms, {len(p.pairs)} pairs, "
              f"bye {p.bye}, repeats {p.repeats}")
    print(f"{a.entrants} entrants after {a.played} rounds: median "
          f"{statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms "
          f"over {a.runs} runs")


if __name__ == "__main__":
    main()
