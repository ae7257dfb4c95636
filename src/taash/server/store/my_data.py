"""The store's queries for a player's own data kept by the newer features (``GET
/api/me/export`` and ``DELETE /api/me``, accounts/me_data.py, docs/API.md): puzzles, clubs,
tournaments, duplicate events and the fair-play notices shown to them.

Reading gathers each kind as plain rows of the player's (the route shapes them).  Forgetting is
one commit:

- puzzles: the player's ratings, attempts, streak and their consent to being mined go (the
  puzzles' own ratings, which their attempts moved, stay: they are the puzzles');
- clubs: their memberships and the invites to them go; a club they own passes to its
  longest-standing admin, else its longest-standing member (as if handed over), and a club
  with nobody left is closed (the clubs' code lets no owner leave, docs/clubs.md);
- tournaments: an entry in one not yet started is withdrawn (a partner left alone stays
  registered alone); in one started, finished or cancelled the entry stays, named "deleted
  player" (the standings keep their history);
- duplicate events: an entry in an event still open or not yet open goes with its boards; a
  closed event's entry and scores stay (names are read from the players row: "deleted
  player");
- fair play: the notices shown to them and any role on the account go; the cases, bans,
  lifts and scans about them stay: they are the anti-abuse record, not the player's content;
- a passkey ceremony they began (its challenge) goes.

A running tournament's later rounds seat an easy bot for a deleted entrant
(tournaments/play.py), as its tables did.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.server.store.club_schema import club_invites, club_members, clubs
from taash.server.store.db import Store
from taash.server.store.fairplay_schema import fairplay_notices, player_roles
from taash.server.store.puzzle_schema import puzzle_attempts, puzzle_players, puzzle_streaks
from taash.server.store.schema import (
    event_boards,
    event_entries,
    events,
    players,
    webauthn_challenges,
)
from taash.server.store.tournament_schema import tournament_entrants, tournaments


@dataclass(frozen=True)
class ClubKept:
    id: str
    name: str
    role: str | None  # None: invited, not (yet) a member
    joined: float  # joined, or invited


@dataclass(frozen=True)
class EntryKept:
    """An entry in a tournament: the tournament's and the entry's (seed, partner, name)."""

    id: str
    name: str
    game: str
    kind: str
    state: str
    starts: float
    seed: int
    partner: str | None  # the other player of the pair (theirs, when the player is partner)
    entry_name: str
    registered: float


@dataclass(frozen=True)
class BoardKept:
    board: int
    actions: str
    done: bool
    score: int | None
    finished: float | None


@dataclass(frozen=True)
class EventKept:
    id: str
    game: str
    daily: bool
    opens: float
    closes: float
    closed: float | None
    entered: float
    boards: list[BoardKept]


@dataclass(frozen=True)
class Kept:
    """The player's rows of these features; puzzles as the tables' rows (mappings)."""

    consent: bool
    puzzle_players: list[dict[str, object]]
    puzzle_attempts: list[dict[str, object]]
    puzzle_streak: dict[str, object] | None
    clubs: list[ClubKept]
    tournaments: list[EntryKept]
    events: list[EventKept]
    notices: list[tuple[str, str, float, float | None]]  # id, kind, created, seen


class MyData:
    """A player's rows of puzzles, clubs, tournaments, events and fair-play notices."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def kept(self, player_id: str) -> Kept:
        async with self.store.engine.connect() as conn:
            consent = (await conn.execute(select(players.c.puzzle_consent).where(
                players.c.id == player_id))).scalar()
            pp = [dict(r) for r in (await conn.execute(select(puzzle_players).where(
                puzzle_players.c.player_id == player_id)
                .order_by(puzzle_players.c.game))).mappings()]
            pa = [dict(r) for r in (await conn.execute(select(puzzle_attempts).where(
                puzzle_attempts.c.player_id == player_id)
                .order_by(puzzle_attempts.c.at, puzzle_attempts.c.puzzle_id))).mappings()]
            st = (await conn.execute(select(puzzle_streaks).where(
                puzzle_streaks.c.player_id == player_id))).mappings().first()
            return Kept(bool(consent), pp, pa, dict(st) if st is not None else None,
                        await self._clubs(conn, player_id),
                        await self._tournaments(conn, player_id),
                        await self._events(conn, player_id),
                        [(str(r.id), str(r.kind), float(r.created),
                          float(r.seen) if r.seen is not None else None)
                         for r in await conn.execute(select(fairplay_notices).where(
                             fairplay_notices.c.player_id == player_id)
                             .order_by(fairplay_notices.c.created))])

    @staticmethod
    async def _clubs(conn: AsyncConnection, player_id: str) -> list[ClubKept]:
        m, i, c = club_members.c, club_invites.c, clubs.c
        got = [ClubKept(str(r.id), str(r.name), str(r.role), float(r.joined))
               for r in await conn.execute(
                   select(c.id, c.name, m.role, m.joined).join(clubs, c.id == m.club_id)
                   .where(m.player_id == player_id).order_by(m.joined))]
        got += [ClubKept(str(r.id), str(r.name), None, float(r.created))
                for r in await conn.execute(
                    select(c.id, c.name, i.created).join(clubs, c.id == i.club_id)
                    .where(i.player_id == player_id).order_by(i.created))]
        return got

    @staticmethod
    async def _tournaments(conn: AsyncConnection, player_id: str) -> list[EntryKept]:
        e, t = tournament_entrants.c, tournaments.c
        rows = await conn.execute(
            select(t.id, t.name, t.game, t.kind, t.state, t.starts, e.seed, e.player_id,
                   e.partner_id, e.name.label("entry_name"), e.registered)
            .join(tournaments, t.id == e.tournament_id)
            .where(or_(e.player_id == player_id, e.partner_id == player_id))
            .order_by(t.starts))
        return [EntryKept(str(r.id), str(r.name), str(r.game), str(r.kind), str(r.state),
                          float(r.starts), int(r.seed),
                          r.partner_id if r.player_id == player_id else r.player_id,
                          str(r.entry_name), float(r.registered)) for r in rows]

    @staticmethod
    async def _events(conn: AsyncConnection, player_id: str) -> list[EventKept]:
        x, v, b = event_entries.c, events.c, event_boards.c
        boards: dict[str, list[BoardKept]] = {}
        for r in await conn.execute(select(event_boards).where(b.player_id == player_id)
                                    .order_by(b.event_id, b.board)):
            boards.setdefault(str(r.event_id), []).append(BoardKept(
                int(r.board), str(r.actions), bool(r.done),
                int(r.score) if r.score is not None else None,
                float(r.finished) if r.finished is not None else None))
        return [EventKept(str(r.id), str(r.game), bool(r.daily), float(r.opens),
                          float(r.closes), float(r.closed) if r.closed is not None else None,
                          float(r.entered), boards.get(str(r.id), []))
                for r in await conn.execute(
                    select(v.id, v.game, v.daily, v.opens, v.closes, v.closed, x.entered)
                    .join(events, v.id == x.event_id).where(x.player_id == player_id)
                    .order_by(x.entered))]

    # -- forgetting ------------------------------------------------------------------------
    async def forget(self, player_id: str, now: float, name: str) -> None:
        """A deleted account's rows of these features, in one commit (the module's list);
        ``name``: what a kept entry is called now."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            for table in (puzzle_players, puzzle_attempts, puzzle_streaks, fairplay_notices,
                          player_roles, club_invites, webauthn_challenges):
                await conn.execute(delete(table).where(table.c.player_id == player_id))
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(puzzle_consent=False))
            await _leave_clubs(conn, player_id, now)
            await _leave_tournaments(conn, player_id, name)
            v = events.c
            still = select(v.id).where(and_(v.closed.is_(None), v.closes > now))
            for table in (event_boards, event_entries):
                await conn.execute(delete(table).where(and_(
                    table.c.player_id == player_id, table.c.event_id.in_(still))))


async def _leave_clubs(conn: AsyncConnection, player_id: str, now: float) -> None:
    m = club_members.c
    owned = [str(r.id) for r in await conn.execute(
        select(clubs.c.id).join(club_members, m.club_id == clubs.c.id)
        .where(and_(m.player_id == player_id, m.role == "owner")))]
    await conn.execute(delete(club_members).where(m.player_id == player_id))
    rank = {"admin": 0, "member": 1}
    for club_id in owned:
        rest = sorted((rank.get(str(r.role), 2), float(r.joined), str(r.player_id))
                       for r in await conn.execute(select(m.player_id, m.role, m.joined)
                                                   .where(m.club_id == club_id)))
        if rest:  # handed over, as the owner would have (clubs/service.py set_role)
            heir = rest[0][2]
            await conn.execute(update(club_members).where(and_(
                m.club_id == club_id, m.player_id == heir)).values(role="owner"))
            await conn.execute(update(clubs).where(clubs.c.id == club_id).values(owner=heir))
        else:  # nobody left: closed, as its owner may close it (clubs/service.py close)
            await conn.execute(update(clubs).where(and_(
                clubs.c.id == club_id, clubs.c.closed.is_(None))).values(closed=now))


async def _leave_tournaments(conn: AsyncConnection, player_id: str, name: str) -> None:
    e, t = tournament_entrants.c, tournaments.c
    rows = (await conn.execute(
        select(e.tournament_id, e.seed, e.player_id, e.partner_id, t.state)
        .join(tournaments, t.id == e.tournament_id)
        .where(or_(e.player_id == player_id, e.partner_id == player_id)))).all()
    others = {str(r.partner_id if r.player_id == player_id else r.player_id)
              for r in rows if r.partner_id is not None}
    names = {str(r.id): str(r.name) for r in await conn.execute(
        select(players.c.id, players.c.name).where(players.c.id.in_(sorted(others))))}
    for r in rows:
        this = and_(e.tournament_id == r.tournament_id, e.seed == r.seed)
        other = r.partner_id if r.player_id == player_id else r.player_id
        if r.state != "scheduled":  # its results stay, under the deleted player's name
            entry = (name if other is None else f"{name} & {names.get(str(other), '?')}"
                     if r.player_id == player_id else f"{names.get(str(other), '?')} & {name}")
            await conn.execute(update(tournament_entrants).where(this)
                               .values(name=entry[:140]))
        elif other is None:  # withdrawn before the start, as unregister does
            await conn.execute(delete(tournament_entrants).where(this))
        else:  # the partner stays registered, alone (the start pairs them)
            await conn.execute(update(tournament_entrants).where(this).values(
                player_id=other, partner_id=None, name=names.get(str(other), "?")[:140]))
