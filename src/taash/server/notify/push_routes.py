"""The Web Push routes of docs/API.md: the server's VAPID public key, a browser's push
subscription for one seat (the seat's credential) or for every seat of the session's player,
and the player's controls (mute a table, all off, quiet hours)."""

from __future__ import annotations

import base64
import binascii
import time
from typing import Annotated, NotRequired

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from taash.server.accounts.me import signed_in
from taash.server.errors import BadRequest
from taash.server.http.deps import SettingsDep
from taash.server.notify.deps import PushDep
from taash.server.notify.push import LANGUAGES, Pusher, shown
from taash.server.notify.shapes import PushShown
from taash.server.store.push import PushSub
from taash.server.tables.access import seat_of

MINUTE = Field(None, ge=0, le=1439, description="minutes after local midnight")


class Keys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class Subscription(BaseModel):
    """What the browser's ``PushSubscription.toJSON()`` gives."""

    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=2000, examples=["https://push.example.net/send/abc"])
    keys: Keys
    expirationTime: float | None = None  # the browser's name for it


class PushBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subscription: Subscription
    language: str | None = Field(None, max_length=8, examples=["en"])
    quiet_from: int | None = MINUTE
    quiet_to: int | None = MINUTE
    tz_offset: int = Field(0, ge=-900, le=900, description="the browser's minutes east of UTC")


class EndpointBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=2000)


class MuteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    muted: bool


class SettingsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    off: bool | None = Field(None, description="true: no push at all until false again")
    quiet_from: int | None = MINUTE
    quiet_to: int | None = MINUTE
    tz_offset: int | None = Field(None, ge=-900, le=900)


class PushKey(TypedDict):
    key: str


class SeatPushShown(PushShown):
    muted: bool


class SeatUnsubscribed(TypedDict):
    table: str
    seat: int
    removed: bool


class SeatMuted(TypedDict):
    table: str
    seat: int
    muted: bool


class Unsubscribed(TypedDict):
    removed: bool


class PushSettled(TypedDict):
    """How many subscriptions changed, and the settings given (those that are not null)."""

    changed: int
    off: NotRequired[bool]
    quiet_from: NotRequired[int]
    quiet_to: NotRequired[int]
    tz_offset: NotRequired[int]


def _key(text: str, size: int, what: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or (size == 65 and raw[0] != 4):
        raise BadRequest(f"subscription.keys.{what} is not a {size}-byte key in base64url")
    return text.rstrip("=")


async def _subscription(pusher: Pusher, body: PushBody, scope: str, table_id: str | None,
                        seat: int | None, player_id: str | None) -> PushSub:
    s = body.subscription
    p256dh, auth = _key(s.keys.p256dh, 65, "p256dh"), _key(s.keys.auth, 16, "auth")
    if (body.quiet_from is None) != (body.quiet_to is None):
        raise BadRequest("quiet hours need both quiet_from and quiet_to")
    await pusher.check_endpoint(s.endpoint)
    lang = body.language if body.language in LANGUAGES else "en"
    return PushSub(Pusher.new_id(), scope, s.endpoint, p256dh, auth, table_id, seat,
                   player_id, lang, False, body.quiet_from, body.quiet_to, body.tz_offset,
                   time.time())


router = APIRouter()


@router.get("/api/push/key", tags=["push"])
async def push_key(push: PushDep, request: Request) -> PushKey:
    """The server's VAPID public key (uncompressed P-256 point, base64url): the page's
    ``applicationServerKey``."""
    return {"key": push.public_key}

@router.post("/api/tables/{table_id}/push", status_code=201, tags=["push"])
async def subscribe_seat(push: PushDep, settings: SettingsDep, request: Request, table_id: str,
                         body: PushBody, token: str | None = None, seat: int | None = None
) -> SeatPushShown:
    """Push this seat's turn notices to a browser's subscription (the seat's
    credential); the same endpoint again replaces its keys and quiet hours."""
    room, s = await seat_of(request, settings, table_id, token, seat)
    sub = await _subscription(push, body, f"t:{room.id}:{s}", room.id, s,
                              room.seat_row(s).player_id)
    await push.store.subscribe(sub)
    return {**shown(sub), "muted": await push.store.muted(room.id, s)}

@router.delete("/api/tables/{table_id}/push", tags=["push"])
async def unsubscribe_seat(push: PushDep, settings: SettingsDep, request: Request, table_id: str,
                           body: EndpointBody, token: str | None = None, seat: int | None = None
) -> SeatUnsubscribed:
    """Stop pushing this seat's notices to that endpoint."""
    room, s = await seat_of(request, settings, table_id, token, seat)
    removed = await push.store.unsubscribe(f"t:{room.id}:{s}", body.endpoint)
    return {"table": room.id, "seat": s, "removed": removed}

@router.put("/api/tables/{table_id}/push", tags=["push"])
async def mute_seat(push: PushDep, settings: SettingsDep, request: Request, table_id: str,
                    body: MuteBody, token: str | None = None, seat: int | None = None
) -> SeatMuted:
    """Mute (or unmute) push for this seat at this table, whichever subscription (the
    seat's or its player's for every table) would tell it."""
    room, s = await seat_of(request, settings, table_id, token, seat)
    await push.store.mute(room.id, s, body.muted, time.time())
    return {"table": room.id, "seat": s, "muted": body.muted}

@router.post("/api/me/push", status_code=201, tags=["push"])
async def subscribe_player(push: PushDep, settings: SettingsDep, request: Request, body: PushBody
) -> PushShown:
    """Push the turn notices of every seat of the session's player to a browser's
    subscription."""
    who = await signed_in(request, settings)
    pid = who.player.id
    sub = await _subscription(push, body, f"p:{pid}", None, None, pid)
    await push.store.subscribe(sub)
    return shown(sub)

@router.delete("/api/me/push", tags=["push"])
async def unsubscribe_player(push: PushDep, settings: SettingsDep, request: Request,
                             body: EndpointBody) -> Unsubscribed:
    """Stop pushing the player's notices (for every table) to that endpoint."""
    who = await signed_in(request, settings)
    removed = await push.store.unsubscribe(f"p:{who.player.id}",
                                                            body.endpoint)
    return {"removed": removed}

@router.get("/api/me/push", tags=["push"])
async def player_push(push: PushDep, settings: SettingsDep, request: Request
) -> list[PushShown]:
    """The player's push subscriptions (theirs and their seats'): no keys, and of the
    endpoint only the push service's origin."""
    who = await signed_in(request, settings)
    return await push.listed(who.player.id)

@router.put("/api/me/push", tags=["push"])
async def settle_player(push: PushDep, settings: SettingsDep, request: Request,
                        body: Annotated[SettingsBody, Body()]) -> PushSettled:
    """All push off (or on again), and quiet hours, for every subscription of the
    player's; ``quiet_from`` equal to ``quiet_to`` means none."""
    who = await signed_in(request, settings)
    out: PushSettled = {"changed": 0}
    if body.off is not None:
        out["off"] = body.off
    if (body.quiet_from is None) != (body.quiet_to is None):
        raise BadRequest("quiet hours need both quiet_from and quiet_to")
    if body.quiet_from is not None and body.quiet_to is not None:
        out["quiet_from"], out["quiet_to"] = body.quiet_from, body.quiet_to
    if body.tz_offset is not None:
        out["tz_offset"] = body.tz_offset
    values = {k: v for k, v in out.items() if k != "changed"}
    if not values:
        raise BadRequest("nothing to change: give off, quiet_from and quiet_to, or "
                         "tz_offset")
    out["changed"] = await push.store.settle(who.player.id, values)
    return out
