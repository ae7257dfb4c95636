"""The store's queries for clubs (migration 0018; docs/clubs.md): clubs, their members and
roles, players invited by name, and the tables and events made for a club.

A member's row is keyed by (club, player): joining twice finds the row made the first time.
Handing the club over changes both members' roles and the club's owner in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, desc, func, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.club_schema import (
    club_events,
    club_invites,
    club_members,
    club_tables,
    clubs,
)
from taash.server.store.db import Store
from taash.server.store.schema import (
    game_tables,
    match_results,
    players,
    ratings,
    seats,
)


@dataclass
class ClubRow:
    id: str
    name: str
    public: bool
    invite: str
    owner: str
    created: float
    closed: float | None


@dataclass
class MemberRow:
    player_id: str
    name: str
    role: str
    joined: float


@dataclass
class ClubTableRow:
    id: str
    game: str
    live: bool
    over: bool
    created: float
    free: int  # human seats nobody holds yet
    seated: list[tuple[int, str | None, str | None]]  # (seat, name, player) of the humans
    results: dict[str, int]  # player -> 1 won, 0 drawn, -1 lost, once written


def _club(r: object) -> ClubRow:
    m = r._mapping  # type: ignore[attr-defined]
    return ClubRow(m["id"], m["name"], bool(m["public"]), m["invite"], m["owner"],
                   float(m["created"]), m["closed"])


def name_key(name: str) -> str:
    return name.casefold()[:64]


class ClubStore:
    """Clubs and their members, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, c: ClubRow) -> bool:
        """Keep a new club, its owner its first member; False if the id is taken."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(clubs.insert().values(
                    id=c.id, name=c.name, name_key=name_key(c.name), public=c.public,
                    invite=c.invite, owner=c.owner, created=c.created, closed=None))
                await conn.execute(club_members.insert().values(
                    club_id=c.id, player_id=c.owner, role="owner", joined=c.created))
        except IntegrityError:
            return False
        return True

    async def get(self, club_id: str) -> ClubRow | None:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(clubs).where(clubs.c.id == club_id))).first()
        return _club(r) if r is not None else None

    async def public(self, query: str, limit: int) -> list[tuple[ClubRow, int]]:
        """Open public clubs whose name holds ``query`` (any case), with their member counts,
        the most members first."""
        n = func.count(club_members.c.player_id).label("n")
        q = (select(clubs, n).join(club_members, club_members.c.club_id == clubs.c.id)
             .where(and_(clubs.c.public.is_(True), clubs.c.closed.is_(None))))
        if query:
            pattern = "%" + name_key(query).replace("\\", "\\\\").replace("%", "\\%") \
                .replace("_", "\\_") + "%"
            q = q.where(clubs.c.name_key.like(pattern, escape="\\"))
        q = q.group_by(*clubs.c).order_by(desc(n), clubs.c.name_key).limit(limit)
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [(_club(r), int(r.n)) for r in rows]

    async def of_player(self, player_id: str) -> list[tuple[ClubRow, str]]:
        """The open clubs a player belongs to, with their role."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(clubs, club_members.c.role)
                .join(club_members, club_members.c.club_id == clubs.c.id)
                .where(and_(club_members.c.player_id == player_id, clubs.c.closed.is_(None)))
                .order_by(clubs.c.name_key))).all()
        return [(_club(r), str(r.role)) for r in rows]

    async def invited_to(self, player_id: str) -> list[ClubRow]:
        """The open clubs that invited a player by name."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(clubs).join(club_invites, club_invites.c.club_id == clubs.c.id)
                .where(and_(club_invites.c.player_id == player_id, clubs.c.closed.is_(None)))
                .order_by(clubs.c.name_key))).all()
        return [_club(r) for r in rows]

    async def counts(self, club_ids: Sequence[str]) -> dict[str, int]:
        """How many members each of these clubs has."""
        if not club_ids:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(club_members.c.club_id, func.count())
                .where(club_members.c.club_id.in_(list(club_ids)))
                .group_by(club_members.c.club_id))).all()
        return {str(r[0]): int(r[1]) for r in rows}

    async def role(self, club_id: str, player_id: str) -> str | None:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(club_members.c.role).where(and_(
                club_members.c.club_id == club_id,
                club_members.c.player_id == player_id)))).first()
        return str(r[0]) if r is not None else None

    async def members(self, club_id: str) -> list[MemberRow]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(club_members, players.c.name)
                .join(players, players.c.id == club_members.c.player_id)
                .where(club_members.c.club_id == club_id)
                .order_by(club_members.c.joined, club_members.c.player_id))).all()
        return [MemberRow(r.player_id, r.name, r.role, float(r.joined)) for r in rows]

    async def add_member(self, club_id: str, player_id: str, now: float) -> bool:
        """A new member (their invitation by name spent); False if they were one already."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(club_members.insert().values(
                    club_id=club_id, player_id=player_id, role="member", joined=now))
                await conn.execute(delete(club_invites).where(and_(
                    club_invites.c.club_id == club_id, club_invites.c.player_id == player_id)))
        except IntegrityError:
            return False
        return True

    async def remove_member(self, club_id: str, player_id: str) -> bool:
        """The member gone (never the owner); False if they were not one."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(delete(club_members).where(and_(
                club_members.c.club_id == club_id, club_members.c.player_id == player_id,
                club_members.c.role != "owner")))
        return bool(res.rowcount)

    async def set_role(self, club_id: str, player_id: str, role: str) -> bool:
        """An admin made a member or a member an admin (never the owner's row)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(club_members).where(and_(
                club_members.c.club_id == club_id, club_members.c.player_id == player_id,
                club_members.c.role != "owner")).values(role=role))
        return bool(res.rowcount)

    async def hand_over(self, club_id: str, owner: str, to: str) -> bool:
        """``to`` (a member) becomes the owner, ``owner`` an admin; False, nothing changed,
        if ``owner`` is no longer the owner or ``to`` no longer a member."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            member = (await conn.execute(select(club_members.c.role).where(and_(
                club_members.c.club_id == club_id, club_members.c.player_id == to)))).first()
            if member is None:
                return False
            res = await conn.execute(update(clubs).where(and_(
                clubs.c.id == club_id, clubs.c.owner == owner, clubs.c.closed.is_(None)))
                .values(owner=to))
            if res.rowcount != 1:
                return False
            for player, role in ((to, "owner"), (owner, "admin")):
                await conn.execute(update(club_members).where(and_(
                    club_members.c.club_id == club_id, club_members.c.player_id == player))
                    .values(role=role))
        return True

    async def close(self, club_id: str, now: float) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(clubs).where(and_(
                clubs.c.id == club_id, clubs.c.closed.is_(None))).values(closed=now))
            await conn.execute(delete(club_invites).where(club_invites.c.club_id == club_id))

    async def set_invite(self, club_id: str, token: str) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(invite=token))

    async def invite(self, club_id: str, player_id: str, by: str, now: float) -> None:
        """Invite a player by name (again: nothing new)."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(club_invites.insert().values(
                    club_id=club_id, player_id=player_id, by=by, created=now))
        except IntegrityError:
            pass

    async def invited(self, club_id: str, player_id: str) -> bool:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(club_invites.c.created).where(and_(
                club_invites.c.club_id == club_id,
                club_invites.c.player_id == player_id)))).first()
        return r is not None

    async def players_named(self, name: str, limit: int = 2) -> list[str]:
        """The players (not deleted) of exactly this name, any case."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(players.c.id).where(and_(
                func.lower(players.c.name) == name.lower(), players.c.deleted.is_(None)))
                .limit(limit))).all()
        return [str(r[0]) for r in rows]

    async def add_table(self, club_id: str, table_id: str, now: float) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(club_tables.insert().values(
                table_id=table_id, club_id=club_id, created=now))

    async def is_club_table(self, club_id: str, table_id: str) -> bool:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(club_tables.c.created).where(and_(
                club_tables.c.club_id == club_id, club_tables.c.table_id == table_id)))).first()
        return r is not None

    async def seat_of(self, table_id: str, player_id: str) -> int | None:
        """The player's seat at a table, if they hold one."""
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(seats.c.seat).where(and_(
                seats.c.table_id == table_id, seats.c.player_id == player_id))
                .order_by(seats.c.seat))).first()
        return int(r[0]) if r is not None else None

    async def tables(self, club_id: str, limit: int) -> list[ClubTableRow]:
        """The club's latest tables: their seats and, once written, their results."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(game_tables.c.id, game_tables.c.game, game_tables.c.live,
                       game_tables.c.over, game_tables.c.created)
                .join(club_tables, club_tables.c.table_id == game_tables.c.id)
                .where(club_tables.c.club_id == club_id)
                .order_by(desc(club_tables.c.created)).limit(limit))).all()
            ids = [r.id for r in rows]
            seat_rows = (await conn.execute(
                select(seats.c.table_id, seats.c.seat, seats.c.name, seats.c.player_id,
                       seats.c.claimed)
                .where(and_(seats.c.table_id.in_(ids), seats.c.type == "human"))
                .order_by(seats.c.table_id, seats.c.seat))).all() if ids else []
            result_rows = (await conn.execute(
                select(match_results.c.table_id, match_results.c.player_id,
                       match_results.c.result)
                .where(match_results.c.table_id.in_(ids)))).all() if ids else []
        out = {r.id: ClubTableRow(r.id, r.game, bool(r.live), bool(r.over), float(r.created),
                                  0, [], {}) for r in rows}
        for s in seat_rows:
            t = out[s.table_id]
            if s.player_id is None and not s.claimed:
                t.free += 1
            else:
                t.seated.append((int(s.seat), s.name, s.player_id))
        for m in result_rows:
            out[m.table_id].results[m.player_id] = int(m.result)
        return list(out.values())

    async def add_event(self, club_id: str, event_id: str, now: float) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(club_events.insert().values(
                event_id=event_id, club_id=club_id, created=now))

    async def events(self, club_id: str, limit: int) -> list[str]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(club_events.c.event_id).where(club_events.c.club_id == club_id)
                .order_by(desc(club_events.c.created)).limit(limit))).all()
        return [str(r[0]) for r in rows]

    async def club_of_events(self, event_ids: Sequence[str]) -> dict[str, str]:
        """The club of each of these events that was made for one."""
        if not event_ids:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(club_events.c.event_id, club_events.c.club_id)
                .where(club_events.c.event_id.in_(list(event_ids))))).all()
        return {str(r[0]): str(r[1]) for r in rows}

    async def ratings(self, club_id: str) -> list[tuple[str, str, float, float, int]]:
        """(player, game, mu, sigma, matches) of every member's rating."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(ratings.c.player_id, ratings.c.game, ratings.c.mu, ratings.c.sigma,
                       ratings.c.matches)
                .join(club_members, club_members.c.player_id == ratings.c.player_id)
                .where(club_members.c.club_id == club_id)
                .order_by(desc(ratings.c.mu)))).all()
        return [(str(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4])) for r in rows]
