"""The server's fair-play job on known players (issue 48; not a test): the arena's records of
one player per run, queued as a table's match end queues them (seat 0 a player's, seat 1 a
bot), scanned by the job's worker process after each match, and weighed; prints the deals fed
when a case first opened, the player's statistics over them, and the job's wall time.

    PYTHONPATH=src python bench/fairplay_job.py --policy peeker:1 --seeds 1 --deals 20
    PYTHONPATH=src python bench/fairplay_job.py --policy hard --seeds 101-103 --deals 20

The detector's and the policies' hard bot think 50 ms a move (counted in work); the solver's
budget is counted in positions searched (``TAASH_FAIRPLAY_SOLVER_MS``, 500 reference ms), so
a run finds the same on any machine (before 2026-12-07 it was 0.5 s of wall-clock time)."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from taash.fairplay.cheats import Seat, play_records
from taash.fairplay.detect import Opportunity, load_reference, verdict
from taash.server.app import Services, create_app
from taash.server.config import Settings
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore


def seeds(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def as_table(rec: dict[str, Any], table: str, player: str) -> dict[str, Any]:
    out = dict(rec, table=table)
    out["seats"] = [{"type": "human", "level": None, "name": s["name"], "player": player}
                    if i == 0 else {**s, "player": None} for i, s in enumerate(rec["seats"])]
    return out


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as d:
        settings = Settings(db_url=f"sqlite:///{Path(d) / 'bench.db'}")
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)
        await services.start()
        http = httpx.AsyncClient(transport=httpx.ASGITransport(
            app=create_app(settings, services=services)), base_url="http://b")
        fp, kept = services.fairplay, FairPlayStore(store)
        try:
            for seed in seeds(args.seeds):
                http.cookies.clear()
                player = (await http.get("/api/me")).json()["id"]
                recs = play_records(args.game, {}, [Seat(args.policy, "P"),
                                                    Seat(args.against, "B")],
                                    args.deals, seed, 50.0)
                deals, flagged_at, spent = 0, None, 0.0
                for i, rec in enumerate(recs):
                    start = time.perf_counter()
                    await fp.queue(f"s{seed}m{i}", args.game, 1000.0 + i,
                                   as_table(rec, f"s{seed}m{i}", player))
                    await fp.drain()
                    spent += time.perf_counter() - start
                    deals += len(rec["deals"])
                    if flagged_at is None and await kept.open_case(player):
                        flagged_at = deals
                rows = await kept.scans(player, -1.0, 1000)
                ops = [Opportunity(r.table_id, dl, st, 0, g, k, h)
                       for r in rows for dl, st, g, k, h in r.opportunities]
                v = verdict(player, (player,), sum(r.judged for r in rows), ops,
                            load_reference(), settings.fairplay_alpha)
                print(f"{args.policy} seed {seed}: {deals} deals in {len(recs)} matches, "
                      f"flagged at {flagged_at or '-'} deals; judged {v.judged}, "
                      f"{v.hits} of {v.opportunities} opportunities hit (honest "
                      f"{v.expected:.1f}), p = {v.p_value:.3g}; the job's wall time "
                      f"{spent:.1f} s", flush=True)
        finally:
            await http.aclose()
            await services.close()
            await store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="court-piece-2p")
    ap.add_argument("--policy", default="peeker:1")
    ap.add_argument("--against", default="hard")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--deals", type=int, default=20)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
