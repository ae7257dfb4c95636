"""Scoring benchmark for duplicate events (not a test): an event of ``--entrants`` entrants who
each finished ``--boards`` boards, scored from their deals' summaries as the server scores it
(each board's result per entrant, the board matchpointed against the field, the standings).

    python bench/events_score.py --entrants 10000 --boards 8 --game court-piece

The summaries are those of real deals: ``--deals`` boards of the game are played out by the
robots on every seat once, and each entrant's result on a board is one of them drawn from a
seeded rng (a field's spread of results).  Prints the seconds the scoring took (the best of
``--repeat`` runs) and the entrants per second; the issue's bound is 10,000 entrants in under
10 s (issue 45).
"""

from __future__ import annotations

import argparse
import random
import time

from taash.games import game_class
from taash.games.base import Json
from taash.server.events.boards import board_over, board_result, deal_board, robots_move
from taash.server.events.scoring import standings


def field_summaries(game: str, deals: int) -> list[dict[str, Json]]:
    """The summaries of ``deals`` deals played by robots on every seat."""
    out = []
    secret = "ab" * 32
    for b in range(1, deals + 1):
        state = deal_board(game, {}, "bench", b, secret)
        while not board_over(state):
            robots_move(state, f"bench-{b}")
            if not board_over(state):  # the entrant's seat: a robot's answer too
                state.apply(0, state.legal_actions(0)[0])
        summary = state.summary()["deals"]
        assert isinstance(summary, list)
        out.append(summary[0])
    return out


def score(game: str, entries: list[list[dict[str, Json]]], boards: int) -> int:
    """The event's standings from every entrant's summaries; their number."""
    per_board: list[dict[str, int]] = [{} for _ in range(boards)]
    for e, deals in enumerate(entries):
        player = f"p{e}"
        for b, deal in enumerate(deals):
            per_board[b][player] = board_result(game, deal).score
    return len(standings(per_board, boards))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--entrants", type=int, default=10_000)
    p.add_argument("--boards", type=int, default=8)
    p.add_argument("--game", default="court-piece")
    p.add_argument("--deals", type=int, default=12)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    game_class(a.game)
    pool = field_summaries(a.game, a.deals)
    rng = random.Random(a.seed)
    # each entrant's result on each board: one of the real deals' results, drawn
    entries = [[rng.choice(pool) for _ in range(a.boards)] for _ in range(a.entrants)]
    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        n = score(a.game, entries, a.boards)
        best = min(best, time.perf_counter() - t0)
    assert n == a.entrants
    print(f"{a.game}: {a.entrants} entrants x {a.boards} boards scored in {best:.3f} s "
          f"(best of {a.repeat}), {a.entrants / best:,.0f} entrants/s")


if __name__ == "__main__":
    main()
