"""Guards in front of the app: request bodies bounded in size, requests per client bounded in
rate (the HTTP API and the live channel's actions)."""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taash.server.config import Settings
from taash.server.errors import DomainError, RateLimited, TooLarge


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
    """Whose request: its seat token if it has one, else its address."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return "t:" + bytes(value).decode("latin-1")[-48:]
    qs = bytes(scope.get("query_string", b"")).decode("latin-1")
    for part in qs.split("&"):
        if part.startswith("token="):
            return "t:" + part[6:54]
    client = scope.get("client")
    return "a:" + (str(client[0]) if client else "?")


Refusal = Callable[[DomainError, dict[str, str] | None], ASGIApp]  # the answer to a refusal


class Guard:
    """Refuses request bodies over the limit (TooLarge) and requests over the rate
    (RateLimited) before the app sees a request; ``refuse`` answers them."""

    def __init__(self, app: ASGIApp, settings: Settings, refuse: Refusal) -> None:
        self.app = app
        self.max_body = settings.max_body
        self.buckets = TokenBuckets(settings.rate_limit, settings.rate_burst)
        self.refuse = refuse

    def too_large(self) -> TooLarge:
        return TooLarge(f"request body over {self.max_body} bytes")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        limited = path.startswith("/api/") and not path.endswith("/stream")
        if limited and not self.buckets.allow(client_key(scope)):
            if scope["type"] == "http":
                await self.refuse(RateLimited("too many requests: slow down"),
                                  {"Retry-After": "1"})(scope, receive, send)
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
                    await self.refuse(self.too_large(), None)(scope, receive, send)
                    return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_body:
                    raise self.too_large()  # answered by the app's handler
            return msg

        await self.app(scope, counted, send)
