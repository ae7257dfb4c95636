"""Voice at the table: the server relays WebRTC signalling between the human seats of one
table over the table's WebSocket, and says which seats have their microphone on.

Audio goes peer to peer; the server never sees it.  A seat's connection turns voice on with
``{"type": "voice", "on": true}``; the seats with voice on are told to every seat's socket as
``{"type": "voice", "on": [seats]}``.  Signalling (``{"type": "voice", "to": SEAT, "data":
{...}}``) goes only to that seat's connections with voice on, stamped ``"from"`` with the
sender's seat as the server knows it; it is never stored.  Spectators, read-only tokens, bot
seats and seats without voice on take no part.  With several instances the messages travel on
the bus: ``vp`` (an instance's seats with voice on at a table) and ``vs`` (one signal).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from taash.server.errors import ErrorBody
from taash.server.http.guard import TokenBuckets
from taash.server.tables import wire

if TYPE_CHECKING:
    from taash.server.tables.bus import Bus, Heard
    from taash.server.tables.feed import Subscriber
    from taash.server.tables.room import Room

MAX_TEXT = 16 * 1024  # one signalling message: an SDP is a few KB
RATE = 20.0  # signalling messages per second per connection (ICE candidates come in bursts)
BURST = 80.0
SIGNALS = ("description", "candidate", "bye")


def turn_credential(secret: str, user: str, ttl: float,
                    now: float | None = None) -> tuple[str, str]:
    """A time-limited TURN credential in coturn's ``use-auth-secret`` scheme (the "TURN REST
    API"): the username is ``<expiry unix time>:<user>``, the password the base64 of the
    HMAC-SHA1 of the username under the shared secret."""
    expiry = int((time.time() if now is None else now) + ttl)
    username = f"{expiry}:{user}"
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return username, base64.b64encode(digest).decode()


def ice_for(servers: Sequence[Mapping[str, object]], secret: str | None, ttl: float,
            user: str) -> list[dict[str, object]]:
    """The ICE servers handed to one seat: TURN servers without a username of their own get
    a fresh credential when a TURN secret is configured."""
    out: list[dict[str, object]] = []
    for s in servers:
        urls = s["urls"]
        assert isinstance(urls, list)
        turn = any(str(u).startswith("turn") for u in urls)
        if turn and secret and "username" not in s:
            username, credential = turn_credential(secret, user, ttl)
            out.append({**s, "username": username, "credential": credential})
        else:
            out.append(dict(s))
    return out


def _error(cid: object, code: str, message: str) -> str:
    err: ErrorBody = {"code": code, "rule": None, "message": message}
    return wire.dumps({"type": "error", "id": cid, "voice": True, "error": err})


class Voice:
    """The seats with voice on at each table, and the relay of their signalling."""

    def __init__(self, rooms: Mapping[str, Room], bus: Bus, instance: str) -> None:
        self.rooms, self.bus, self.instance = rooms, bus, instance
        self.local: dict[str, dict[int, set[Subscriber]]] = {}  # table -> seat -> its sockets
        self.remote: dict[str, dict[str, frozenset[int]]] = {}  # table -> instance -> seats
        self.told: dict[str, list[int]] = {}  # table -> the seats last told its sockets
        self.buckets = TokenBuckets(RATE, BURST)

    # -- who has voice on --------------------------------------------------------------------
    def _local_seats(self, table: str) -> list[int]:
        return sorted(s for s, subs in self.local.get(table, {}).items() if subs)

    def seats_on(self, table: str) -> list[int]:
        seats = set(self._local_seats(table))
        room = self.rooms.get(table)
        for inst, remote in self.remote.get(table, {}).items():
            # only while presence hears that instance hold the seat: one that was killed
            # says no "gone", presence forgets it in time, and voice with it
            live = room.live.remote.get(inst) if room is not None else None
            if live is not None:
                seats |= remote & live[2]
        return sorted(seats)

    def _tell(self, room: Room, force_sub: Subscriber | None = None) -> None:
        """Push the seats with voice on to the table's seat sockets here, if it changed (or
        to ``force_sub`` alone, a socket that just connected)."""
        seats = self.seats_on(room.id)
        text = wire.dumps({"type": "voice", "on": list(seats)})
        if force_sub is not None:
            if seats:
                force_sub.push(room.version, text, info=True)
            return
        if self.told.get(room.id, []) == seats:
            return
        self.told[room.id] = seats
        for seat, subs in room.live.subs.items():
            if seat is None:
                continue
            for sub in subs:
                if sub.kind == "ws":
                    sub.push(room.version, text, info=True)

    async def _changed(self, room: Room) -> None:
        self._tell(room)
        if self.bus.shared:
            await self.bus.publish({"k": "vp", "t": room.id, "i": self.instance,
                                        "s": list(self._local_seats(room.id))})

    def joined(self, room: Room, sub: Subscriber) -> None:
        """A seat's socket connected: tell it who has voice on."""
        if sub.seat is not None:
            self._tell(room, sub)

    async def left(self, room: Room, sub: Subscriber) -> None:
        """A socket closed: its voice ends."""
        self.buckets.buckets.pop(str(id(sub)), None)
        subs = self.local.get(room.id, {}).get(sub.seat, None) if sub.seat is not None else None
        if subs is None or sub not in subs:
            return
        subs.discard(sub)
        if not subs:
            await self._changed(room)

    # -- messages from a socket --------------------------------------------------------------
    async def handle(self, room: Room, seat: int | None, sub: Subscriber,
                     msg: dict[str, object], size: int, can_act: bool) -> str | None:
        """One ``voice`` message from a socket: None, or the refusal to send back."""
        cid = msg.get("id")
        if not (cid is None or (isinstance(cid, str) and len(cid) <= 80)):
            cid = None
        if seat is None:
            return _error(cid, "forbidden", "spectators take no part in voice: only the "
                          "players at the table talk")
        if not can_act:
            return _error(cid, "forbidden", "this token's scope is read: voice needs a "
                          "token with the play scope")
        if room.seat_row(seat).type != "human":
            return _error(cid, "forbidden", f"seat {seat} is not a human seat")
        if size > MAX_TEXT:
            return _error(cid, "too_large", f"a voice message is at most {MAX_TEXT} bytes")
        if not self.buckets.allow(str(id(sub))):
            return _error(cid, "rate_limited", "too many voice messages: slow down")
        if "on" in msg:
            on = msg.get("on")
            if not isinstance(on, bool):
                return _error(cid, "bad_request", "voice on is true or false")
            seats = self.local.setdefault(room.id, {})
            subs = seats.setdefault(seat, set())
            had = bool(subs)
            if on:
                subs.add(sub)
            else:
                subs.discard(sub)
            if had != bool(subs):
                await self._changed(room)
            else:  # the same seats: this socket still needs telling
                self._tell(room, sub)
            return None
        return await self._signal(room, seat, sub, msg, cid)

    async def _signal(self, room: Room, seat: int, sub: Subscriber, msg: dict[str, object],
                      cid: object) -> str | None:
        to, data = msg.get("to"), msg.get("data")
        if type(to) is not int or not 0 <= to < len(room.meta.seats) or to == seat:
            return _error(cid, "bad_request", "a voice message goes to another seat: "
                          "{\"type\": \"voice\", \"to\": SEAT, \"data\": {...}}")
        if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in SIGNALS:
            return _error(cid, "bad_request", "a voice message's data is one of "
                          "{\"description\": ...}, {\"candidate\": ...}, {\"bye\": true}")
        if room.seat_row(to).type != "human":
            return _error(cid, "forbidden", f"seat {to} is not a human seat")
        bye = "bye" in data
        if not bye and sub not in self.local.get(room.id, {}).get(seat, set()):
            return _error(cid, "conflict", "turn voice on first: {\"type\": \"voice\", "
                          "\"on\": true}")
        if not bye and to not in self.seats_on(room.id):
            return _error(cid, "conflict", f"seat {to} has not turned voice on")
        if not self._deliver(room, seat, to, data) and self.bus.shared:
            await self.bus.publish({"k": "vs", "t": room.id, "i": self.instance,
                                        "f": seat, "to": to, "d": data})
        return None

    def _deliver(self, room: Room, sender: int, to: int, data: object) -> bool:
        """Push a signal to the target seat's sockets here with voice on; any?"""
        subs = self.local.get(room.id, {}).get(to, set())
        if not subs:
            return False
        text = wire.dumps({"type": "voice", "from": sender, "data": data})
        for sub in subs:
            sub.push(room.version, text, info=True)
        return True

    # -- the bus -----------------------------------------------------------------------------
    async def on_bus(self, msg: Heard) -> None:
        """``vp``/``vs`` from another instance; ``here``, ``who`` and ``gone`` after presence
        has heard them."""
        inst = str(msg.get("i"))
        if inst == self.instance:
            return
        kind = msg.get("k")
        if kind == "here":  # presence changed (after it was heard): who has voice may too
            rooms = msg.get("rooms")
            for tid in rooms if isinstance(rooms, dict) else ():
                if str(tid) in self.rooms:
                    self._tell(self.rooms[str(tid)])
            return
        if kind == "gone":
            for table, by in list(self.remote.items()):
                if by.pop(inst, None) is not None and table in self.rooms:
                    self._tell(self.rooms[table])
            return
        room = self.rooms.get(str(msg.get("t")))
        if room is None:
            return
        if kind == "who":  # an instance just opened the table: it learns who has voice on
            if self._local_seats(room.id):
                await self._changed(room)
        elif kind == "vp":
            seats = msg.get("s")
            if isinstance(seats, list):
                got = frozenset(int(s) for s in seats if isinstance(s, int))
                by = self.remote.setdefault(room.id, {})
                if got:
                    by[inst] = got
                else:
                    by.pop(inst, None)
                self._tell(room)
        elif kind == "vs":
            f, to = msg.get("f"), msg.get("to")
            if isinstance(f, int) and isinstance(to, int):
                self._deliver(room, f, to, msg.get("d"))

    def forget(self, table: str) -> None:
        """A room dropped from memory."""
        self.local.pop(table, None)
        self.remote.pop(table, None)
        self.told.pop(table, None)
