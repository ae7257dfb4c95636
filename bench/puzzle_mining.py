"""What the server's puzzle miner costs a finished match (issue 49; not a test): the easy bot's
matches at every seat (``taash.fairplay.cheats.play_records``, seeded), each mined as the
miner's worker mines a queued match (``taash.server.puzzles_mining.work.mine_match``: the
record checked, each finished deal searched by ``taash.puzzles.mine``, the solver's 1 s a
position); prints per game the deals, the puzzles found and the seconds of one core a deal.

    PYTHONPATH=src python bench/puzzle_mining.py --deals 6 --seed 1

The solver's limit is wall-clock time: on a loaded machine a position may go unsolved (and its
puzzle unfound) and the seconds grow."""

from __future__ import annotations

import argparse
import json
import time

from taash.fairplay.cheats import Seat, play_records
from taash.games import game_class
from taash.puzzles.store import GAMES
from taash.server.puzzles_mining.service import MAX_DEALS, TIME_LIMIT
from taash.server.puzzles_mining.work import mine_match


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=6, help="deals played per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    print("| game | matches | deals | puzzles | s a deal (CPU) | s a deal (wall) |")
    print("|---|---:|---:|---:|---:|---:|")
    for game in args.games.split(","):
        seats = [Seat("easy", f"E{i}") for i in range(game_class(game).num_seats)]
        recs = play_records(game, {}, seats, args.deals, args.seed)
        deals = puzzles = 0
        cpu, wall = time.process_time(), time.perf_counter()
        for rec in recs:
            found = mine_match(json.dumps(rec), TIME_LIMIT, MAX_DEALS)
            deals += min(len(rec["deals"]), MAX_DEALS)
            puzzles += len(found)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"| {game} | {len(recs)} | {deals} | {puzzles} | {cpu / max(deals, 1):.1f} | "
              f"{wall / max(deals, 1):.1f} |", flush=True)


if __name__ == "__main__":
    main()
