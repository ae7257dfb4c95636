"""An events server in process (SQLite in the test's folder, a clock the test moves) and
players who reach it through the HTTP API, each with their own session cookie."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx

from taash.server.app import Services, create_app
from taash.server.config import Settings
from taash.server.store.db import Store

T0 = 1_800_000_000.0  # the tests' "now": a fixed instant, moved by hand
BASE = "http://t"


class Player:
    """One browser: its cookie jar, this site's Origin on every change."""

    def __init__(self, transport: httpx.ASGITransport) -> None:
        self.http = httpx.AsyncClient(transport=transport, base_url=BASE,
                                      headers={"Origin": BASE})
        self.id = ""

    async def start(self) -> Player:
        r = await self.http.get("/api/me")
        assert r.status_code == 200, r.text
        self.id = r.json()["id"]
        return self

    async def get(self, path: str, **kw: Any) -> httpx.Response:
        return await self.http.get(path, **kw)

    async def post(self, path: str, body: Any = None) -> httpx.Response:
        return await self.http.post(path, json=body)

    async def ok(self, method: str, path: str, body: Any = None, status: int = 200,
                 **kw: Any) -> Any:
        r = await (self.get(path, **kw) if method == "GET" else self.post(path, body))
        assert r.status_code == status, r.text
        return r.json()

    async def act(self, event: str, board: int, action: str, version: int | None = None,
                  cid: str | None = None) -> httpx.Response:
        body: dict[str, Any] = {"action": action}
        if version is not None:
            body["version"] = version
        if cid is not None:
            body["id"] = cid
        return await self.post(f"/api/events/{event}/boards/{board}/actions", body)

    async def play_board(self, event: str, board: int,
                         choose: Callable[[list[str]], str]) -> dict[str, Any]:
        """Play a board to its end, ``choose`` picking the entrant's action each time."""
        view = await self.ok("GET", f"/api/events/{event}/boards/{board}")
        for _ in range(200):
            if view["done"]:
                return view  # type: ignore[no-any-return]
            legal = view["view"]["legal_actions"]
            r = await self.act(event, board, choose(legal), version=view["version"])
            assert r.status_code == 200, r.text
            view = r.json()
        raise AssertionError("the board did not end")


class HasPlayers(Protocol):
    players: list[Player]


S = TypeVar("S", bound=HasPlayers)


class Site:
    def __init__(self, services: Services, transport: httpx.ASGITransport) -> None:
        self.services = services
        self.transport = transport
        self.now = T0
        self.players: list[Player] = []
        services.events.clock = lambda: self.now

    async def player(self) -> Player:
        p = await Player(self.transport).start()
        self.players.append(p)
        return p


@asynccontextmanager
async def served(settings: Settings, make: Callable[[Services, httpx.ASGITransport], S]
                 ) -> AsyncIterator[S]:
    """A server in process with ``settings`` (its database migrated, its services started),
    as the site ``make`` builds on it; its players' clients closed and it stopped after."""
    store = Store(settings.resolved_db_url())
    await store.migrate()
    services = Services(settings, store)
    await services.start()
    s = make(services, httpx.ASGITransport(app=create_app(settings, services=services)))
    try:
        yield s
    finally:
        for p in s.players:
            await p.http.aclose()
        await services.close()
        await store.close()


@asynccontextmanager
async def site(tmp_path: Path, db_url: str | None = None, **more: Any) -> AsyncIterator[Site]:
    """The server in process, on SQLite in ``tmp_path`` (or the database ``db_url``), with
    ``more`` settings."""
    settings = Settings(db_url=db_url or f"sqlite:///{tmp_path / 'events.db'}", sweep_s=60,
                        **more)
    async with served(settings, Site) as s:
        yield s


async def review_kept(p: Player, s: Site, event: str, board: int) -> dict[str, Any]:
    """A finished board's review once its best result is kept: asked, and if it is being
    computed, asked again when this process's searches are over."""
    path = f"/api/events/{event}/boards/{board}/review"
    r = await p.ok("GET", path)
    if r["status"] != "done":
        assert r["status"] == "computing" and r["best"] is None and r["retry"] > 0
        await s.services.event_boards.best.settled()
        r = await p.ok("GET", path)
    assert r["status"] == "done", r
    return r  # type: ignore[no-any-return]


def event_body(game: str = "court-piece-2p", boards: int = 3, **kw: Any) -> dict[str, Any]:
    return {"game": game, "boards": boards, "opens": T0 - 60, "closes": T0 + 3600, **kw}
