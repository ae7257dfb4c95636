"""Requests reach a table's owner (issue 44, docs/ownership.md): an instance that does not own
a table forwards its requests to the instance that does.

Every request under ``/api/tables/{id}`` (the HTTP API, the NDJSON stream and the WebSocket)
that reaches an instance holding no lease of that table while another instance does is passed
on, as it came, to the owner's address (``--instance-url``, kept in the lease); the answer
comes back as the owner gave it, streamed.  So a client, a proxy in front or ``taash play``
needs to know nothing of owners: any instance answers for any table, and only the owner reads
and writes the table's moves.  A forwarded request carries ``x-taash-forwarded`` and is never
forwarded again: an instance that lost the table meanwhile answers 503 ``moved`` (asked again,
the request reaches the new owner); so does a forwarder whose owner does not answer (killed:
its lease runs out within ``--lease`` seconds and another instance takes the table).

Forwarding, not a redirect: the page and the terminal reach the server at one public address
(behind Caddy, one origin), where "reconnect to instance B" has no meaning.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from taash.server.errors import DomainError, Moved
from taash.server.http.forwarded import MARK, ORIGIN
from taash.server.tables.hub import Hub
from taash.server.tables.wire import dumps

log = logging.getLogger("taash.server")

TABLE = re.compile(r"/api/tables/([A-Za-z0-9_-]{1,24})(?:/|$)")
# not passed on: the connection's own (hop by hop), the client's compression (the answer comes
# back plain and this instance's own compression applies), and what the WebSocket client sets
SKIP = {b"host", b"connection", b"keep-alive", b"transfer-encoding", b"te", b"trailer",
        b"upgrade", b"proxy-connection", b"accept-encoding", b"x-forwarded-for",
        b"x-forwarded-proto", b"content-length", MARK, ORIGIN}
WS_SKIP = SKIP | {b"sec-websocket-key", b"sec-websocket-version", b"sec-websocket-extensions",
                  b"sec-websocket-protocol", b"origin"}
# not passed back from the owner's answer: what this instance's guard adds to every answer
# (the request id, the security headers), besides the connection's own
ANSWER_SKIP = (SKIP - {b"content-length"}) | {b"x-request-id", b"content-security-policy",
                                             b"x-content-type-options", b"x-frame-options",
                                             b"referrer-policy"}
TIMEOUT = httpx.Timeout(30.0, connect=2.0)
STREAM_TIMEOUT = httpx.Timeout(None, connect=2.0)  # a stream lasts; the owner pings it


def _moved(table_id: str) -> Moved:
    return Moved(f"table {table_id}: its server instance does not answer now; ask again in a "
                 "moment (another instance takes the table within seconds)")


class Forward:
    """The ASGI middleware that passes a table's requests on to its owner."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        where, table_id = await self._owner(scope)
        if where is None:
            await self.app(scope, receive, send)
            return
        owners = self._hub(scope)
        assert owners is not None
        owners.owners.forwarded(scope["type"])
        try:
            if scope["type"] == "http":
                await self._http(scope, receive, send, where, table_id)
            else:
                await self._ws(scope, receive, send, where, table_id)
        except _Unreachable:
            owners.owners.unreachable(table_id)
            await _refuse(scope, receive, send, _moved(table_id))

    @staticmethod
    def _hub(scope: Scope) -> Hub | None:
        hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
        return hub if isinstance(hub, Hub) else None

    async def _owner(self, scope: Scope) -> tuple[str | None, str]:
        """The owner's address if this request is to be forwarded to it."""
        if scope["type"] not in ("http", "websocket"):
            return None, ""
        found = TABLE.match(scope["path"])
        hub = self._hub(scope)
        if found is None or hub is None or not hub.owners.on or found[1] in hub.rooms \
                or any(k == MARK for k, _ in scope["headers"]):
            return None, ""
        table_id = found[1]
        try:
            where = await hub.owners.elsewhere(table_id)
            if where is None:  # nobody else plays it: this instance takes it, unless another
                try:            # took it since the lease was read (then it is forwarded there)
                    await hub.room(table_id)
                except Moved:
                    hub.owners.unreachable(table_id)
                    where = await hub.owners.elsewhere(table_id)
                except DomainError:  # no such table...: the route answers it
                    pass
            return where, table_id
        except Exception as e:  # the database is away: answered here (a clear refusal)
            line = str(e).strip().splitlines()[0][:200] if str(e).strip() else ""
            log.warning("owner of table %s not read: %s: %s", table_id, type(e).__name__, line)
            return None, ""

    def _client(self) -> httpx.AsyncClient:
        if self.client is None:
            self.client = httpx.AsyncClient(limits=httpx.Limits(max_connections=256,
                                                                max_keepalive_connections=64))
        return self.client

    async def _http(self, scope: Scope, receive: Receive, send: Send, where: str,
                    table_id: str) -> None:
        body = b""
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            body += msg.get("body", b"")
            if not msg.get("more_body"):
                break
        path = scope["path"] + (f"?{scope['query_string'].decode('latin-1')}"
                                if scope["query_string"] else "")
        stream = scope["path"].endswith("/stream")
        client = self._client()
        request = client.build_request(scope["method"], where.rstrip("/") + path,
                                       headers=_headers(scope, SKIP), content=body,
                                       timeout=STREAM_TIMEOUT if stream else TIMEOUT)
        try:
            answer = await client.send(request, stream=True)
        except httpx.HTTPError as e:
            raise _Unreachable from e
        try:
            await send({"type": "http.response.start", "status": answer.status_code,
                        "headers": [(k, v) for k, v in answer.headers.raw
                                    if k.lower() not in ANSWER_SKIP]})
            await _until_gone(receive, self._relay(answer, send))
        finally:
            await answer.aclose()

    @staticmethod
    async def _relay(answer: httpx.Response, send: Send) -> None:
        try:
            async for chunk in answer.aiter_raw():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except httpx.HTTPError:  # the owner went away mid-answer: the client asks again
            pass
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _ws(self, scope: Scope, receive: Receive, send: Send, where: str,
                  table_id: str) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        path = scope["path"] + (f"?{scope['query_string'].decode('latin-1')}"
                                if scope["query_string"] else "")
        origin = dict(scope["headers"]).get(b"origin")
        try:
            upstream = await connect(
                "ws" + where.rstrip("/").removeprefix("http") + path, open_timeout=3,
                additional_headers=[(k.decode("latin-1"), v.decode("latin-1"))
                                    for k, v in _headers(scope, WS_SKIP)],
                origin=origin.decode("latin-1") if origin else None,
                max_size=None, compression=None, ping_interval=None)
        except (OSError, TimeoutError, WebSocketException) as e:
            raise _Unreachable from e
        await send({"type": "websocket.accept"})
        async with upstream:  # until either side closes: then the other is closed too
            relays = {asyncio.ensure_future(_to_owner(receive, upstream)),
                      asyncio.ensure_future(_from_owner(upstream, send))}
            _, pending = await asyncio.wait(relays, return_when=asyncio.FIRST_COMPLETED)
            for t in pending:
                t.cancel()
            for out in await asyncio.gather(*relays, return_exceptions=True):
                if isinstance(out, Exception):
                    log.debug("forwarding a socket: %r", out)


class _Unreachable(Exception):
    """The owner did not answer (before anything was sent to the client)."""


def _headers(scope: Scope, skip: set[bytes]) -> list[tuple[bytes, bytes]]:
    client = scope.get("client")
    out = [(k, v) for k, v in scope["headers"] if k.lower() not in skip]
    out.append((MARK, b"1"))
    if client:  # the client's address as this instance believed it (its proxies' word)
        out.append((b"x-forwarded-for", str(client[0]).encode()))
    scheme = b"https" if scope.get("scheme") in ("https", "wss") else b"http"
    out.append((b"x-forwarded-proto", scheme))
    host = dict(scope["headers"]).get(b"host")
    if host:  # the origin the client reached: the owner counts it as its own (http/forwarded)
        out.append((ORIGIN, scheme + b"://" + host))
    return out


async def _until_gone(receive: Receive, work: Awaitable[object]) -> None:
    """Run ``work`` until it ends, or until the client goes away (``receive`` tells)."""
    task = asyncio.ensure_future(work)

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    watcher = asyncio.ensure_future(gone())
    done, pending = await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for t in done:
        if t is task and not t.cancelled() and t.exception() is not None:
            log.debug("forwarding: %r", t.exception())


async def _to_owner(receive: Receive, upstream: ClientConnection) -> None:
    while True:
        msg = await receive()
        if msg["type"] == "websocket.disconnect":
            code = msg.get("code", 1000)
            # a code a close frame may carry (not 1005/1006: "none", "gone without one")
            await upstream.close(code if code in (1000, 1001) or 3000 <= code < 5000 else 1000)
            return
        text, data = msg.get("text"), msg.get("bytes")
        try:
            await upstream.send(text if text is not None else data or b"")
        except WebSocketException:
            return


async def _from_owner(upstream: ClientConnection, send: Send) -> None:
    try:
        async for msg in upstream:
            out: Message = ({"type": "websocket.send", "text": msg} if isinstance(msg, str)
                            else {"type": "websocket.send", "bytes": msg})
            await send(out)
    except WebSocketException:
        pass
    code = upstream.close_code
    # the owner's own close code (4000 + a refusal's status, 1000, 1001); gone without one
    # (killed): 1012, "service restart", and the client reconnects
    await send({"type": "websocket.close",
                "code": code if code is not None and code not in (1005, 1006) else 1012})


async def _refuse(scope: Scope, receive: Receive, send: Send, e: Moved) -> None:
    """The owner did not answer: 503 ``moved`` (HTTP) or the live channel's refusal (an error
    message, then the close code 4503); the client asks again."""
    body = dumps({"error": e.error()}).encode()
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"),
                                (b"retry-after", b"1")]})
        await send({"type": "http.response.body", "body": body})
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": dumps({"type": "error", "error": e.error()})})
    await send({"type": "websocket.close", "code": 4503})
