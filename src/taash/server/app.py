"""The ASGI app: the HTTP API of docs/API.md, the live channel, and the web interface's files."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taash.games import GAMES
from taash.games.base import IllegalAction, MalformedAction
from taash.server.config import Settings
from taash.server.notify import WebhookRefused, valid_email, valid_webhook, webhook_addresses
from taash.server.rooms import ApiError, Hub, Room, Stale, Subscriber, dumps, iso

log = logging.getLogger("taash.server")

STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 413: "too_large",
                415: "unsupported_media_type", 429: "rate_limited"}


def error_response(status: int, code: str, message: str, rule: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "rule": rule, "message": message}},
                        status_code=status, headers=headers)


def illegal_error(e: IllegalAction) -> dict[str, Any]:
    """An illegal action's error: the rule, the English sentence and, where the core gives
    them, its key and parameters, so a client can say it in the player's language."""
    err: dict[str, Any] = {"code": "illegal", "rule": e.rule, "message": e.message}
    if e.key:
        err["key"] = e.key
        err["params"] = e.params
    return err


class BodyTooLarge(Exception):
    pass


class TokenBuckets:
    """Requests per second per client, with a burst."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        if self.rate <= 0:
            return True
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self.buckets) > 50_000:
            self.buckets.clear()
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        self.buckets[key] = (tokens - 1, now)
        return True


def client_key(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return "t:" + bytes(value).decode("latin-1")[-48:]
    qs = bytes(scope.get("query_string", b"")).decode("latin-1")
    for part in qs.split("&"):
        if part.startswith("token="):
            return "t:" + part[6:54]
    client = scope.get("client")
    return "a:" + (str(client[0]) if client else "?")


class Guard:
    """Bounds request bodies (413) and request rates (429) before the app sees a request."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_body = settings.max_body
        self.buckets = TokenBuckets(settings.rate_limit, settings.rate_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        limited = path.startswith("/api/") and not path.endswith("/stream")
        if limited and not self.buckets.allow(client_key(scope)):
            if scope["type"] == "http":
                await error_response(429, "rate_limited", "too many requests: slow down",
                                     headers={"Retry-After": "1"})(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 4429})
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = 0
                if size > self.max_body:
                    await error_response(413, "too_large", f"request body over "
                                         f"{self.max_body} bytes")(scope, receive, send)
                    return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge
            return msg

        await self.app(scope, counted, send)


# -- request bodies --------------------------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["human", "bot"]
    name: str | None = Field(None, max_length=40)
    level: Literal["random", "easy", "hard", "heuristic"] | None = None


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32, examples=["court-piece"])
    options: dict[str, Any] | None = Field(None, examples=[{"sar": "double"}])
    seats: list[SeatSpec] | None = Field(None, max_length=8)
    live: bool = True
    open: bool = False
    bot_delay_ms: int | None = Field(None, ge=0, le=60_000)
    turn_timer_s: float | None = Field(None, gt=0, le=30 * 86400)
    first_seat: int | None = Field(None, ge=0, le=7)


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=200, examples=["play:AS"])
    id: str | None = Field(None, max_length=80, description="client id: sent twice, applied once")
    version: int | None = Field(None, ge=0, strict=True,
                                description="the version the client acted on: 409 'stale' if "
                                            "the table has moved on since")


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(None, ge=0, le=7)
    name: str | None = Field(None, max_length=40)


class TokensBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[Annotated[str, Field(max_length=100)]] = Field(max_length=200)


class NotifyBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    webhook: str | None = Field(None, max_length=2000)
    email: str | None = Field(None, max_length=320)


def bearer(request: Request | WebSocket, token: str | None) -> str | None:
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return token


def web_dir() -> Path:
    return Path(str(resources.files("taash"))) / "web"


NO_WEB = ("<!doctype html><meta charset=utf-8><title>taash</title><p>This taash server has no "
          "web interface installed. The API is described at <a href=/docs>/docs</a>.</p>")


async def pump(room: Room, sub: Subscriber, ping_s: float) -> AsyncIterator[str]:
    """A seat's (or a spectator's) live messages, in version order, with a keep-alive ping
    when quiet; it ends when the server closes or the seat's token is withdrawn."""
    hub = room.hub
    while not hub.closing and not sub.ended:
        if sub.resync:
            sub.resync = False
            text = room.view_message(sub.seat)
            sub.skip_to(room.version)
            yield text
            continue
        if sub.queue:
            yield sub.queue.popleft()[1]
            continue
        sub.wake.clear()
        try:
            await asyncio.wait_for(sub.wake.wait(), ping_s)
        except TimeoutError:
            yield dumps({"type": "ping", "version": room.version,
                         "now": iso(time.time(), "milliseconds")})


def create_app(settings: Settings, hub: Hub | None = None,
               open_hub: Callable[[], Awaitable[Hub]] | None = None) -> FastAPI:
    """The app; ``hub`` if already running, else ``open_hub`` makes one at start."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        h = hub if hub is not None else await open_hub() if open_hub is not None else None
        if h is None:
            raise RuntimeError("create_app needs a hub or open_hub")
        app.state.hub = h
        try:
            yield
        finally:
            if hub is None:
                await h.close()
                await h.store.close()

    app = FastAPI(title="taash", version="1", lifespan=lifespan,
                  description="Court Piece, two-player Court Piece and Goat: tables, seats, "
                  "actions, live events.  See docs/API.md.")

    app.add_middleware(Guard, settings=settings)
    # the NDJSON stream stays uncompressed: each line leaves as it is written, and a stream
    # holds no compressor
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6,
                       exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES,
                                              "application/x-ndjson"))
    if hub is not None:
        app.state.hub = hub

    def get_hub(request: Request | WebSocket) -> Hub:
        h: Hub = request.app.state.hub
        return h

    # -- errors ------------------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def api_error(request: Request, e: ApiError) -> Response:
        return JSONResponse(e.body(), status_code=e.status)

    @app.exception_handler(IllegalAction)
    async def illegal(request: Request, e: IllegalAction) -> Response:
        return JSONResponse({"error": illegal_error(e)}, status_code=409)

    @app.exception_handler(MalformedAction)
    async def malformed(request: Request, e: MalformedAction) -> Response:
        return error_response(400, "malformed", str(e))

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

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, e: BodyTooLarge) -> Response:
        return error_response(413, "too_large", f"request body over {settings.max_body} bytes")

    @app.exception_handler(Exception)
    async def internal(request: Request, e: Exception) -> Response:
        log.error("internal error on %s %s: %r", request.method, request.url.path, e,
                  exc_info=e)
        return error_response(500, "internal", "internal error; it has been logged")

    # -- tables ------------------------------------------------------------------------------
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/api/games", tags=["server"])
    async def games() -> list[dict[str, Any]]:
        """The games, their seats and their default options."""
        return [{"id": gid, "seats": cls.num_seats, "options": cls.check_options(None)}
                for gid, cls in GAMES.items()]

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create(request: Request, body: CreateTable) -> dict[str, Any]:
        """A new table; a token and invite url for each human seat."""
        hub = get_hub(request)
        specs = None
        if body.seats is not None:
            specs = [{"type": s.type, "name": s.name,
                      "level": "easy" if s.level == "heuristic" else s.level} for s in body.seats]
        t, tokens = await hub.create_table(body.game, body.options, specs, body.live, body.open,
                                           body.bot_delay_ms, body.turn_timer_s, body.first_seat)
        seats = []
        for s in t.seats:
            item: dict[str, Any] = {"seat": s.seat, "type": s.type}
            if s.type == "bot":
                item["level"] = s.level
            if s.seat in tokens:
                item["token"] = tokens[s.seat]
                item["url"] = f"/t/{t.id}?seat={s.seat}&token={tokens[s.seat]}"
            seats.append(item)
        return {"id": t.id, "url": f"/t/{t.id}", "seats": seats}

    @app.get("/api/lobby", tags=["tables"])
    async def lobby(request: Request) -> list[dict[str, Any]]:
        """Open tables with a free human seat."""
        return await get_hub(request).lobby()

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join(request: Request, table_id: str,
                   body: Annotated[JoinBody | None, Body()] = None) -> dict[str, Any]:
        """Claim a free seat of an open table."""
        b = body or JoinBody(seat=None, name=None)
        seat, token = await get_hub(request).join(table_id, b.seat, b.name)
        return {"id": table_id, "seat": seat, "token": token,
                "url": f"/t/{table_id}?seat={seat}&token={token}"}

    @app.post("/api/my-tables", tags=["tables"])
    async def my_tables(request: Request, body: TokensBody) -> list[dict[str, Any]]:
        """The tables of these seat tokens, with whose turn it is."""
        return await get_hub(request).my_tables(body.tokens)

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def public(request: Request, table_id: str) -> dict[str, Any]:
        """What anyone may see: the core's public view, the version and the table's info."""
        room = await get_hub(request).room(table_id)
        return room.public()

    @app.get("/api/tables/{table_id}/view", tags=["seats"])
    async def seat_view(request: Request, table_id: str, token: str | None = None,
                        seat: int | None = None) -> dict[str, Any]:
        """The seat's view (its own hand, its legal actions) with the version."""
        room, s = await get_hub(request).authorize(table_id, bearer(request, token), seat)
        return room.seat_view(s)

    @app.post("/api/tables/{table_id}/actions", tags=["seats"])
    async def act(request: Request, table_id: str, body: ActionBody, token: str | None = None,
                  seat: int | None = None) -> dict[str, Any]:
        """Take an action for the token's seat; 409 with the rule if it is illegal."""
        room, s = await get_hub(request).authorize(table_id, bearer(request, token), seat)
        return await submit(room, s, body.action, body.id, body.version)

    @app.get("/api/tables/{table_id}/hint", tags=["seats"])
    async def hint(request: Request, table_id: str, token: str | None = None,
                   seat: int | None = None) -> dict[str, Any]:
        """What the easy bot would do for this seat now."""
        from taash.bots import make_bot, trump_hint

        room, s = await get_hub(request).authorize(table_id, bearer(request, token), seat)
        view = room.state.view(s)
        action = None
        if view.get("legal_actions"):
            bot = make_bot(room.meta.game, "easy", seed=room.meta.seed ^ room.version)
            action = bot.act(view)  # the easy bot answers in well under a millisecond
        th: list[str] = []
        if view.get("phase") == "trump" and view.get("to_move") == s:
            th = trump_hint(room.meta.game, view.get("hand") or [])
        return {"action": action, "trump_hint": th, "version": room.version}

    @app.get("/api/tables/{table_id}/record", tags=["tables"])
    async def record(request: Request, table_id: str) -> dict[str, Any]:
        """taash-record/1 of the match; an unfinished deal without its deck."""
        return (await get_hub(request).room(table_id)).record()

    @app.post("/api/tables/{table_id}/rematch", tags=["seats"])
    async def rematch(request: Request, table_id: str, token: str | None = None) -> dict[str, Any]:
        """The rematch table (made once) and this seat's token there."""
        hub = get_hub(request)
        tok = bearer(request, token)
        room, s = await hub.authorize(table_id, tok, None)
        assert tok is not None
        rid, new = await hub.rematch(room, s, tok)
        return {"id": rid, "seat": s, "token": new, "url": f"/t/{rid}?seat={s}&token={new}"}

    @app.post("/api/tables/{table_id}/leave", tags=["seats"])
    async def leave(request: Request, table_id: str, token: str | None = None) -> dict[str, Any]:
        """Give the seat to a bot; the token stops working."""
        hub = get_hub(request)
        room, s = await hub.authorize(table_id, bearer(request, token), None)
        await hub.leave(room, s)
        return {"id": table_id, "seat": s, "type": "bot", "level": "easy"}

    @app.put("/api/tables/{table_id}/notify", tags=["seats"])
    async def notify(request: Request, table_id: str, body: NotifyBody,
                     token: str | None = None) -> dict[str, Any]:
        """Where to tell this seat that it is its turn (null turns one off)."""
        hub = get_hub(request)
        room, s = await hub.authorize(table_id, bearer(request, token), None)
        if body.webhook is not None and not valid_webhook(body.webhook):
            raise ApiError(400, "bad_request", "webhook must be an http:// or https:// URL")
        if body.webhook:
            try:
                await webhook_addresses(body.webhook, settings.webhook_allow_private)
            except WebhookRefused as e:
                raise ApiError(400, "bad_request", str(e)) from None
        if body.email is not None and not valid_email(body.email):
            raise ApiError(400, "bad_request", f"not an email address: {body.email!r}")
        await hub.set_notify(room, s, body.webhook or None, body.email or None)
        return {"id": table_id, "seat": s, "webhook": body.webhook, "email": body.email}

    # -- live --------------------------------------------------------------------------------
    @app.get("/api/tables/{table_id}/stream", tags=["seats"])
    async def stream(request: Request, table_id: str, token: str | None = None,
                     since: int | None = None, seat: int | None = None) -> StreamingResponse:
        """NDJSON: the full view (or what was missed since ``since``), then one line per
        accepted action; a ping line when quiet.  Without a token: a spectator's, with the
        public view."""
        hub = get_hub(request)
        room, s = await hub.watch_or_authorize(table_id, bearer(request, token), seat)
        if s is None:
            room.check_watchers()

        async def lines() -> AsyncIterator[str]:
            sub = room.subscribe(s)
            try:
                msgs, v = await room.catch_up(s, since)
                sub.skip_to(v)
                for m in msgs:
                    yield m + "\n"
                async for m in pump(room, sub, settings.ping_s):
                    yield m + "\n"
            finally:
                room.unsubscribe(sub)

        return StreamingResponse(lines(), media_type="application/x-ndjson",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    @app.websocket("/api/tables/{table_id}/ws")
    async def live(websocket: WebSocket, table_id: str, token: str | None = None,
                   since: int | None = None, seat: int | None = None) -> None:
        hub = get_hub(websocket)
        await websocket.accept()
        try:
            room, s = await hub.watch_or_authorize(table_id, bearer(websocket, token), seat)
            if s is None:
                room.check_watchers()
        except ApiError as e:
            await websocket.send_text(dumps({"type": "error", **e.body()}))
            await websocket.close(code=4000 + e.status)
            return
        lock = asyncio.Lock()

        async def send(text: str) -> None:
            async with lock:
                await websocket.send_text(text)

        sub = room.subscribe(s)
        try:
            msgs, v = await room.catch_up(s, since)
            sub.skip_to(v)
            for m in msgs:
                await send(m)
            sender = asyncio.create_task(_send_all(pump(room, sub, settings.ping_s), send))
            receiver = asyncio.create_task(_receive_all(websocket, room, s, send))
            done, pending = await asyncio.wait({sender, receiver},
                                               return_when=asyncio.FIRST_COMPLETED)
            for t in pending:
                t.cancel()
            for t in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t
            for t in done:
                exc = t.exception()
                if exc is not None and not isinstance(exc, WebSocketDisconnect | OSError):
                    log.warning("websocket at table %s: %r", table_id, exc)
        except (WebSocketDisconnect, OSError):
            pass
        finally:
            room.unsubscribe(sub)
            with contextlib.suppress(Exception):
                await websocket.close(code=1001 if hub.closing else 1000)

    # -- the web interface -------------------------------------------------------------------
    def index() -> Response:
        page = web_dir() / "index.html"
        if page.is_file():
            return HTMLResponse(page.read_text(encoding="utf-8"))
        return HTMLResponse(NO_WEB)

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return index()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return index()

    app.mount("/assets", StaticFiles(directory=web_dir(), check_dir=False), name="assets")
    return app


async def submit(room: Room, seat: int, action: str, client_id: str | None,
                 expected: int | None) -> dict[str, Any]:
    """A client's action; with ``expected`` (the version it acted on) it is refused, changing
    nothing, if the table has moved on since: a card chosen for one trick never lands in the
    next.  The same client id again is answered as the first time, whatever the version."""
    try:
        return await room.submit(seat, action, client_id, expected)
    except Stale:
        raise ApiError(409, "stale", f"the table has moved on to version {room.version} since "
                                     f"version {expected}: look at the table again and act "
                                     "on what is there now") from None


async def _send_all(messages: AsyncIterator[str], send: Callable[[str], Awaitable[None]]) -> None:
    async for m in messages:
        await send(m)


async def _receive_all(ws: WebSocket, room: Room, seat: int | None,
                       send: Callable[[str], Awaitable[None]]) -> None:
    buckets: TokenBuckets = TokenBuckets(room.hub.settings.rate_limit,
                                         room.hub.settings.rate_burst)
    while True:
        text = await ws.receive_text()
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            await send(dumps({"type": "error", "error": {
                "code": "bad_request", "rule": None, "message": "messages are JSON objects"}}))
            continue
        kind = msg.get("type")
        cid = msg.get("id")
        if kind == "ping":
            await send(dumps({"type": "pong", "version": room.version,
                              "now": iso(time.time(), "milliseconds")}))
            continue
        if kind != "action":
            await send(dumps({"type": "error", "id": cid, "error": {
                "code": "bad_request", "rule": None,
                "message": "unknown message type: send {\"type\": \"action\", ...}"}}))
            continue
        action = msg.get("action")
        expected = msg.get("version")
        if not isinstance(action, str) or len(action) > 200 or not (
                cid is None or (isinstance(cid, str) and len(cid) <= 80)):
            await send(dumps({"type": "error", "id": cid, "error": {
                "code": "bad_request", "rule": None,
                "message": "an action message has a text action and a text id"}}))
            continue
        if expected is not None and (type(expected) is not int or expected < 0):
            await send(dumps({"type": "error", "id": cid, "error": {
                "code": "bad_request", "rule": None,
                "message": "an action's version is a whole number (the version acted on)"}}))
            continue
        if seat is None:
            await send(dumps({"type": "error", "id": cid, "error": {
                "code": "unauthorized", "rule": None,
                "message": "spectators do not act: connect with a seat token to play"}}))
            continue
        if not buckets.allow("ws"):
            await send(dumps({"type": "error", "id": cid, "error": {
                "code": "rate_limited", "rule": None, "message": "too many actions: slow down"}}))
            continue
        err: dict[str, Any]
        try:
            answer = await submit(room, seat, action, cid, expected)
        except IllegalAction as e:
            err = illegal_error(e)
        except MalformedAction as e:
            err = {"code": "malformed", "rule": None, "message": str(e)}
        except ApiError as e:
            err = e.body()["error"]
        else:
            await send(dumps({"type": "ack", "id": cid, **answer}))
            continue
        await send(dumps({"type": "error", "id": cid, "error": err}))
