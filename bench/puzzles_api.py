"""What the puzzles API costs in process (not a test): the app and its services on a SQLite
file, driven through httpx's ASGI transport, no network.  It times the first puzzle asked (the
shipped set read once), then rounds of one signed-in player's next puzzle and attempt (the
position rebuilt by the core, the attempt kept and both ratings moved in one transaction):

    python bench/puzzles_api.py --puzzles 200

Prints the first request's time, the median and 95th percentile of ``next`` and ``attempt``
(milliseconds), and the process's peak memory (resident set, MB).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from taash.server.app import Services, create_app
from taash.server.config import Settings
from taash.server.store.db import Store

BASE = "http://bench"


async def run(puzzles: int, game: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(db_url=f"sqlite:///{Path(tmp) / 'p.db'}", rate_limit=0)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)
        await services.start()
        app = create_app(settings, services=services)
        http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE,
                                 headers={"Origin": BASE})
        try:
            me = (await http.get("/api/me")).json()["id"]
            await store.set_email(me, "bench@example.org")  # rated
            t0 = time.perf_counter()
            r = await http.get(f"/api/puzzles/next?game={game}")
            first = time.perf_counter() - t0
            assert r.status_code == 200, r.text
            nexts, attempts = [], []
            for _ in range(puzzles):
                t0 = time.perf_counter()
                p = (await http.get(f"/api/puzzles/next?game={game}")).json()
                t1 = time.perf_counter()
                a = await http.post(f"/api/puzzles/{p['id']}/attempts",
                                    json={"action": p["view"]["legal_actions"][0]})
                t2 = time.perf_counter()
                assert a.status_code == 200, a.text
                nexts.append(t1 - t0)
                attempts.append(t2 - t1)
        finally:
            await http.aclose()
            await services.close()
            await store.close()

    def ms(xs: list[float], q: float) -> str:
        xs = sorted(xs)
        return f"{1000 * xs[min(len(xs) - 1, int(q * len(xs)))]:.1f}"

    print(f"{game}: first request (the set read) {first * 1000:.0f} ms; "
          f"next median {1000 * statistics.median(nexts):.1f} ms, p95 {ms(nexts, 0.95)} ms; "
          f"attempt median {1000 * statistics.median(attempts):.1f} ms, "
          f"p95 {ms(attempts, 0.95)} ms; peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--game", default="goat")
    args = ap.parse_args()
    asyncio.run(run(args.puzzles, args.game))


if __name__ == "__main__":
    main()
