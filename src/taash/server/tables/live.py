"""The live channel: an NDJSON stream (read only) and a websocket (which also takes actions),
each a seat's or a spectator's feed of numbered messages after a catch-up."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import StreamingResponse

from taash.games.base import IllegalAction, MalformedAction
from taash.server.errors import DomainError, ErrorBody, error_of
from taash.server.http.deps import SettingsDep
from taash.server.http.errors import status_of
from taash.server.http.guard import TokenBuckets, bad_text
from taash.server.store.outage import unavailable, unreachable
from taash.server.tables import wire
from taash.server.tables.access import bearer, callers, holder_of
from taash.server.tables.deps import RoomsDep, Signals, SignalsDep, TablesDep
from taash.server.tables.feed import Subscriber, catch_up, check_watchers, pump
from taash.server.tables.room import Room
from taash.server.tables.seeds import set_seed
from taash.server.tables.watch import shown_version

log = logging.getLogger("taash.server")

try:  # starlette 1.x: a send after the other side closed (a client leaving mid-send)
    from starlette.websockets import WebSocketDisconnected as _Closed
    _CLOSED: tuple[type[Exception], ...] = (_Closed,)
except ImportError:  # older starlette: no such error
    _CLOSED = ()
#: how a socket's tasks end when the client went away: not worth a warning (at 1,000
#: tables a generator's stop logged a thousand of them)
GONE: tuple[type[Exception], ...] = (WebSocketDisconnect, OSError, *_CLOSED)

Send = Callable[[str], Awaitable[None]]


# The stream and websocket routes; a refused websocket closes with 4000 + the status
# ``status_of`` gives its refusal.
router = APIRouter()


@router.get("/api/tables/{table_id}/stream", tags=["seats"])
async def stream(tables: TablesDep, settings: SettingsDep, request: Request,
                 table_id: str, token: str | None = None, since: int | None = None,
                 seat: int | None = None) -> StreamingResponse:
    """NDJSON: the full view (or what was missed since ``since``), then one line per
    accepted action; a ping line when quiet.  Without a token: a spectator's, with the
    public view."""
    players = callers(request)
    tok = bearer(request, token)
    holder = await holder_of(request, tok, "read")
    key = None  # the session or personal token whose revoking closes the stream
    s: int | None
    if holder is not None:  # a personal token: the seat of its player there
        room, s = await tables.authorize(table_id, None, seat, holder.player.id)
        key = players.watch_key(holder)
    else:
        who = (await players.cookie_player(request, settings)
               if not tok and seat is not None else None)
        room, s = await tables.watch_or_authorize(table_id, tok, seat,
                                                      who.player.id if who else None)
        key = who.session.id if who is not None else None
    if s is None:
        check_watchers(room)

    async def lines() -> AsyncIterator[str]:
        sub = room.subscribe(s)
        if key is not None:
            players.watch(key, sub)
        try:
            msgs, v = await catch_up(room, s, since)
            sub.skip_to(v)
            for m in msgs:
                yield m + "\n"
            async for m in pump(room, sub, settings.ping_s):
                yield m + "\n"
        finally:
            room.unsubscribe(sub)
            if key is not None:
                players.unwatch(key, sub)

    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store",
                                      "X-Accel-Buffering": "no"})

@router.websocket("/api/tables/{table_id}/ws")
async def live(rooms: RoomsDep, tables: TablesDep, voice: SignalsDep,
               settings: SettingsDep, websocket: WebSocket, table_id: str, token: str | None = None,
               since: int | None = None, seat: int | None = None) -> None:
    await websocket.accept()
    players = callers(websocket)
    key = None  # the session or personal token whose revoking closes the socket
    can_act = True
    s: int | None
    try:
        tok = bearer(websocket, token)
        holder = await holder_of(websocket, tok, "read")
        if holder is not None:  # a personal token: acting needs its play scope
            room, s = await tables.authorize(table_id, None, seat, holder.player.id)
            key, can_act = players.watch_key(holder), holder.can("play")
        else:
            # a seat by the session cookie: from this site's pages only (CrossSite)
            who = (await players.cookie_player(websocket, settings)
                   if not tok and seat is not None else None)
            room, s = await tables.watch_or_authorize(table_id, tok, seat,
                                                          who.player.id if who else None)
            key = who.session.id if who is not None else None
        if s is None:
            check_watchers(room)
    except Exception as e:
        refused = _refused(e)
        await websocket.send_text(wire.dumps({"type": "error", "error": refused.error()}))
        await websocket.close(code=4000 + status_of(refused))
        return
    lock = asyncio.Lock()

    async def send(text: str) -> None:
        async with lock:
            await websocket.send_text(text)

    sub = room.subscribe(s)
    sub.kind = "ws"
    if key is not None:
        players.watch(key, sub)
    try:
        msgs, v = await catch_up(room, s, since)
        sub.skip_to(v)
        for m in msgs:
            await send(m)
        voice.joined(room, sub)
        sender = asyncio.create_task(_send_all(pump(room, sub, settings.ping_s), send))
        receiver = asyncio.create_task(_receive_all(websocket, room, s, send,
                                                    websocket.app.state.seat_buckets,
                                                    voice, can_act, sub))
        done, pending = await asyncio.wait({sender, receiver},
                                           return_when=asyncio.FIRST_COMPLETED)
        for t in pending:
            t.cancel()
        for t in pending:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for t in done:
            exc = t.exception()
            if exc is not None and not isinstance(exc, GONE):
                log.warning("websocket at table %s: %r", table_id, exc)
    except GONE:
        pass
    finally:
        room.unsubscribe(sub)
        if key is not None:
            players.unwatch(key, sub)
        await voice.left(room, sub)
        with contextlib.suppress(Exception):
            await websocket.close(code=1001 if rooms.closing else 1000)


def _refused(e: Exception) -> DomainError:
    """A refusal to tell the socket: ``e`` itself, or, the database being away,
    ``unavailable`` (try again); anything else is raised again."""
    if isinstance(e, DomainError):
        return e
    if unreachable(e):
        return unavailable()
    raise e


async def _send_all(messages: AsyncIterator[str], send: Send) -> None:
    async for m in messages:
        await send(m)


def _refusal(cid: object, code: str, message: str) -> str:
    err: ErrorBody = {"code": code, "rule": None, "message": message}
    return wire.dumps({"type": "error", "id": cid, "error": err})


def _check(msg: dict[str, object], seat: int | None) -> str | None:
    """Why an action message is refused before it reaches the room (None: it is not)."""
    cid = msg.get("id")
    action = msg.get("action")
    expected = msg.get("version")
    if not isinstance(action, str) or len(action) > 200 or not (
            cid is None or (isinstance(cid, str) and len(cid) <= 80)):
        return _refusal(cid if isinstance(cid, str) and not bad_text(cid) else None,
                        "bad_request", "an action message has a text action and a text id")
    if bad_text(action) or (cid is not None and bad_text(cid)):
        return _refusal(None, "bad_request",
                        "text holds no control characters (such as NUL) or lone surrogates")
    if expected is not None and (type(expected) is not int or expected < 0):
        return _refusal(cid, "bad_request",
                        "an action's version is a whole number (the version acted on)")
    if seat is None:
        return _refusal(cid, "unauthorized",
                        "spectators do not act: connect with a seat token to play")
    return None


async def _receive_all(ws: WebSocket, room: Room, seat: int | None, send: Send,
                       buckets: TokenBuckets, voice: Signals, can_act: bool = True,
                       sub: Subscriber | None = None) -> None:
    while True:
        text = await ws.receive_text()
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            await send(wire.dumps({"type": "error", "error": {
                "code": "bad_request", "rule": None, "message": "messages are JSON objects"}}))
            continue
        kind = msg.get("type")
        cid = msg.get("id")
        if kind == "ping":
            v = room.version if seat is not None else shown_version(room)
            await send(wire.ping_message("pong", v, time.time()))
            continue
        if kind == "voice" and sub is not None:  # WebRTC signalling between seats (voice.py)
            refused = await voice.handle(room, seat, sub, msg, len(text), can_act)
            if refused is not None:
                await send(refused)
            continue
        if kind in ("seed", "action") and not can_act:
            await send(_refusal(cid, "forbidden", "this token's scope is read: acting needs "
                                "a token with the play scope"))
            continue
        if kind == "seed":  # the seat's seed for the next deal (fair deals)
            if seat is None:
                await send(_refusal(cid, "forbidden", "a spectator sends no seed"))
                continue
            try:
                got = await set_seed(room, seat, msg.get("seed"))  # type: ignore[arg-type]
            except Exception as e:
                await send(wire.dumps({"type": "error", "id": cid,
                                       "error": error_of(_refused(e))}))
            else:
                await send(wire.dumps({"type": "seed", "id": cid, **got}))
            continue
        if kind != "action":
            await send(_refusal(cid, "bad_request",
                                "unknown message type: send {\"type\": \"action\", ...}"))
            continue
        refused = _check(msg, seat)
        if refused is not None:
            await send(refused)
            continue
        assert seat is not None
        if not buckets.allow(f"s:{room.id}:{seat}"):
            await send(_refusal(cid, "rate_limited", "too many actions: slow down"))
            continue
        try:
            answer = await room.submit(seat, msg["action"], cid, msg.get("version"))
        except (IllegalAction, MalformedAction, DomainError) as e:
            await send(wire.dumps({"type": "error", "id": cid, "error": error_of(e)}))
        except Exception as e:  # the database away: unavailable, try again (else raised)
            await send(wire.dumps({"type": "error", "id": cid, "error": error_of(_refused(e))}))
        else:
            await send(wire.dumps({"type": "ack", "id": cid, **answer}))
