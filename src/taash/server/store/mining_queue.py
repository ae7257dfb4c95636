"""The miner's queue (migration 0027; docs/puzzles.md "Mined on the server"): finished
matches waiting to be searched for puzzles, the players' consent they wait on, and the tables a
person left to a bot before the match ended.

A finished match is queued once (keyed by its table) and leaves the queue in the transaction
that keeps the puzzles found in it, so a stop between the two mines it again and finds its
puzzles kept already (each id once).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.mined_puzzles import Mined, insert_new
from taash.server.store.mining_schema import mining_left, mining_queue
from taash.server.store.schema import players


@dataclass(frozen=True)
class QueuedMatch:
    table_id: str
    game: str
    ended: float
    record: str  # JSON text: the core's record of the match
    players: list[str]  # whose consent let it in
    tries: int


class MiningQueue:
    """The queue's rows and the players' consent, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- consent ----------------------------------------------------------------------------
    async def consenting(self, player_ids: Iterable[str]) -> set[str]:
        """Which of these players (living) let their finished deals become puzzles."""
        ids = sorted(set(player_ids))
        if not ids:
            return set()
        async with self.store.engine.connect() as conn:
            return set((await conn.execute(select(players.c.id).where(and_(
                players.c.id.in_(ids), players.c.deleted.is_(None),
                players.c.puzzle_consent)))).scalars())

    # -- tables a person left ---------------------------------------------------------------
    async def seat_left(self, table_id: str, now: float) -> None:
        """A human seat of this table was given to a bot: its match is not to be mined."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(mining_left.insert().values(table_id=table_id, left=now))
        except IntegrityError:
            pass  # marked before

    async def was_left(self, table_id: str) -> bool:
        """Whether a person left this table to a bot (the mark goes once asked at the end)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            gone = await conn.execute(delete(mining_left)
                                      .where(mining_left.c.table_id == table_id))
        return bool(gone.rowcount)

    # -- the queue --------------------------------------------------------------------------
    async def enqueue(self, table_id: str, game: str, ended: float, record: str,
                      player_ids: Sequence[str]) -> bool:
        """Queue a finished match for the miner: False if it was queued before."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(mining_queue.insert().values(
                    table_id=table_id, game=game, ended=ended, record=record,
                    players=json.dumps(sorted(set(player_ids))), tries=0))
        except IntegrityError:
            return False
        return True

    async def waiting(self) -> int:
        """How many matches wait."""
        async with self.store.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(mining_queue)))
                       .scalar_one())

    async def queued(self, limit: int) -> list[QueuedMatch]:
        """The matches waiting, the earliest ended first."""
        q = select(mining_queue).order_by(mining_queue.c.ended,
                                          mining_queue.c.table_id).limit(limit)
        async with self.store.engine.connect() as conn:
            return [QueuedMatch(r.table_id, r.game, r.ended, r.record,
                                [str(p) for p in json.loads(r.players)], r.tries)
                    for r in await conn.execute(q)]

    async def tried(self, table_id: str) -> None:
        """Mining this match failed: counted, so that it is given up after a few tries."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(mining_queue).where(mining_queue.c.table_id == table_id)
                               .values(tries=mining_queue.c.tries + 1))

    async def drop(self, table_id: str) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(mining_queue).where(mining_queue.c.table_id == table_id))

    async def mined(self, table_id: str, puzzles: Sequence[Mined]) -> int:
        """Keep the puzzles found in a queued match (those not kept yet) and take the match
        off the queue, in one commit: how many puzzles were new."""
        for attempt in range(3):
            try:
                async with self.store._writing(), self.store.engine.begin() as conn:
                    added = await insert_new(conn, puzzles)
                    await conn.execute(delete(mining_queue)
                                       .where(mining_queue.c.table_id == table_id))
                    return added
            except IntegrityError:  # one of the ids added meanwhile by another instance
                if attempt == 2:
                    raise
        return 0  # not reached
