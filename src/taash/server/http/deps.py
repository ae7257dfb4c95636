"""What a route asks FastAPI for (``Depends``): the settings, and each domain's service by the
name the app's lifespan gave it on ``app.state``.  A domain's routes name the services they
use in their parameters; none of them reaches for a hub.

    PlayersDep = Annotated[Players, service("players")]

    @router.get("/api/me")
    async def get_me(players: PlayersDep) -> ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, cast

from fastapi import Depends
from starlette.requests import HTTPConnection

from taash.server.config import Settings


# Dependencies are ``async def``: FastAPI runs a plain ``def`` one in a worker thread, a
# thread hop on every request (it tripled GET /api/health's time in bench/route_overhead.py).
async def settings_of(conn: HTTPConnection) -> Settings:
    return cast(Settings, conn.app.state.settings)


SettingsDep = Annotated[Settings, Depends(settings_of)]


def service(name: str) -> object:
    """``Depends`` on the service the lifespan set as ``app.state.<name>``."""
    async def get(conn: HTTPConnection) -> object:
        try:
            return getattr(conn.app.state, name)
        except AttributeError:  # a programming error: the app was built without it
            raise RuntimeError(f"the app has no {name!r} service (create_app sets it)") from None
    get.__name__ = f"get_{name}"
    return Depends(cast(Callable[..., object], get))
