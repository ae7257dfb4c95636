"""Who a request acts for: the seat token (bearer), a personal API token's holder, the player
making a table, the seat of a table a request may act at (and its rate).

The routes of every domain use these; nothing here imports a route module, so a domain's
routes need not import another's.  Personal tokens and sessions are the accounts' to answer:
what the tables ask of them is ``Callers`` (the app serves ``accounts.identity.Identity`` as
``identity``), so tables imports no accounts module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from fastapi import Request, WebSocket

from taash.server.config import Settings
from taash.server.errors import RateLimited
from taash.server.store.db import PlayerRow

if TYPE_CHECKING:
    from taash.server.store.rows import SessionRow
    from taash.server.store.tokens import TokenRow
    from taash.server.tables.connections import Subscriber
    from taash.server.tables.room import Room
    from taash.server.tables.service import Tables


class Holder(Protocol):
    """The player a personal API token acts for, and the token."""

    @property
    def player(self) -> PlayerRow: ...

    @property
    def token(self) -> TokenRow: ...

    def can(self, scope: str) -> bool: ...

    def need(self, scope: str) -> None: ...


class Who(Protocol):
    """The player a request's session acts for, and that session."""

    @property
    def player(self) -> PlayerRow: ...

    @property
    def session(self) -> SessionRow: ...


class Callers(Protocol):
    """What the tables ask the accounts of who calls (``accounts.identity.Identity``)."""

    def is_personal(self, token: str | None) -> bool: ...

    async def holder(self, token: str) -> Holder: ...

    async def cookie_player(self, request: Request | WebSocket,
                            settings: Settings) -> Who | None: ...

    def watch_key(self, holder: Holder) -> str: ...

    def watch(self, key: str, sub: Subscriber) -> None: ...

    def unwatch(self, key: str, sub: Subscriber) -> None: ...

    def clean_name(self, raw: object) -> str: ...


def callers(request: Request | WebSocket) -> Callers:
    """The accounts' answers to who calls (the app's ``identity`` service)."""
    found: Callers = request.app.state.identity
    return found


def bearer(request: Request | WebSocket, token: str | None) -> str | None:
    """The seat token: the Authorization header's, else the ``token`` query parameter."""
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return token


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


async def holder_of(request: Request | WebSocket, token: str | None,
                    scope: str) -> Holder | None:
    """The holder of the request's personal API token (None: it has none), which must have
    ``scope``: Unauthorized if the token is unknown or revoked, Forbidden without the scope."""
    if token is None or not callers(request).is_personal(token):
        return None
    holder = await callers(request).holder(token)
    holder.need(scope)
    return holder


async def acting_player(request: Request, settings: Settings) -> PlayerRow | None:
    """Who makes or joins a table: a personal token's player (it needs ``play``), else the
    session cookie's (None: neither)."""
    holder = await holder_of(request, bearer(request, None), "play")
    if holder is not None:
        return holder.player
    who = await callers(request).cookie_player(request, settings)
    return who.player if who is not None else None


async def seat_of(request: Request, settings: Settings, table_id: str, token: str | None,
                  seat: int | None, scope: str = "play") -> tuple[Room, int]:
    """The room and seat a request acts for: its seat token's; a personal token's player's
    (the token has ``scope``); without either, the seat of the session cookie's player (a
    change from this site's pages only)."""
    tok = bearer(request, token)
    player_id = None
    holder = await holder_of(request, tok, scope)
    if holder is not None:  # a personal token: limited per seat like any other credential
        room, s = await _tables(request).authorize(table_id, None, seat, holder.player.id)
        check_seat_rate(request, room.id, s)
        return room, s
    if not tok:
        who = await callers(request).cookie_player(request, settings)
        player_id = who.player.id if who is not None else None
    room, s = await _tables(request).authorize(table_id, tok, seat, player_id)
    check_seat_rate(request, room.id, s)
    return room, s


def check_seat_rate(request: Request | WebSocket, table_id: str, seat: int) -> None:
    """RateLimited if this seat (checked: its token or its player's session) asks too often,
    from whatever addresses."""
    if not request.app.state.seat_buckets.allow(f"s:{table_id}:{seat}"):
        raise RateLimited("too many requests for this seat: slow down")
