"""Per-request time of the HTTP routes in process (not a test): the app with its hub on a
SQLite file, driven through httpx's ASGI transport, no network.  It times what a route costs the
server around the rules core: routing, dependencies (``Depends``), the seat's token check,
shaping the answer.  Used to compare two commits (issue 42: routes moved to APIRouter with
``Depends``):

    python bench/route_overhead.py --requests 2000 --rounds 5

Prints, per route, the median over rounds of the mean microseconds per request.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from taash.server.app import create_app
from taash.server.config import Settings

try:  # the server by domain (2026-12-06 on)
    from taash.server.store.db import Store
except ImportError:  # before it
    from taash.server.store import Store  # type: ignore[no-redef]
try:  # the app composes the services (2026-12-06 on)
    from taash.server.app import Services
except ImportError:  # before, the hub built them
    Services = None  # type: ignore[assignment,misc]


def opened(settings: Settings, store: Store) -> tuple[Any, FastAPI]:
    """The process's services (or, at an older commit, its hub) and the app around them."""
    if Services is not None:
        services = Services(settings, store)
        return services, create_app(settings, services=services)
    try:
        from taash.server.tables.hub import Hub
    except ImportError:
        from taash.server.hub import Hub  # type: ignore[no-redef]
    hub = Hub(settings, store)  # type: ignore[call-arg]
    return hub, create_app(settings, hub=hub)  # type: ignore[call-arg]


async def run(requests: int, folder: Path) -> dict[str, float]:
    settings = Settings(db_url=f"sqlite:///{folder / 'b.db'}", rate_limit=0, sweep_s=600)
    store = Store(settings.resolved_db_url())
    await store.migrate()
    hub, app = opened(settings, store)
    await hub.start()
    out: dict[str, float] = {}
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            made = (await c.post("/api/tables", json={
                "game": "court-piece-2p", "seats": [{"type": "human"}, {"type": "bot"}]})).json()
            tid, tok = made["id"], made["seats"][0]["token"]
            routes = {"GET /api/tables/{id}": f"/api/tables/{tid}",
                      "GET /api/tables/{id}/view": f"/api/tables/{tid}/view?token={tok}",
                      "GET /api/health": "/api/health"}
            for name, url in routes.items():
                for _ in range(50):  # warm
                    assert (await c.get(url)).status_code == 200
                t0 = time.perf_counter()
                for _ in range(requests):
                    await c.get(url)
                out[name] = (time.perf_counter() - t0) / requests * 1e6
    finally:
        await hub.close()
        await store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    rounds: list[dict[str, float]] = []
    for _ in range(a.rounds):
        with tempfile.TemporaryDirectory() as d:
            rounds.append(asyncio.run(run(a.requests, Path(d))))
    for name in rounds[0]:
        xs = [r[name] for r in rounds]
        print(f"{name:32s} median {statistics.median(xs):7.1f} us  "
              f"(min {min(xs):.1f}, max {max(xs):.1f}, {a.rounds} rounds)")


if __name__ == "__main__":
    main()
