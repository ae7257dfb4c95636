"""The store's queries about players: their sessions, the tables they sit at, and the codes
that link another device.  ``Store`` inherits them; they share its engine and its one writer
at a time (SQLite)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from taash.server.store.rows import PlayerRow, SessionRow
from taash.server.store.schema import (
    api_tokens,
    game_tables,
    link_codes,
    players,
    seats,
    sessions,
)


@dataclass(frozen=True)
class PasskeyRow:
    """A WebAuthn credential of a player's: id and COSE public key in base64url."""

    credential_id: str
    player_id: str
    public_key: str
    sign_count: int
    transports: str | None
    name: str | None
    created: float
    last_used: float | None


async def insert_session(conn: AsyncConnection, s: SessionRow, secret_hash: str) -> None:
    await conn.execute(sessions.insert().values(
        id=s.id, secret_hash=secret_hash, player_id=s.player_id, created=s.created,
        last_seen=s.last_seen, expires=s.expires, revoked=None, user_agent=s.user_agent,
        guest_id=s.guest_id))


async def merge_seats(conn: AsyncConnection, guest_id: str,
                       player_id: str) -> tuple[list[str], list[str]]:
    """Move the guest's seats to the player, save at tables where the player sits too (a
    player holds one seat at a table): the tables merged, and those refused."""
    rows = await conn.execute(select(seats.c.table_id, seats.c.player_id).where(
        seats.c.player_id.in_([guest_id, player_id])))
    theirs: dict[str, set[str]] = {}
    for r in rows:
        theirs.setdefault(str(r.table_id), set()).add(str(r.player_id))
    merged = sorted(t for t, who in theirs.items() if who == {guest_id})
    refused = sorted(t for t, who in theirs.items() if who == {guest_id, player_id})
    if merged:
        await conn.execute(update(seats).where(and_(
            seats.c.player_id == guest_id, seats.c.table_id.in_(merged)))
            .values(player_id=player_id))
    return merged, refused


class PlayerQueries:
    """Players, sessions and link codes (a mixin of ``Store``)."""

    engine: AsyncEngine

    def _writing(self) -> AbstractAsyncContextManager[None]:
        raise NotImplementedError  # the Store's: one writer at a time on SQLite

    async def player_tables(self, player_id: str) -> list[dict[str, object]]:
        """Every seat of this player's, with its table and who sits at it, the last changed
        first."""
        return await self.seats_with_tables(seats.c.player_id == player_id)

    async def seats_with_tables(self, where: ColumnElement[bool]) -> list[dict[str, object]]:
        """The seats ``where`` chooses, each with its table's row and, in ``table_seats``,
        every seat of that table as anyone sees it (seat, type, name, level), in one query
        (the table's seats joined a second time); the last changed table first."""
        everyone = seats.alias("everyone")
        query = (select(seats.c.seat, seats.c.token_hash, game_tables,
                        everyone.c.seat.label("o_seat"), everyone.c.type.label("o_type"),
                        everyone.c.name.label("o_name"), everyone.c.level.label("o_level"))
                 .join(game_tables, game_tables.c.id == seats.c.table_id)
                 .join(everyone, everyone.c.table_id == seats.c.table_id)
                 .where(where)
                 .order_by(game_tables.c.updated.desc(), game_tables.c.id, seats.c.seat,
                           everyone.c.seat))
        out: dict[tuple[str, int], dict[str, object]] = {}
        async with self.engine.connect() as conn:
            for r in await conn.execute(query):
                row = dict(r._mapping)
                sat = [{"seat": row.pop("o_seat"), "type": row.pop("o_type"),
                        "name": row.pop("o_name"), "level": row.pop("o_level")}]
                key = (r.id, r.seat)
                if key in out:
                    seated = out[key]["table_seats"]
                    assert isinstance(seated, list)
                    seated.extend(sat)
                else:
                    row["table_seats"] = sat
                    out[key] = row
        return list(out.values())

    # -- players and their sessions -----------------------------------------------------------
    async def create_player(self, p: PlayerRow, s: SessionRow, secret_hash: str) -> None:
        """A new player with their first session, in one commit."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(players.insert().values(
                id=p.id, name=p.name, language=p.language, created=p.created, deleted=None))
            await insert_session(conn, s, secret_hash)

    async def session_of(self, secret_hash: str,
                         now: float) -> tuple[SessionRow, PlayerRow] | None:
        """The live session with this secret (not revoked, not expired, its player not
        deleted) and its player."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(
                select(sessions.c.id, sessions.c.player_id, sessions.c.created,
                       sessions.c.last_seen, sessions.c.expires, sessions.c.user_agent,
                       sessions.c.guest_id, players.c.name, players.c.language,
                       players.c.email, players.c.created.label("pcreated"),
                       players.c.puzzle_consent)
                .join(players, players.c.id == sessions.c.player_id)
                .where(and_(sessions.c.secret_hash == secret_hash,
                            sessions.c.revoked.is_(None), sessions.c.expires > now,
                            players.c.deleted.is_(None))))).first()
        if r is None:
            return None
        return (SessionRow(r.id, r.player_id, r.created, r.last_seen, r.expires, r.user_agent,
                           r.guest_id),
                PlayerRow(r.player_id, r.name, r.language, r.pcreated, r.email,
                          bool(r.puzzle_consent)))

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

    async def still_live(self, session_ids: list[str], token_ids: list[str],
                         now: float) -> set[str]:
        """Of these sessions and API tokens, the ids neither revoked nor gone (nor, for a
        session, expired)."""
        live: set[str] = set()
        async with self.engine.connect() as conn:
            if session_ids:
                live.update((await conn.execute(select(sessions.c.id).where(and_(
                    sessions.c.id.in_(session_ids), sessions.c.revoked.is_(None),
                    sessions.c.expires >= now))))
                    .scalars())
            if token_ids:
                live.update((await conn.execute(select(api_tokens.c.id).where(and_(
                    api_tokens.c.id.in_(token_ids), api_tokens.c.revoked.is_(None)))))
                    .scalars())
        return live

    async def unfinished_deletions(self, limit: int = 100) -> list[str]:
        """Deleted players whose other rows are not all removed yet (``forgotten`` unset)."""
        async with self.engine.connect() as conn:
            return list((await conn.execute(
                select(players.c.id).where(and_(players.c.deleted.is_not(None),
                                                players.c.forgotten.is_(None)))
                .order_by(players.c.deleted).limit(limit))).scalars())

    async def mark_forgotten(self, player_id: str, now: float) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(forgotten=now))

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
                          new: SessionRow, secret_hash: str,
                          merge_from: str | None) -> list[str] | None:
        """In one commit: spend the code (None, nothing done, if it was spent meanwhile), end
        the device's old session, give it a new one of the code's player and, with
        ``merge_from``, move that guest's seats to the player, save at tables where the player
        sits too: those tables' ids."""
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(update(link_codes).where(and_(
                link_codes.c.code_hash == code_hash, link_codes.c.player_id == player_id,
                link_codes.c.used.is_(None), link_codes.c.expires > now)).values(used=now))
            if res.rowcount != 1:
                return None
            await conn.execute(update(sessions).where(and_(
                sessions.c.id == old_session, sessions.c.revoked.is_(None))).values(revoked=now))
            await insert_session(conn, new, secret_hash)
            if merge_from is not None:
                return (await merge_seats(conn, merge_from, player_id))[1]
            return []

    async def drop_link_codes(self, before: float) -> int:
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(link_codes.delete().where(link_codes.c.expires < before))
            return int(res.rowcount or 0)

    async def update_player(self, player_id: str, **values: str | bool) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id).values(**values))

    async def player(self, player_id: str) -> PlayerRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(players).where(and_(
                players.c.id == player_id, players.c.deleted.is_(None))))).first()
            return None if r is None else PlayerRow(r.id, r.name, r.language, r.created,
                                                    r.email, bool(r.puzzle_consent))
