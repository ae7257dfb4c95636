"""How far taash's solver gets with an event board's best result from the first card (not a
test; issue 45, docs/events.md "your deal review against the best result").

Each board of a bench event (a fixed secret) is played by the robots up to its first card, as
an entrant who lets the easy bot call trump for them would have it; then ``taash.review.solver
.bounds`` searches the entrant's side's best result from there, once per budget, each search
in a process of its own (its tables fresh, its peak memory its own).  A board settled within a
budget is not searched again with a larger one.

    python bench/events_best.py --game goat --boards 6 --budgets 2,10,60
    python bench/events_best.py --game court-piece --options '{"sar":"double"}' --boards 6
    python bench/events_best.py --game goat --boards 6 --budgets 60 --probes 12

Prints one line per search: board, budget, seconds taken, settled or not, the proven bounds
(lower <= best <= upper), positions searched, and the process's peak memory (MiB).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import resource
import time
from multiprocessing.connection import Connection

from taash.bots import make_bot
from taash.games.tricks_play import CALL, TrickPlay
from taash.review.solver import bounds
from taash.server.events.boards import (
    ENTRANT,
    at_first_card,
    board_actions,
    opening_actions,
    play_board,
    side_of,
)

EVENT = "bench"
SECRET = hashlib.sha256(b"taash bench events_best").hexdigest()


def opening_of(game: str, options: dict[str, object], board: int) -> tuple[str, ...]:
    """The board's trump call: the robot's where a robot calls, else the easy bot's call for
    the entrant."""
    state = play_board(game, options, EVENT, board, SECRET, [])
    if isinstance(state, TrickPlay) and state.phase == CALL and state.to_move == ENTRANT:
        state.apply(ENTRANT, str(make_bot(game, "easy", seed=board).act(state.view(ENTRANT))))
    return opening_actions(board_actions(state))


def search(game: str, options: dict[str, object], board: int, opening: tuple[str, ...],
           budget: float, probes: int, out: Connection) -> None:
    state = at_first_card(game, options, EVENT, board, SECRET, opening)
    t0 = time.perf_counter()
    b = bounds(state, time_limit=budget, team=side_of(game, ENTRANT), probes=probes)
    took = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.send((took, b.exact, b.lower, b.upper, b.nodes, rss))
    out.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="goat")
    ap.add_argument("--options", default="{}", help="the game's options, JSON")
    ap.add_argument("--boards", type=int, default=6)
    ap.add_argument("--first", type=int, default=1, help="the first board")
    ap.add_argument("--budgets", default="2,10,60", help="seconds, comma-separated")
    ap.add_argument("--probes", type=int, default=0,
                    help="bounds' probes: 0 halves the range; n gives each test 1/n of the time")
    args = ap.parse_args()
    options = json.loads(args.options)
    budgets = [float(x) for x in args.budgets.split(",")]
    ctx = multiprocessing.get_context("spawn")
    print(f"# {args.game} {json.dumps(options)} probes={args.probes}: board budget_s took_s "
          "settled lower upper nodes nodes_per_s peak_MiB opening")
    for board in range(args.first, args.first + args.boards):
        opening = opening_of(args.game, options, board)
        for budget in budgets:
            reader, writer = ctx.Pipe(duplex=False)
            p = ctx.Process(target=search, args=(args.game, options, board, opening, budget,
                                                 args.probes, writer))
            p.start()
            writer.close()
            took, exact, lo, up, nodes, rss = reader.recv()
            p.join()
            print(f"{board} {budget:g} {took:.1f} {'yes' if exact else 'no'} {lo} {up} "
                  f"{nodes} {nodes / max(took, 1e-9):.0f} {rss:.0f} {' '.join(opening)}",
                  flush=True)
            if exact:
                break


if __name__ == "__main__":
    main()
