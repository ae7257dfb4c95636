"""The store's queries about players: their sessions, the tables they sit at, and the codes
that link another device.  ``Store`` inherits them; they share its engine and its one writer
at a time (SQLite)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from sqlalchemy import and_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from taash.games.base import Json
from taash.server.schema import (
    PlayerRow,
    SessionRow,
    game_tables,
    link_codes,
    players,
    seats,
    sessions,
)


class PlayerQueries:
    """Players, sessions and link codes (a mixin of ``Store``)."""

    engine: AsyncEngine

    def _writing(self) -> AbstractAsyncContextManager[None]:
        raise NotImplementedError  # the Store's: one writer at a time on SQLite

    async def player_tables(self, player_id: str) -> list[dict[str, Json]]:
        """Every seat of this player's, with its table, the last changed first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(seats.c.seat, game_tables)
                .join(game_tables, game_tables.c.id == seats.c.table_id)
                .where(seats.c.player_id == player_id)
                .order_by(game_tables.c.updated.desc()))
            return [dict(r._mapping) for r in rows]

    # -- players and their sessions -----------------------------------------------------------
    async def create_player(self, p: PlayerRow, s: SessionRow, secret_hash: str) -> None:
        """A new player with their first session, in one commit."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(players.insert().values(
                id=p.id, name=p.name, language=p.language, created=p.created, deleted=None))
            await self._insert_session(conn, s, secret_hash)

    @staticmethod
    async def _insert_session(conn: AsyncConnection, s: SessionRow, secret_hash: str) -> None:
        await conn.execute(sessions.insert().values(
            id=s.id, secret_hash=secret_hash, player_id=s.player_id, created=s.created,
            last_seen=s.last_seen, expires=s.expires, revoked=None, user_agent=s.user_agent))

    async def session_of(self, secret_hash: str,
                         now: float) -> tuple[SessionRow, PlayerRow] | None:
        """The live session with this secret (not revoked, not expired, its player not
        deleted) and its player."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(
                select(sessions.c.id, sessions.c.player_id, sessions.c.created,
                       sessions.c.last_seen, sessions.c.expires, sessions.c.user_agent,
                       players.c.name, players.c.language, players.c.created.label("pcreated"))
                .join(players, players.c.id == sessions.c.player_id)
                .where(and_(sessions.c.secret_hash == secret_hash,
                            sessions.c.revoked.is_(None), sessions.c.expires > now,
                            players.c.deleted.is_(None))))).first()
        if r is None:
            return None
        return (SessionRow(r.id, r.player_id, r.created, r.last_seen, r.expires, r.user_agent),
                PlayerRow(r.player_id, r.name, r.language, r.pcreated))

    async def touch_session(self, session_id: str, now: float, expires: float) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(sessions).where(sessions.c.id == session_id)
                               .values(last_seen=now, expires=expires))

    async def sessions_of(self, player_id: str, now: float) -> list[SessionRow]:
        """The player's live sessions, the last seen first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(sessions).where(and_(sessions.c.player_id == player_id,
                                            sessions.c.revoked.is_(None),
                                            sessions.c.expires > now))
                .order_by(sessions.c.last_seen.desc()))
            return [SessionRow(r.id, r.player_id, r.created, r.last_seen, r.expires,
                               r.user_agent) for r in rows]

    async def revoke_session(self, player_id: str, session_id: str, now: float) -> bool:
        """End one of the player's sessions; False if they have no such live session."""
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(
                update(sessions).where(and_(sessions.c.id == session_id,
                                            sessions.c.player_id == player_id,
                                            sessions.c.revoked.is_(None)))
                .values(revoked=now))
            return bool(res.rowcount == 1)

    async def drop_sessions(self, now: float, revoked_before: float) -> int:
        """Forget sessions that expired, or were revoked before ``revoked_before``."""
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(sessions.delete().where(
                (sessions.c.expires < now) | (sessions.c.revoked < revoked_before)))
            return int(res.rowcount or 0)

    async def rename_seats(self, player_id: str, name: str) -> list[str]:
        """Give the player's seats at unfinished tables their new name; those tables' ids."""
        async with self._writing(), self.engine.begin() as conn:
            rows = await conn.execute(
                select(seats.c.table_id)
                .join(game_tables, game_tables.c.id == seats.c.table_id)
                .where(and_(seats.c.player_id == player_id, game_tables.c.over.is_(False))))
            ids = sorted({str(r.table_id) for r in rows})
            if ids:
                await conn.execute(update(seats).where(and_(
                    seats.c.player_id == player_id, seats.c.table_id.in_(ids))).values(name=name))
            return ids

    # -- codes that link another device --------------------------------------------------------
    async def create_link_code(self, code_hash: str, player_id: str, now: float,
                               expires: float) -> None:
        """A new link code for the player; their earlier unused ones work no more."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(link_codes).where(and_(
                link_codes.c.player_id == player_id, link_codes.c.used.is_(None))).values(used=now))
            await conn.execute(link_codes.insert().values(
                code_hash=code_hash, player_id=player_id, created=now, expires=expires,
                used=None))

    async def link_code_player(self, code_hash: str, now: float) -> str | None:
        """The player of a live link code (not used, not expired; the player not deleted)."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(
                select(link_codes.c.player_id)
                .join(players, players.c.id == link_codes.c.player_id)
                .where(and_(link_codes.c.code_hash == code_hash, link_codes.c.used.is_(None),
                            link_codes.c.expires > now, players.c.deleted.is_(None))))).first()
            return None if r is None else str(r.player_id)

    async def link_device(self, code_hash: str, player_id: str, now: float, old_session: str,
                          new: SessionRow, secret_hash: str, merge_from: str | None) -> bool:
        """In one commit: spend the code (False, nothing done, if it was spent meanwhile), end
        the device's old session, give it a new one of the code's player and, with
        ``merge_from``, move that guest's seats to the player."""
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(update(link_codes).where(and_(
                link_codes.c.code_hash == code_hash, link_codes.c.player_id == player_id,
                link_codes.c.used.is_(None), link_codes.c.expires > now)).values(used=now))
            if res.rowcount != 1:
                return False
            await conn.execute(update(sessions).where(and_(
                sessions.c.id == old_session, sessions.c.revoked.is_(None))).values(revoked=now))
            await self._insert_session(conn, new, secret_hash)
            if merge_from is not None:
                await conn.execute(update(seats).where(seats.c.player_id == merge_from)
                                   .values(player_id=player_id))
            return True

    async def drop_link_codes(self, before: float) -> int:
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(link_codes.delete().where(link_codes.c.expires < before))
            return int(res.rowcount or 0)

    async def update_player(self, player_id: str, **values: str) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id).values(**values))
