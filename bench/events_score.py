"""Scoring benchmark for duplicate events (not a test): an event of ``--entrants`` entrants who
each finished ``--boards`` boards, scored from their deals' summaries as the server scores it
(each board's result per entrant, the board matchpointed against the field, the standings).

    python bench/events_score.py --entrants 10000 --boards 8 --game court-piece
    python bench/events_score.py --entrants 10000 --boards 8 --store

With ``--store`` the field is written to a fresh SQLite database (in a temporary folder) as
the server keeps it, and what is timed is the server's own answers: the standings of the
closed event (``GET /api/events/{id}/standings``: read every score, matchpoint, name) and one
board's results (``…/boards/1/results``: every entrant's play of it read back).

The summaries are those of real deals: ``--deals`` boards of the game are played out by the
robots on every seat once, and each entrant's result on a board is one of them drawn from a
seeded rng (a field's spread of results).  Prints the seconds the scoring took (the best of
``--repeat`` runs) and the entrants per second; the issue's bound is 10,000 entrants in under
10 s (issue 45).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from taash.games import game_class
from taash.games.base import Json
from taash.server.config import Settings
from taash.server.events.boards import (
    board_actions,
    board_over,
    board_result,
    deal_board,
    robots_move,
)
from taash.server.events.play import Boards
from taash.server.events.scoring import standings
from taash.server.events.service import Events
from taash.server.store.db import Store
from taash.server.store.schema import event_boards, event_entries, players


def field_deals(game: str, deals: int) -> list[tuple[dict[str, Json], list[dict[str, object]]]]:
    """The summaries and actions of ``deals`` deals of board 1 played by robots on every seat
    (each with another secret: the same board, the field's different lines)."""
    out = []
    for k in range(deals):
        state = deal_board(game, {}, "bench", 1, f"{k:064x}")
        while not board_over(state):
            robots_move(state, "bench-1")
            if not board_over(state):
                state.apply(0, state.legal_actions(0)[k % len(state.legal_actions(0))])
        summary = state.summary()["deals"]
        assert isinstance(summary, list)
        out.append((summary[0], board_actions(state)))
    return out


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


async def store_bench(game: str, entrants: int, boards: int, deals: int, repeat: int,
                      seed: int) -> None:
    """The server's standings and a board's results for a closed event of ``entrants``."""
    pool = field_deals(game, deals)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db_url=f"sqlite:///{Path(folder) / 'bench.db'}")
        store = Store(settings.resolved_db_url())
        await store.migrate()
        events = Events(store)
        now = time.time()
        made = await events.create("host", game, None, boards, now - 60, now + 60)
        eid = made["id"]
        t0 = time.perf_counter()
        async with store.engine.begin() as conn:
            await conn.execute(players.insert(), [
                {"id": f"p{e}", "name": f"Player {e}", "language": "en", "created": now}
                for e in range(entrants)])
            await conn.execute(event_entries.insert(), [
                {"event_id": eid, "player_id": f"p{e}", "entered": now}
                for e in range(entrants)])
            rows = []
            for e in range(entrants):
                for b in range(1, boards + 1):
                    summary, actions = rng.choice(pool)
                    result = board_result(game, summary)
                    rows.append({"event_id": eid, "player_id": f"p{e}", "board": b,
                                 "actions": json.dumps(actions if b == 1 else []),
                                 "version": 13, "last_id": None, "done": True,
                                 "score": result.score, "result": json.dumps(result.json()),
                                 "finished": now})
            await conn.execute(event_boards.insert(), rows)
        print(f"wrote {entrants} entrants x {boards} boards in {time.perf_counter() - t0:.1f} s")
        events.clock = lambda: now + 120  # closed
        play = Boards(events)
        for what, call in (("standings", lambda: play.standings(eid, None)),
                           ("board 1's results", lambda: play.results(eid, "p0", 1))):
            best = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                await call()
                best = min(best, time.perf_counter() - t0)
            print(f"{game}: {what} of {entrants} entrants in {best:.3f} s (best of {repeat})")
        await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--entrants", type=int, default=10_000)
    p.add_argument("--boards", type=int, default=8)
    p.add_argument("--game", default="court-piece")
    p.add_argument("--deals", type=int, default=12)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--store", action="store_true",
                   help="time the server's answers over a SQLite store instead")
    a = p.parse_args()
    game_class(a.game)
    if a.store:
        asyncio.run(store_bench(a.game, a.entrants, a.boards, a.deals, a.repeat, a.seed))
        return
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
