"""The ASGI app: each domain's router (the HTTP API of docs/API.md and the live channel),
the guards in front of them and the web interface's files; its lifespan opens the services
that the routes ask for (``taash.server.http.deps``).  The HTTP status of each refusal is
chosen in ``taash.server.http.errors``.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

from taash.games import describe_games
from taash.games.base import IllegalAction, MalformedAction
from taash.server.accounts import me, me_data, sign_in_routes
from taash.server.accounts.me import page_player
from taash.server.config import Settings
from taash.server.errors import (
    DomainError,
    RateLimited,
)
from taash.server.http.errors import STATUS, STATUS_CODES, error_response, refusal, status_of
from taash.server.http.guard import Guard, TokenBuckets
from taash.server.http.openapi import documented
from taash.server.notify import push_routes
from taash.server.ops import routes as ops_routes
from taash.server.review import routes as review_routes
from taash.server.social import routes as social_routes
from taash.server.tables import chat, live
from taash.server.tables import routes as table_routes
from taash.server.tables.hub import Hub
from taash.server.voice import routes as voice_routes

__all__ = ["ROUTERS", "STATUS", "STATUS_CODES", "create_app", "status_of"]

log = logging.getLogger("taash.server")

def web_dir() -> Path:
    return Path(str(resources.files("taash"))) / "web"


NO_WEB = ("<!doctype html><meta charset=utf-8><title>taash</title><p>This taash server has no "
          "web interface installed. The API is described at <a href=/docs>/docs</a>.</p>")


# Every domain's routes, in the order they are matched.
ROUTERS = tuple(m.router for m in (ops_routes, table_routes, review_routes, me, me_data,
                                   sign_in_routes, push_routes, social_routes, live,
                                   voice_routes, chat))

# The services the routes ask for by name (``taash.server.http.deps.service``).
SERVICES = ("store", "bus", "tables", "players", "tokens", "linker", "sign_in", "passkeys",
            "email", "analyses", "push", "social", "friends", "voice", "metrics")


def expose(app: FastAPI, hub: Hub) -> None:
    """Each service of the process on ``app.state``, where the routes' ``Depends`` find it."""
    app.state.hub = hub
    for name in SERVICES:
        setattr(app.state, name, getattr(hub, name))


def create_app(settings: Settings, hub: Hub | None = None,
               open_hub: Callable[[], Awaitable[Hub]] | None = None) -> FastAPI:
    """The app; ``hub`` if already running, else ``open_hub`` makes one at start."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        h = hub if hub is not None else await open_hub() if open_hub is not None else None
        if h is None:
            raise RuntimeError("create_app needs a hub or open_hub")
        expose(app, h)
        try:
            yield
        finally:
            if hub is None:
                await h.close()
                await h.store.close()

    app = FastAPI(title="taash", version="1", lifespan=lifespan,
                  description="Court Piece, two-player Court Piece and Goat: tables, seats, "
                  "actions, live events.  See docs/API.md.")

    app.add_middleware(Guard, settings=settings, refuse=refusal)
    # the NDJSON stream stays uncompressed: each line leaves as it is written, and a stream
    # holds no compressor
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6,
                       exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES,
                                              "application/x-ndjson"))
    app.state.settings = settings
    if hub is not None:
        expose(app, hub)
    # a checked seat's requests, whatever address they come from (the HTTP API's and the live
    # channel's actions)
    app.state.seat_buckets = TokenBuckets(settings.rate_limit, settings.rate_burst)
    app.state.chat_buckets = chat.chat_buckets()
    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    add_pages(app, settings)
    app.openapi = lambda: documented(app)  # type: ignore[method-assign]
    return app


def add_error_handlers(app: FastAPI) -> None:
    async def refused(request: Request, e: Exception) -> Response:
        assert isinstance(e, DomainError | IllegalAction | MalformedAction)
        if isinstance(e, RateLimited) and e.retry_after is not None:
            return refusal(e, {"Retry-After": str(max(1, math.ceil(e.retry_after)))})
        return refusal(e)

    for kind in (DomainError, IllegalAction, MalformedAction):
        app.add_exception_handler(kind, refused)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> Response:
        parts = []
        for err in e.errors()[:3]:
            if err.get("type") == "json_invalid":
                parts.append("the body is not valid JSON")
                continue
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where
                         else str(err.get("msg", "invalid")))
        return error_response(400, "bad_request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        code = STATUS_CODES.get(e.status_code, "http_error")
        message = str(e.detail) if e.detail else code.replace("_", " ")
        if e.status_code == 404:
            message = f"nothing at {request.url.path}"
        return error_response(e.status_code, code, message,
                              headers=dict(e.headers) if e.headers else None)

    @app.exception_handler(Exception)
    async def internal(request: Request, e: Exception) -> Response:
        # one line, no traceback: a fault that repeats per request must not flood the log
        rid = getattr(request.state, "request_id", None) or "-"
        log.error("internal error %s on %s %s: %s: %s", rid, request.method, request.url.path,
                  type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "")
        return JSONResponse({"error": {"code": "internal", "rule": None,
                                       "message": f"internal error {rid}; it has been logged"},
                             "request_id": rid}, status_code=500,
                            headers={"X-Request-Id": rid})


def add_pages(app: FastAPI, settings: Settings) -> None:
    """The web interface: its page for ``/`` and each table, and its files.  A page load
    without a live session makes the visitor a guest player (the session cookie)."""

    async def index(request: Request) -> Response:
        page = web_dir() / "index.html"
        response = HTMLResponse(page.read_text(encoding="utf-8") if page.is_file() else NO_WEB)
        try:
            await page_player(request, response, settings)
        except RateLimited:  # too many new guests from this address: the page, no session
            pass
        except Exception as e:  # the page still loads; its /api/me asks again
            log.error("no session for a page load: %r", e)
        return response

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> Response:
        return await index(request)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        return await index(request)

    @app.get("/review", include_in_schema=False)  # ?table=&deal=: the page reads them
    async def review_page(request: Request) -> Response:
        return await index(request)

    @app.get("/p/{player_id}", include_in_schema=False)  # a player's profile
    async def profile_page(request: Request, player_id: str) -> Response:
        return await index(request)

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> Response:
        return await index(request)

    @app.get("/friend/{code}", include_in_schema=False)  # a friend code's link
    async def friend_page(request: Request, code: str) -> Response:
        return await index(request)

    @app.get("/link", include_in_schema=False)
    async def link_page(request: Request) -> Response:  # ?code=: the page fills it in
        return await index(request)

    @app.get("/email/{what}", include_in_schema=False)
    async def email_page(request: Request, what: str) -> Response:  # #secret: the page posts it
        return await index(request)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        """The page's service worker, at the site's root so that it may serve every page
        (offline); always asked anew, so a new version is taken at once."""
        path = web_dir() / "sw.js"
        if not path.is_file():
            return error_response(404, "not_found", "nothing at /sw.js")
        return Response(path.read_bytes(), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    games_json = json.dumps(describe_games()).encode()

    @app.get("/assets/games.json", include_in_schema=False)
    async def games_file() -> Response:
        """GET /api/games as one of the page's files: the page builds its game picker and
        new-table form from it, and the service worker keeps it with the others (offline)."""
        return Response(games_json, media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    app.mount("/assets", StaticFiles(directory=web_dir(), check_dir=False), name="assets")
