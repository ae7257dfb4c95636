"""Profile and history latency for a player with many finished matches (not a test).

Fills a fresh SQLite database (migrated as the server does) with one player's N finished matches
(history lines, ratings, stats; 10,000 by default) among other players' matches, starts
``taash serve`` on it (127.0.0.1), and times sequential requests of

- ``GET /api/players/{id}`` (the profile: ratings, stats, the ten most recent matches),
- ``GET /api/players/{id}/history`` (the first page) and a page from the middle (``before``),

printing p50, p99 and max in milliseconds for each.

    python bench/profile_load.py --matches 10000 --requests 500

The client shares the machine's CPUs with the server: the figures are for both together.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from sqlalchemy.engine import make_url

from taash.server.store.db import Store
from taash.server.store.schema import match_results, player_stats, players, ratings
from taash.stats import GameStats, Tally

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("court-piece", "court-piece-2p", "goat")
PLAYER = "benchplayer0000001"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def fill(url: str, matches: int, others: int) -> float:
    """The database: PLAYER's ``matches`` and ``others`` matches of other players; returns the
    middle match's end time (for a history page from the middle)."""
    store = Store(make_url(url))
    await store.migrate()
    rng = random.Random(1)
    now = time.time()
    people = [PLAYER] + [f"benchother{i:08d}" for i in range(200)]
    async with store.engine.begin() as conn:
        await conn.execute(players.insert(), [
            {"id": p, "name": f"Player {i}", "language": "en", "created": now - 1e8,
             "deleted": None, "email": None} for i, p in enumerate(people)])
        rows = []
        for i in range(matches + others):
            who = PLAYER if i < matches else rng.choice(people[1:])
            game = GAMES[i % 3]
            opp = {"type": "human", "name": "Someone", "player": rng.choice(people[1:])}
            rows.append({"player_id": who, "table_id": f"t{i:010d}", "game": game,
                         "seat": i % 2, "result": rng.choice((1, -1)),
                         "ended": now - (matches + others - i) * 60.0,
                         "entry": json.dumps({"options": {"target": 5}, "partners": [],
                                              "opponents": [opp]}),
                         "mu": 25 + rng.random(), "sigma": 3.0})
            if len(rows) == 5000:
                await conn.execute(match_results.insert(), rows)
                rows = []
        if rows:
            await conn.execute(match_results.insert(), rows)
        for game in GAMES:
            await conn.execute(ratings.insert().values(
                player_id=PLAYER, game=game, mu=27.0, sigma=2.0, matches=matches // 3,
                updated=now))
            st = GameStats(game, matches=Tally(matches // 3, matches // 6, matches // 6, 0),
                           deals_played=matches * 4, deals_won=matches * 2,
                           by_opponent={"people": Tally(matches // 3, matches // 6,
                                                        matches // 6, 0)})
            await conn.execute(player_stats.insert().values(
                player_id=PLAYER, game=game, stats=json.dumps(st.state())))
    await store.close()
    return now - (matches // 2 + others) * 60.0


def timed(client: httpx.Client, path: str, n: int, **params: object) -> list[float]:
    for _ in range(20):  # warm up
        client.get(path, params=params).raise_for_status()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        r = client.get(path, params=params)
        out.append((time.perf_counter() - t) * 1000)
        r.raise_for_status()
    return out


def show(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:34} n={len(ms):5}  p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  "
          f"max {ms[-1]:6.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--others", type=int, default=10_000, help="other players' matches")
    ap.add_argument("--requests", type=int, default=500)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        t = time.perf_counter()
        middle = asyncio.run(fill(url, args.matches, args.others))
        print(f"filled in {time.perf_counter() - t:.1f} s: {args.matches} matches of one player, "
              f"{args.others} of 200 others")
        port = free_port()
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        proc = subprocess.Popen([sys.executable, "-m", "taash", "serve", "--port", str(port),
                                 "--db", url, "--rate-limit", "0"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, timeout=10) as c:
                deadline = time.monotonic() + 30
                while True:
                    try:
                        if c.get("/api/health").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not start")
                    time.sleep(0.1)
                n = args.requests
                show("GET /api/players/{id}", timed(c, f"/api/players/{PLAYER}", n))
                show("GET /api/players/{id}/history", timed(c, f"/api/players/{PLAYER}/history",
                                                            n))
                show("  ... ?before=middle", timed(c, f"/api/players/{PLAYER}/history", n,
                                                   before=middle))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
