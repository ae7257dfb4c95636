"""What clients are sent: a table's info, the views with their version, live messages, the
record.  Shaping only: nothing here changes a room."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

import orjson

from taash.games.base import MatchState
from taash.server.tables.autoplay import turn_deadline
from taash.server.tables.match import fair_record, fair_view
from taash.server.tables.presence import Seen, connected
from taash.server.tables.roomish import Played
from taash.server.tables.shapes import RecordSeat, TableInfo

if TYPE_CHECKING:
    from taash.server.tables.autoplay import Autoplay
    from taash.server.tables.match import Step

JsonObject = dict[str, object]  # a view, a record: the core's, with the server's fields


class Shown(Seen, Played, Protocol):
    """What the wire reads of a room (``tables.room.Room`` is one): its table, its match and
    version, whether its bots play, and who is connected."""

    @property
    def autoplay(self) -> Autoplay: ...


def dumps(obj: object) -> str:
    """Compact JSON text, as ``json.dumps(obj, separators=(",", ":"))`` writes it for every
    value the server sends (non-ASCII as UTF-8 rather than escaped), in a fraction of its time
    (orjson): each accepted action is serialised once per seat that watches it.

    >>> dumps({"a": [1, "é"], 2: None})
    '{"a":[1,"é"],"2":null}'
    """
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def iso(t: float, timespec: str = "seconds") -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec=timespec).replace("+00:00", "Z")


def turn_ends(room: Shown) -> str | None:
    """The turn timer's deadline as the table info gives it (ISO time)."""
    deadline = turn_deadline(room.meta, room.state)
    return None if deadline is None else iso(deadline, "milliseconds")


def table_info(room: Shown) -> TableInfo:
    """The table's info (in every view); ``fair``: the current deal's commit and seeds and the
    next deal's commit, on a table that deals fair (else null)."""
    m = room.meta
    dealt = sum(1 for f in m.fair if f.dealt)
    return {
        "id": m.id, "game": m.game, "options": m.options, "live": m.live, "open": m.open,
        "bot_delay_ms": m.bot_delay_ms, "turn_timer_s": m.turn_timer_s,
        "turn_ends": turn_ends(room),
        "created": iso(m.created), "updated": iso(m.updated), "version": room.version,
        "over": bool(room.state.is_over()), "to_move": m.to_move,
        "rematch": m.rematch_id, "rematch_of": m.rematch_of, "chat_text": m.chat_text,
        "pass_and_play": m.pass_and_play,
        # the human seats a live table waits for before its first move (its invited friends
        # not come yet, and nobody at it has started it): [] once it plays
        "waiting": m.waiting_for(),
        "fair": fair_view(m, dealt - 1) if dealt else None,
        "idle": not room.state.is_over() and not room.autoplay.active(),
        "spectator_delay": m.spectator_delay,
        "spectators": len(room.live.subs.get(None, ())),
        "seats": [{"seat": s.seat, "type": s.type, "level": s.level, "name": s.name,
                   "claimed": s.claimed or s.type == "bot",
                   "connected": connected(room, s.seat)} for s in m.seats],
    }


def public(room: Shown, state: MatchState | None = None, version: int | None = None,
           info: TableInfo | None = None) -> JsonObject:
    """What anyone may see: the core's public view, the version, the table's info."""
    st = room.state if state is None else state
    v = dict(st.public_view())
    v["version"] = room.version if version is None else version
    v["table"] = table_info(room) if info is None else info
    v["id"] = room.id
    return v


def seat_view(room: Shown, seat: int, state: MatchState | None = None,
              version: int | None = None, info: TableInfo | None = None) -> JsonObject:
    """The seat's view (its own hand, its legal actions), the version, the table's info."""
    st = room.state if state is None else state
    v = dict(st.view(seat))
    v["version"] = room.version if version is None else version
    v["table"] = table_info(room) if info is None else info
    return v


def view_of(room: Shown, seat: int | None, state: MatchState | None = None,
            version: int | None = None, info: TableInfo | None = None) -> JsonObject:
    """A seat's view, or (``None``) the public view."""
    if seat is None:
        return public(room, state, version, info)
    return seat_view(room, seat, state, version, info)


def view_message(room: Shown, seat: int | None) -> str:
    return dumps({"type": "view", "version": room.version, "view": view_of(room, seat)})


def event_message(room: Shown, seat: int | None, step: Step,
                  info: TableInfo | None = None) -> str:
    return dumps({"type": "event", "version": step.version, "events": step.events,
                  "view": view_of(room, seat, step.state, step.version, info)})


def table_message(room: Shown, info: TableInfo | None = None) -> str:
    """A table message at its info's version (a delayed spectator's is behind the room's)."""
    info = table_info(room) if info is None else info
    return dumps({"type": "table", "version": info["version"], "table": info})


def ping_message(kind: str, version: int, now: float) -> str:
    """A keep-alive ``ping`` (or the answer to a client's, ``pong``) with the server's time."""
    return dumps({"type": kind, "version": version, "now": iso(now, "milliseconds")})


def record(room: Shown, state: MatchState | None = None) -> JsonObject:
    """The match's record (or, given, that of an earlier ``state`` of it); an unfinished deal
    without its deck or face-down cards (the core hides them)."""
    rec = (room.state if state is None else state).record(hide_current=True)
    rec["table"] = room.id
    rec["seats"] = seats_record(room)
    fair_record(room.meta, rec)
    return rec


def seats_record(room: Shown) -> list[RecordSeat]:
    """Who sat where, for stats by opponent kind (taash.stats): each seat's type, bot level,
    name and player id (public: a profile's address; no token, no contact)."""
    return [{"type": s.type, "level": s.level, "name": s.name, "player": s.player_id}
            for s in room.meta.seats]
