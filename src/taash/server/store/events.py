"""The store's queries for duplicate events (migration 0017; docs/events.md).

An entrant's play of a board is one row, written with ``WHERE version = expected``: of two
tabs that send a move on the same version, one takes it and the other is told to look again.
The row of a board is made only when the entrant reaches it (on entering, board 1; on finishing
a board, the next), in the same transaction, so a board's row exists only once it is reached.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.schema import event_boards, event_entries, events, players


@dataclass
class EventRow:
    id: str
    game: str
    options: dict[str, object]
    boards: int
    opens: float
    closes: float
    secret: str
    host: str | None
    daily: bool
    closed: float | None
    created: float


@dataclass
class BoardRow:
    event_id: str
    player_id: str
    board: int
    actions: list[dict[str, object]] = field(default_factory=list)
    version: int = 0
    last_id: str | None = None
    done: bool = False
    score: int | None = None
    result: dict[str, object] | None = None
    finished: float | None = None


def _event(r: object) -> EventRow:
    m = r._mapping  # type: ignore[attr-defined]
    return EventRow(m["id"], m["game"], json.loads(m["options"]), int(m["boards"]),
                    float(m["opens"]), float(m["closes"]), m["secret"], m["host"],
                    bool(m["daily"]), m["closed"], float(m["created"]))


def _board(r: object) -> BoardRow:
    m = r._mapping  # type: ignore[attr-defined]
    return BoardRow(m["event_id"], m["player_id"], int(m["board"]), json.loads(m["actions"]),
                    int(m["version"]), m["last_id"], bool(m["done"]), m["score"],
                    json.loads(m["result"]) if m["result"] is not None else None,
                    m["finished"])


def _board_values(b: BoardRow) -> dict[str, object]:
    return {"actions": json.dumps(b.actions), "version": b.version, "last_id": b.last_id,
            "done": b.done, "score": b.score,
            "result": json.dumps(b.result) if b.result is not None else None,
            "finished": b.finished}


class EventStore:
    """Events, entries and boards, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, e: EventRow) -> bool:
        """Keep a new event; False if one of that id is kept already."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(events.insert().values(
                    id=e.id, game=e.game, options=json.dumps(e.options), boards=e.boards,
                    opens=e.opens, closes=e.closes, secret=e.secret, host=e.host,
                    daily=e.daily, closed=e.closed, created=e.created))
        except IntegrityError:
            return False
        return True

    async def get(self, event_id: str) -> EventRow | None:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(events).where(events.c.id == event_id))).first()
        return _event(r) if r is not None else None

    async def many(self, event_ids: Sequence[str]) -> list[EventRow]:
        """Those of these events that are kept."""
        if not event_ids:
            return []
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(events).where(
                events.c.id.in_(list(event_ids))).order_by(events.c.id))).all()
        return [_event(r) for r in rows]

    async def to_announce(self, now: float, limit: int) -> list[EventRow]:
        """Events closed (by their host, or their time) whose close is not yet told."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(events).where(and_(
                events.c.announced.is_(None),
                or_(events.c.closed.is_not(None), events.c.closes <= now)))
                .order_by(events.c.closes, events.c.id).limit(limit))).all()
        return [_event(r) for r in rows]

    async def claim_announce(self, event_id: str, now: float) -> bool:
        """Take the telling of an event's close: True for one caller only, of every
        instance."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(events).where(and_(
                events.c.id == event_id, events.c.announced.is_(None))).values(announced=now))
        return res.rowcount == 1

    async def entrant_ids(self, event_id: str) -> list[str]:
        """Everyone who entered the event."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(event_entries.c.player_id).where(
                event_entries.c.event_id == event_id)
                .order_by(event_entries.c.player_id))).all()
        return [r[0] for r in rows]

    async def recent(self, since: float, limit: int) -> list[EventRow]:
        """Events that close after ``since``, the soonest to open last."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(events).where(events.c.closes >= since)
                                       .order_by(events.c.opens.desc(), events.c.id)
                                       .limit(limit))).all()
        return [_event(r) for r in rows]

    async def of_player(self, player_id: str, limit: int) -> list[EventRow]:
        """The events a player entered, the latest first."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(events).join(event_entries, event_entries.c.event_id == events.c.id)
                .where(event_entries.c.player_id == player_id)
                .order_by(events.c.opens.desc(), events.c.id).limit(limit))).all()
        return [_event(r) for r in rows]

    async def entrants(self, event_ids: Sequence[str]) -> dict[str, int]:
        """How many entered each of these events."""
        if not event_ids:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(event_entries.c.event_id, func.count())
                .where(event_entries.c.event_id.in_(list(event_ids)))
                .group_by(event_entries.c.event_id))).all()
        return {r[0]: int(r[1]) for r in rows}

    async def close(self, event_id: str, now: float) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(events).where(and_(
                events.c.id == event_id, events.c.closed.is_(None))).values(closed=now))

    async def enter(self, event_id: str, player_id: str, now: float, first: BoardRow) -> bool:
        """Enter a player, their first board's row with it; False if they had entered."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(event_entries.insert().values(
                    event_id=event_id, player_id=player_id, entered=now))
                await conn.execute(event_boards.insert().values(
                    event_id=event_id, player_id=player_id, board=first.board,
                    **_board_values(first)))
        except IntegrityError:
            return False
        return True

    async def entered_of(self, event_ids: Sequence[str], player_id: str) -> list[str]:
        """Those of these events the player entered."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(event_entries.c.event_id).where(and_(
                event_entries.c.event_id.in_(list(event_ids)),
                event_entries.c.player_id == player_id)))).all()
        return [r[0] for r in rows]

    async def entered(self, event_id: str, player_id: str) -> bool:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(event_entries.c.entered).where(and_(
                event_entries.c.event_id == event_id,
                event_entries.c.player_id == player_id)))).first()
        return r is not None

    async def boards_of(self, event_id: str, player_id: str) -> list[BoardRow]:
        """The boards a player has reached, in order."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(event_boards).where(and_(
                event_boards.c.event_id == event_id, event_boards.c.player_id == player_id))
                .order_by(event_boards.c.board))).all()
        return [_board(r) for r in rows]

    async def save_board(self, b: BoardRow, expected: int, reached: BoardRow | None) -> bool:
        """Write a board's play if it is still at version ``expected`` (False otherwise,
        nothing written), and the row of the board it led to, if any."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(event_boards).where(and_(
                event_boards.c.event_id == b.event_id, event_boards.c.player_id == b.player_id,
                event_boards.c.board == b.board, event_boards.c.version == expected))
                .values(**_board_values(b)))
            if res.rowcount != 1:
                return False
            if reached is not None:
                await conn.execute(event_boards.insert().values(
                    event_id=reached.event_id, player_id=reached.player_id,
                    board=reached.board, **_board_values(reached)))
        return True

    async def finished(self, event_id: str, board: int | None = None) -> list[BoardRow]:
        """Every board finished in the event (or only board ``board``)."""
        cond = and_(event_boards.c.event_id == event_id, event_boards.c.done.is_(True))
        if board is not None:
            cond = and_(cond, event_boards.c.board == board)
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(event_boards).where(cond)
                                       .order_by(event_boards.c.board,
                                                 event_boards.c.player_id))).all()
        return [_board(r) for r in rows]

    async def scores(self, event_id: str) -> list[tuple[str, int, int]]:
        """(player, board, score) of every board finished in the event: what standings need,
        without the play."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(event_boards.c.player_id, event_boards.c.board, event_boards.c.score)
                .where(and_(event_boards.c.event_id == event_id,
                            event_boards.c.done.is_(True))))).all()
        return [(r[0], int(r[1]), int(r[2])) for r in rows]

    async def names(self, event_id: str) -> dict[str, str]:
        """Each entrant's name (a join, not a list of ids: a field of any size)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(players.c.id, players.c.name)
                .join(event_entries, event_entries.c.player_id == players.c.id)
                .where(event_entries.c.event_id == event_id))).all()
        return {r[0]: r[1] for r in rows}
