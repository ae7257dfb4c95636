"""Guards in front of the app: text that cannot be stored refused at the edge, request bodies
bounded in size and in time, requests per client address bounded in rate, live connections
per address bounded in number, a request id on every answer, and an internal error answered
with one log line (never a traceback per request).

Who a request is for (its seat token, its session) is not known here: a header is only a
claim until the app checks it.  So this guard keys its limits by the client's address alone;
the app limits a checked seat or player again (``seat_buckets``)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from urllib.parse import unquote_to_bytes

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taash.server.config import Settings
from taash.server.errors import BadRequest, DomainError, RateLimited, TooLarge
from taash.server.store.outage import unavailable, unreachable

log = logging.getLogger("taash.server")
access = logging.getLogger("taash.access")  # one line a request (``--log-format json``)

MAX_KEYS = 100_000  # clients a limiter remembers at once; past it, the least recently seen go
MAX_PATH = 1024
# a path segment of the API: ids are URL-safe (tables, sessions), so anything else is a mistake
SEGMENT = re.compile(r"[A-Za-z0-9._~-]{1,128}")


class TokenBuckets:
    """Requests per second per key, with a burst; the memory is bounded without ever forgetting
    a client that could still be limited: a key idle for ``burst / rate`` seconds has a full
    bucket again, just like a new one, so it is dropped (least recently seen first), and past
    ``max_keys`` the least recently seen key goes."""

    def __init__(self, rate: float, burst: float, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.max_keys = max_keys
        self.ttl = self.burst / rate if rate > 0 else 0.0
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        if self.rate <= 0:
            return True
        now = time.monotonic()
        tokens, last = self.buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        self._forget(now)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        self.buckets[key] = (tokens - 1, now)
        return True

    def _forget(self, now: float) -> None:
        b = self.buckets
        while b:
            _, last = next(iter(b.values()))
            if now - last < self.ttl and len(b) < self.max_keys:
                break
            b.popitem(last=False)


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def bad_text(text: str) -> bool:
    """A control character (NUL among them) or a lone surrogate: nothing a name, an id, a seed
    or an address holds, and what a database refuses (PostgreSQL: NUL) or cannot encode."""
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


def _bad_strings(value: object, where: str = "") -> str | None:
    """The place of the first string (key or value) in JSON ``value`` with ``bad_text``."""
    if isinstance(value, str):
        return where or "the body" if bad_text(value) else None
    if isinstance(value, dict):
        for k, v in value.items():
            here = f"{where}.{k}" if where else str(k)
            if bad_text(k):
                return where or "the body"
            found = _bad_strings(v, here)
            if found:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _bad_strings(v, f"{where}[{i}]")
            if found:
                return found
    return None


def check_body_text(body: bytes) -> str | None:
    """Why a JSON request body is refused for its text (None: it is not).  Only a body with a
    backslash (an escape), a DEL or a UTF-8 lead byte of U+0080-U+00BF (where the C1 controls
    are) can hold a control character that JSON lets through, so most bodies are never parsed
    here."""
    if b"\\" not in body and b"\x7f" not in body and b"\xc2" not in body:
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None  # not JSON: the app says so
    where = _bad_strings(value)
    return None if where is None else (
        f"{where}: text holds no control characters (such as NUL) or lone surrogates")


def check_target(scope: Scope) -> str | None:
    """Why a request's path or query is refused (None: it is not)."""
    path: str = scope.get("path", "")
    if len(path) > MAX_PATH or bad_text(path):
        return "the path holds a control character or is too long"
    if path.startswith("/api/"):
        for seg in path[5:].split("/"):
            if seg and not SEGMENT.fullmatch(seg):
                return (f"bad path segment {seg[:40]!r}: ids hold only letters, digits and "
                        "'-', '_', '.', '~'")
    qs = bytes(scope.get("query_string", b""))
    if qs:
        raw = unquote_to_bytes(qs.replace(b"+", b" "))
        if any(b < 0x20 or b == 0x7F for b in raw):
            return "the query holds a control character"
        text = raw.decode("utf-8", "replace")
        if len(text) > 2048 or "\ufffd" in text:
            return "the query is too long or not UTF-8"
    return None


# The web interface loads its scripts, styles, icons and manifest from this server alone, with
# no inline script or style; talks to it alone (fetch, WebSocket); draws the device-link QR
# code as a data: image; and is never framed (clickjacking).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# FastAPI's /docs and /redoc pages load their scripts from a CDN and start them inline
CSP_API_DOCS = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
                "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
                "https://fonts.googleapis.com; "
                "font-src 'self' https://fonts.gstatic.com; "
                "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
                "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                "frame-ancestors 'none'")
# Offline play's engine (issue 46): the worker compiles Pyodide's WebAssembly, which script-src
# refuses without 'wasm-unsafe-eval' (it allows WebAssembly, never JavaScript's eval); a worker
# runs under its own script's policy, so only that script's answer carries it.
OFFLINE_WORKER = "/assets/offline_worker.js"
CSP_OFFLINE_WORKER = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", 1)
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"strict-origin-when-cross-origin")]


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries (pages, assets and the API alike)."""
    csp = CSP_API_DOCS if path in ("/docs", "/redoc") else \
        CSP_OFFLINE_WORKER if path == OFFLINE_WORKER else CSP
    return [(b"content-security-policy", csp.encode()), *SECURITY_HEADERS]


Refusal = Callable[[DomainError, dict[str, str] | None], ASGIApp]  # the answer to a refusal


class Guard:
    """Refuses, before the app sees a request: a path or query with a control character, a
    body with one (escaped in its JSON), a body over the size limit (TooLarge, 413, also when
    chunked) or slower than ``body_timeout_s`` (408), requests from one address over its rate
    (RateLimited), and more live connections (streams, sockets) from one address than
    ``live_per_client``.  Every answer carries ``X-Request-Id``; an error the app did not
    answer is a 500 with that id, logged on one line."""

    def __init__(self, app: ASGIApp, settings: Settings, refuse: Refusal) -> None:
        self.app = app
        self.max_body = settings.max_body
        # the bound of a route whose body is bigger by nature than the others'
        self.max_bodies = {"/api/me/records": settings.max_record_body}
        self.body_timeout = settings.body_timeout_s
        factor = settings.address_rate_factor
        self.buckets = TokenBuckets(settings.rate_limit * factor, settings.rate_burst * factor)
        # --rate-limit 0 (benchmarks, tests) turns off every per-client limit
        self.live_cap = settings.live_per_client if settings.rate_limit > 0 else 0
        self.live: dict[str, int] = {}
        self.refuse = refuse

    @staticmethod
    def too_large(limit: int) -> TooLarge:
        return TooLarge(f"request body over {limit} bytes")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = secrets.token_hex(8)
        scope.setdefault("state", {})["request_id"] = rid
        started = False
        status: int | str = "ws" if scope["type"] == "websocket" else 0
        t0 = time.perf_counter()

        async def sending(msg: Message) -> None:
            nonlocal started, status
            if msg["type"] == "http.response.start":
                started = True
                status = int(msg.get("status", 0))
                msg["headers"] = [*msg.get("headers", []), (b"x-request-id", rid.encode()),
                                  *security_headers(scope.get("path", ""))]
            await send(msg)

        async def refuse(e: DomainError, headers: dict[str, str] | None = None) -> None:
            if scope["type"] == "http":
                await self.refuse(e, headers)(scope, receive, sending)
            else:
                await send({"type": "websocket.close", "code": 4400 if isinstance(
                    e, BadRequest) else 4429 if isinstance(e, RateLimited) else 4000})

        why = check_target(scope)
        if why is not None:
            await refuse(BadRequest(why))
            return
        path: str = scope.get("path", "")
        is_live = scope["type"] == "websocket" or path.endswith("/stream")
        addr = client_address(scope)
        if path.startswith("/api/") and not self.buckets.allow("a:" + addr):
            await refuse(RateLimited("too many requests: slow down"), {"Retry-After": "1"})
            return
        if is_live and path.startswith("/api/"):
            if self.live_cap > 0 and self.live.get(addr, 0) >= self.live_cap:
                await refuse(RateLimited(f"too many live connections from one address (at "
                                         f"most {self.live_cap})"), {"Retry-After": "5"})
                return
            self.live[addr] = self.live.get(addr, 0) + 1
        try:
            if scope["type"] == "websocket":
                await self.app(scope, receive, send)
                return
            body = await self._read_body(scope, receive, sending, refuse)
            if body is None:
                return
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, sending)
        except Exception as e:  # the app's own handlers answered everything they know
            line = str(e).strip().splitlines()[0][:300] if str(e).strip() else ""
            if unreachable(e):  # the database is away: try again (a warning, not a fault)
                log.warning("database unreachable %s on %s %s: %s%s", rid,
                            scope.get("method", "WS"), path, type(e).__name__,
                            f": {line}" if line else "")
                if scope["type"] == "http" and not started:
                    gone = unavailable()
                    await refuse(gone, {"Retry-After": str(gone.retry_after)})
                return
            log.error("internal error %s on %s %s: %s%s", rid, scope.get("method", "WS"),
                      path, type(e).__name__, f": {line}" if line else "")
            if scope["type"] == "http" and not started:
                await JSONResponse(
                    {"error": {"code": "internal", "rule": None,
                               "message": f"internal error {rid}; it has been logged"},
                     "request_id": rid}, status_code=500)(scope, receive, sending)
        finally:
            if access.isEnabledFor(logging.INFO):  # one line a request; no query: no tokens
                access.info("%s %s %s", scope.get("method", "WS"), path, status, extra={
                    "request_id": rid, "method": scope.get("method", "WS"), "path": path,
                    "status": status,
                    "ms": round((time.perf_counter() - t0) * 1000, 1), "client": addr})
            if is_live and path.startswith("/api/"):
                n = self.live.get(addr, 1) - 1
                if n > 0:
                    self.live[addr] = n
                else:
                    self.live.pop(addr, None)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send,
                         refuse: Callable[[DomainError], Awaitable[None]]) -> bytes | None:
        """The whole request body (bounded in size and time), or None once refused."""
        limit = self.max_bodies.get(scope.get("path", ""), self.max_body)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = 0
                if size > limit:
                    await refuse(self.too_large(limit))
                    return None
        if scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE") and not any(
                n in (b"content-length", b"transfer-encoding") for n, _ in scope["headers"]):
            return b""
        parts: list[bytes] = []
        seen = 0
        deadline = time.monotonic() + self.body_timeout
        while True:
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                await self._timed_out(scope, receive, send)
                return None
            if msg["type"] == "http.disconnect":
                return None
            chunk = msg.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                await refuse(self.too_large(limit))
                return None
            parts.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(parts)
        why = check_body_text(body)
        if why is not None:
            await refuse(BadRequest(why))
            return None
        return body

    @staticmethod
    async def _timed_out(scope: Scope, receive: Receive, send: Send) -> None:
        await JSONResponse({"error": {"code": "timeout", "rule": None,
                                      "message": "the request body came too slowly"}},
                           status_code=408, headers={"Connection": "close"})(
            scope, receive, send)
