"""The puzzles mined from the server's finished deals (migration 0027; docs/puzzles.md "Mined
on the server"): each kept as the shipped set's entries are (``Puzzle.as_json()``: the
position as a one-deal record prefix, no player's name or id in it), keyed by its position's
id (``taash.puzzles.mine.position_id``), so a position found twice is kept once.

``MinedPuzzles.add`` keeps new ones, ``of_game`` reads a game's back (the puzzle pages read
them there); the miner's queue is ``store/mining_queue.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.server.store.db import Store
from taash.server.store.mining_schema import mined_puzzles

TRIES = 3  # another instance adding one of the same ids at once: read the ids again


@dataclass(frozen=True)
class Mined:
    """A puzzle found at a table: ``puzzle`` as ``Puzzle.as_json()`` gives it (its ``id`` and
    ``game`` among its fields), the table it was found at, and when."""

    puzzle: Mapping[str, object]
    table_id: str
    created: float

    @property
    def id(self) -> str:
        return str(self.puzzle["id"])

    @property
    def game(self) -> str:
        return str(self.puzzle["game"])


async def insert_new(conn: AsyncConnection, puzzles: Iterable[Mined]) -> int:
    """Insert the puzzles whose ids are not kept yet (each id once): how many."""
    rows = list({p.id: p for p in puzzles}.values())
    if not rows:
        return 0
    have = set((await conn.execute(select(mined_puzzles.c.id).where(
        mined_puzzles.c.id.in_([p.id for p in rows])))).scalars())
    new = [p for p in rows if p.id not in have]
    if new:
        await conn.execute(mined_puzzles.insert(), [
            {"id": p.id, "game": p.game, "puzzle": json.dumps(p.puzzle, separators=(",", ":")),
             "table_id": p.table_id, "created": p.created} for p in new])
    return len(new)


class MinedPuzzles:
    """The mined puzzles in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def add(self, puzzles: Sequence[Mined]) -> int:
        """Keep the puzzles not kept yet (an id kept already is skipped): how many were new."""
        for attempt in range(TRIES):
            try:
                async with self.store._writing(), self.store.engine.begin() as conn:
                    return await insert_new(conn, puzzles)
            except IntegrityError:  # the same id added meanwhile: its row is there now
                if attempt + 1 == TRIES:
                    raise
        return 0  # not reached

    async def of_game(self, game: str) -> list[dict[str, object]]:
        """A game's mined puzzles, each as the shipped set's entries are, the earliest found
        first."""
        q = (select(mined_puzzles.c.puzzle).where(mined_puzzles.c.game == game)
             .order_by(mined_puzzles.c.created, mined_puzzles.c.id))
        async with self.store.engine.connect() as conn:
            return [json.loads(text) for text in (await conn.execute(q)).scalars()]

    async def counts(self) -> dict[str, int]:
        """How many puzzles are kept per game."""
        q = (select(mined_puzzles.c.game, func.count()).group_by(mined_puzzles.c.game)
             .order_by(mined_puzzles.c.game))
        async with self.store.engine.connect() as conn:
            return {str(g): int(n) for g, n in await conn.execute(q)}

    async def source(self, puzzle_id: str) -> str | None:
        """The table a puzzle was found at (for the host; never shown with the puzzle)."""
        async with self.store.engine.connect() as conn:
            return (await conn.execute(select(mined_puzzles.c.table_id).where(
                mined_puzzles.c.id == puzzle_id))).scalar()
