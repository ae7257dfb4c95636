"""Pairing benchmark for Swiss tournaments (not a test): a field of ``--entrants`` entrants
after ``--played`` rounds of random results (each round paired by the server's own pairing,
``taash.server.tournaments.pairing.swiss_pairing``, its games' results drawn from a seeded
rng), then the next round's pairing timed: the median of ``--runs`` runs, and the slowest.

    python bench/tournament_pairing.py --entrants 256 --played 7 --runs 9

Also prints the repeats in the timed pairing (0 unless no pairing without one exists).  With
``--hopeless`` the field is the search's worst case instead: the lowest seed has met everyone,
so no pairing without a repeat exists and the search runs its whole budget before the greedy
fallback.  The issue's bound: a 256-entrant round paired in under a second (issue 47).

    python bench/tournament_pairing.py --entrants 256 --hopeless --runs 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from taash.server.tournaments.pairing import (
    WIN,
    Entrant,
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
    ap.add_argument("--hopeless", action="store_true",
                    help="the worst case: the lowest seed has met everyone")
    a = ap.parse_args()
    times = []
    n = a.entrants
    for run in range(a.runs):
        t0 = time.perf_counter()
        if a.hopeless:
            entrants = [Entrant(i, i, 0, frozenset({n})) for i in range(1, n)]
            entrants.append(Entrant(n, n, 0, frozenset(range(1, n))))
            t0 = time.perf_counter()
        else:
            games = field(n, a.played, a.seed + run)
            t0 = time.perf_counter()
            # what the server does: the scores from the games, then the pairing
            entrants = entrants_for_pairing({i: i for i in range(1, n + 1)}, games)
        p = swiss_pairing(entrants)
        times.append(time.perf_counter() - t0)
        assert len(p.pairs) * 2 + (p.bye is not None) == a.entrants
        print(f"run {run + 1}: {times[-1] * 1000:.1f} ms, {len(p.pairs)} pairs, "
              f"bye {p.bye}, repeats {p.repeats}")
    what = "the hopeless field" if a.hopeless else f"after {a.played} rounds"
    print(f"{a.entrants} entrants, {what}: median "
          f"{statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms "
          f"over {a.runs} runs")


if __name__ == "__main__":
    main()
