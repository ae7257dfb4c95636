"""A tournaments server in process (SQLite in the test's folder; bots without delay, turn
timers that keep playing for absent players, a short sweep) and its players, who reach it
through the HTTP API with their own session cookies (tests/server/events/helpers.py's)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from taash.server.app import Services
from taash.server.config import Settings
from tests.server.events.helpers import Player, served

T0 = 1_800_000_000.0  # the tournaments' clock: a fixed instant, moved by hand


class Site:
    def __init__(self, services: Services, transport: httpx.ASGITransport) -> None:
        self.services = services
        self.transport = transport
        self.now = T0
        self.players: list[Player] = []
        services.tournaments.clock = lambda: self.now

    async def player(self, name: str | None = None) -> Player:
        p = await Player(self.transport).start()
        self.players.append(p)
        if name is not None:
            r = await p.http.patch("/api/me", json={"name": name})
            assert r.status_code == 200, r.text
        return p


@asynccontextmanager
async def site(tmp_path: Path, db_url: str | None = None, **settings: Any
               ) -> AsyncIterator[Site]:
    config = Settings(db_url=db_url or f"sqlite:///{tmp_path / 'tournaments.db'}",
                      **{"sweep_s": 0.2, "bot_delay_ms": 0, "idle_after_s": 0,
                         "rate_limit": 0, **settings})
    async with served(config, Site) as s:
        yield s


def swiss_body(**kw: Any) -> dict[str, Any]:
    return {"name": "Friday Swiss", "kind": "swiss", "game": "court-piece-2p",
            "options": {"target": 1}, "rounds": 3, "starts": T0 + 600, "turn_timer_s": 0.1,
            **kw}
