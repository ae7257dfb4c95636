"""The store's queries about seats: a seat's fields, an invite claimed (its token spent), the
seat of a token, the end of a table's wait for its invited friends, and the lobby's open
tables with their free seats.  ``Store`` inherits them;
they share its engine and its one writer on SQLite."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from sqlalchemy import and_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from taash.server.store.rows import TableRow, table_row_of
from taash.server.store.schema import game_tables, seats


class SeatQueries:
    """Seats, claims and the lobby (a mixin of ``Store``)."""

    engine: AsyncEngine

    def _writing(self) -> AbstractAsyncContextManager[None]:
        raise NotImplementedError  # the Store's: one writer at a time on SQLite

    # LeaseQueries': a write's transaction, under the table's lease (with owners)
    under_lease: Callable[[str], AbstractAsyncContextManager[AsyncConnection]]

    async def start_table(self, table_id: str, now: float) -> bool:
        """End a table's wait for its invited friends (its turn timer counts from ``now``):
        whether it was waiting."""
        async with self.under_lease(table_id) as conn:
            res = await conn.execute(
                update(game_tables)
                .where(and_(game_tables.c.id == table_id, game_tables.c.waiting.is_(True)))
                .values(waiting=False, updated=now))
            return bool(res.rowcount)

    async def update_seat(self, table_id: str, seat: int, *, only_unclaimed: bool = False,
                          **values: str | int | bool | None) -> bool:
        """Change a seat's fields; with ``only_unclaimed``, only a human seat nobody has
        claimed.  True if a row changed."""
        cond = and_(seats.c.table_id == table_id, seats.c.seat == seat)
        if only_unclaimed:
            cond = and_(cond, seats.c.type == "human", seats.c.claimed.is_(False))
        async with self.under_lease(table_id) as conn:
            res = await conn.execute(update(seats).where(cond).values(**values))
            return bool(res.rowcount == 1)

    async def claim_seat(self, table_id: str, seat: int, token_hash: str, new_hash: str,
                         player_id: str, name: str | None) -> bool:
        """Give the human seat whose token is ``token_hash`` to the player, with a new token,
        the old one spent; False if its token is another now or another player has it."""
        async with self.under_lease(table_id) as conn:
            values: dict[str, str | bool] = {"token_hash": new_hash, "spent_hash": token_hash,
                                             "player_id": player_id, "claimed": True}
            if name is not None:
                values["name"] = name
            res = await conn.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat,
                            seats.c.type == "human", seats.c.token_hash == token_hash,
                            seats.c.player_id.is_(None) | (seats.c.player_id == player_id)))
                .values(**values))
            return bool(res.rowcount == 1)

    async def spent_seat(self, token_hash: str) -> tuple[str, int, str | None] | None:
        """The seat claimed with this (spent) invite token: table, seat, its player."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(seats.c.table_id, seats.c.seat, seats.c.player_id)
                                    .where(seats.c.spent_hash == token_hash))).first()
            return None if r is None else (str(r.table_id), int(r.seat), r.player_id)

    async def seat_by_token(self, token_hash: str) -> tuple[str, int] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(seats.c.table_id, seats.c.seat)
                                    .where(seats.c.token_hash == token_hash))).first()
            return None if r is None else (str(r.table_id), int(r.seat))

    async def lobby(self, limit: int = 100) -> list[tuple[TableRow, list[int]]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(game_tables, seats.c.seat)
                .join(seats, seats.c.table_id == game_tables.c.id)
                .where(and_(game_tables.c.open.is_(True), game_tables.c.over.is_(False),
                            seats.c.type == "human", seats.c.claimed.is_(False)))
                .order_by(game_tables.c.created.desc(), seats.c.seat))
            out: dict[str, tuple[TableRow, list[int]]] = {}
            for r in rows:
                if r.id not in out:
                    if len(out) >= limit:
                        break
                    out[r.id] = (table_row_of(r), [])
                out[r.id][1].append(r.seat)
            return list(out.values())
