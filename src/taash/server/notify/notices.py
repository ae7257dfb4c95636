"""Telling a seat that it is its turn (by webhook, e-mail or Web Push): when, and in what
words."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from typing_extensions import TypedDict

from taash.server.tables.presence import connected

if TYPE_CHECKING:
    from taash.server.notify.notifier import Notifier
    from taash.server.notify.push import Pusher
    from taash.server.store.db import Store
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")


class Host(Protocol):
    """What a notice needs of the process (``tables.hub.Hub`` is one)."""

    @property
    def store(self) -> Store: ...

    @property
    def public_url(self) -> str: ...

    @property
    def notifier(self) -> Notifier: ...

    @property
    def push(self) -> Pusher: ...

    def spawn(self, coro: Awaitable[object]) -> None: ...


class TurnHook(TypedDict):
    """What a seat's webhook is sent when it is its turn (docs/API.md)."""

    type: Literal["your_turn", "reminder"]
    table: str
    game: str
    seat: int
    version: int
    url: str


@dataclass(frozen=True)
class Notice:
    payload: TurnHook  # the webhook's JSON
    subject: str  # the e-mail's
    body: str


def turn_notice(public_url: str, table_id: str, game: str, seat: int, version: int,
                kind: str) -> Notice:
    """The words of a notice: ``kind`` "notified" (it has become the seat's turn) or
    "reminded" (it still is).

    >>> n = turn_notice("https://x.example", "T1", "goat", 2, 7, "reminded")
    >>> n.subject, n.payload["type"], n.payload["url"]
    ('taash: still your turn (goat)', 'reminder', 'https://x.example/t/T1?seat=2')
    """
    url = f"{public_url}/t/{table_id}?seat={seat}"
    what: Literal["your_turn", "reminder"] = "reminder" if kind == "reminded" else "your_turn"
    payload: TurnHook = {"type": what, "table": table_id, "game": game, "seat": seat,
                         "version": version, "url": url}
    subject = (f"taash: still your turn ({game})" if what == "reminder"
               else f"taash: your turn ({game})")
    body = (f"It is your turn at table {table_id} ({game}, seat {seat}).\n\n"
            f"Open your invite link to play: {url}\n")
    return Notice(payload, subject, body)


async def send_notice(hub: Host, room: Room, seat: int, version: int, kind: str) -> bool:
    """Send the notice once (the store records it, for every instance) if the seat asked for
    notices; whether this call sent it."""
    try:
        where = await hub.store.claim_notice(room.id, seat, version, kind)
    except Exception:
        log.exception("notice for table %s", room.id)
        return False
    if where is None:
        return False
    webhook, email = where
    n = turn_notice(hub.public_url, room.id, room.meta.game, seat, version, kind)
    hub.notifier.send(webhook, email, n.payload, n.subject, n.body)
    hub.push.turn(room, seat, version, kind)
    return True


async def push_notice(hub: Host, room: Room, seat: int, version: int) -> None:
    """A seat with neither webhook nor e-mail: its notice only if a push would tell it."""
    try:
        wanted = bool(await hub.push.store.targets(room.id, seat))
    except Exception:
        log.exception("push targets for table %s", room.id)
        return
    if wanted:
        await send_notice(hub, room, seat, version, "notified")


def notify_turn(hub: Host, room: Room) -> None:
    """After a move here: tell the human seat to move, unless it is connected."""
    seat = room.meta.to_move
    if seat is None or room.meta.over:
        return
    row = room.seat_row(seat)
    if row.type != "human" or connected(room, seat):
        return
    if row.webhook or row.email:
        hub.spawn(send_notice(hub, room, seat, room.version, "notified"))
    else:  # push subscriptions are not on the seat's row: asked of the store
        hub.spawn(push_notice(hub, room, seat, room.version))
