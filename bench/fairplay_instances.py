"""Two server instances on one PostgreSQL database draining fair play's queue (issue 48; not a
test): the arena's records of one player queued as a table's match end queues them, then
scanned once by one instance alone and once by two instances at the same time (each with its
own store and its own worker process, as two ``taash serve`` would), with the detector itself.
Prints, per run, how many scans each instance ran (their sum is the matches: none scanned
twice) and the wall time.

    PYTHONPATH=src python bench/fairplay_instances.py --deals 16 --seed 1

A fresh database is made on ``--admin`` (PostgreSQL, as the tests' ``TAASH_TEST_PG``) and
dropped after."""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid
from typing import Any

import asyncpg

from taash.fairplay.cheats import Seat, play_records
from taash.server.app import Services
from taash.server.config import Settings
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore


def as_table(rec: dict[str, Any], table: str, player: str) -> dict[str, Any]:
    out = dict(rec, table=table)
    out["seats"] = [{"type": "human", "level": None, "name": s["name"], "player": player}
                    if i == 0 else {**s, "player": None} for i, s in enumerate(rec["seats"])]
    return out


async def instance(url: str) -> Services:
    settings = Settings(db_url=url, sweep_s=60)
    store = Store(settings.resolved_db_url())
    await store.migrate()
    return Services(settings, store)  # not started: the drains below are the only ones


async def run(args: argparse.Namespace) -> None:
    name = f"taash_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(args.admin)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = args.admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    made: list[Services] = []
    try:
        for _ in range(2):
            made.append(await instance(f"{url}/{name}"))
        a, b = made
        recs = play_records(args.game, {}, [Seat(args.policy, "P"), Seat("hard", "B")],
                            args.deals, args.seed, 50.0)
        deals = sum(len(r["deals"]) for r in recs)
        for label, drains in (("one instance", (a,)), ("two instances", (a, b))):
            for i, rec in enumerate(recs):
                t = f"{label[:3]}{i}"
                await a.fairplay.queue(t, args.game, 1000.0 + i, as_table(rec, t, f"p-{label}"))
            start = time.perf_counter()
            done = await asyncio.gather(*(s.fairplay.drain() for s in drains))
            spent = time.perf_counter() - start
            left = await FairPlayStore(a.store).queued(100)
            print(f"{label}: {len(recs)} matches ({deals} deals) scanned {list(done)} "
                  f"(sum {sum(done)}), {len(left)} left in the queue, {spent:.1f} s",
                  flush=True)
    finally:
        for s in made:
            await s.close()
            await s.store.close()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--admin", default=os.environ.get(
        "TAASH_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"))
    ap.add_argument("--game", default="court-piece-2p")
    ap.add_argument("--policy", default="hard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=16)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
