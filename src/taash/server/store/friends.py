"""The store's queries for friends, blocks and challenges (the tables of migrations 0010 and
0011: a challenge invites one friend or more, each with a seat and an answer of their own).

``friends`` holds one row per direction: ``asked`` (the player asked the friend, who has not
answered), ``friends`` (both confirmed; a row each way) and ``blocked`` (the player blocked the
other, who may still hold a row of their own only if it is a block too).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.server.store.db import Store
from taash.server.store.schema import (
    challenge_invites,
    challenges,
    friend_codes,
    friends,
    game_tables,
    players,
    seats,
    sessions,
)


@dataclass(frozen=True)
class Link:
    """Another player as a row of the friends list sees them."""

    player_id: str
    name: str
    state: str  # friends, asked (by me), asking (me), blocked (by me)
    since: float
    last_seen: float | None


@dataclass(frozen=True)
class Invite:
    """A friend a challenge invites: their seat and answer (open, accepted, declined)."""

    player_id: str
    seat: int
    state: str = "open"


@dataclass(frozen=True)
class ChallengeRow:
    id: str
    from_id: str
    to_id: str  # the invited friend in the lowest seat (the only one of a 0010 challenge)
    game: str
    options: dict[str, object]
    live: bool
    state: str
    created: float
    expires: float
    table_id: str | None
    invites: tuple[Invite, ...] = ()
    bots: str = "easy"

    def invite_of(self, player_id: str) -> Invite | None:
        return next((i for i in self.invites if i.player_id == player_id), None)

    def people(self) -> list[str]:
        return [self.from_id, *(i.player_id for i in self.invites)]


def _challenge(r: object, invites: Sequence[Invite]) -> ChallengeRow:
    m = r._mapping  # type: ignore[attr-defined]
    return ChallengeRow(m["id"], m["from_id"], m["to_id"], m["game"], json.loads(m["options"]),
                        bool(m["live"]), m["state"], m["created"], m["expires"], m["table_id"],
                        tuple(sorted(invites, key=lambda i: i.seat)), m["bots"] or "easy")


async def _state(conn: AsyncConnection, a: str, b: str) -> str | None:
    r = (await conn.execute(select(friends.c.state).where(and_(
        friends.c.player_id == a, friends.c.friend_id == b)))).first()
    return None if r is None else str(r.state)

async def _put(conn: AsyncConnection, a: str, b: str, state: str, now: float,
               exists: bool) -> None:
    if exists:
        await conn.execute(update(friends).where(and_(
            friends.c.player_id == a, friends.c.friend_id == b))
            .values(state=state, since=now))
    else:
        await conn.execute(friends.insert().values(player_id=a, friend_id=b, state=state,
                                                   since=now))

async def _involving(conn: AsyncConnection, player_id: str,
                     open_only: bool) -> set[str]:
    """The ids of the challenges the player sent or is invited to."""
    sent = select(challenges.c.id).where(challenges.c.from_id == player_id)
    got = (select(challenges.c.id)
           .join(challenge_invites, challenge_invites.c.challenge_id == challenges.c.id)
           .where(challenge_invites.c.player_id == player_id))
    if open_only:
        sent = sent.where(challenges.c.state == "open")
        got = got.where(challenges.c.state == "open")
    return {str(r.id) for q in (sent, got) for r in await conn.execute(q)}

async def _rows(conn: AsyncConnection, q: object) -> list[ChallengeRow]:
    rows = list(await conn.execute(q))  # type: ignore[call-overload]
    if not rows:
        return []
    invites: dict[str, list[Invite]] = {}
    for i in await conn.execute(select(challenge_invites).where(
            challenge_invites.c.challenge_id.in_([r.id for r in rows]))):
        invites.setdefault(i.challenge_id, []).append(Invite(i.player_id, i.seat, i.state))
    return [_challenge(r, invites.get(r.id, ())) for r in rows]


class FriendStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def code_of(self, player_id: str, make: str) -> str:
        """The player's friend code (``make`` becomes it if they have none yet)."""
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(friend_codes.c.code)
                                    .where(friend_codes.c.player_id == player_id))).first()
        if r is not None:
            return str(r.code)
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(friend_codes.insert().values(player_id=player_id, code=make))
        except IntegrityError:  # made at the same moment by another request (or a clash)
            return await self.code_of(player_id, make[::-1])
        return make

    async def player_of_code(self, code: str) -> str | None:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(
                select(friend_codes.c.player_id).join(
                    players, players.c.id == friend_codes.c.player_id)
                .where(and_(friend_codes.c.code == code, players.c.deleted.is_(None))))).first()
        return None if r is None else str(r.player_id)

    async def states(self, a: str, b: str) -> tuple[str | None, str | None]:
        """(a's row toward b, b's row toward a)."""
        async with self.store.engine.connect() as conn:
            return await _state(conn, a, b), await _state(conn, b, a)

    async def ask(self, a: str, b: str, now: float) -> str:
        """``a`` asks ``b``: "asked", or "friends" when ``b`` had asked ``a`` (both confirmed
        now), or "blocked" when either has blocked the other (nothing changes)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            mine, theirs = await _state(conn, a, b), await _state(conn, b, a)
            if "blocked" in (mine, theirs):
                return "blocked"
            if mine == "friends":
                return "friends"
            if theirs == "asked":
                await conn.execute(update(friends).where(and_(
                    friends.c.player_id == b, friends.c.friend_id == a))
                    .values(state="friends", since=now))
                await _put(conn, a, b, "friends", now, mine is not None)
                return "friends"
            if mine is None:
                await conn.execute(friends.insert().values(player_id=a, friend_id=b,
                                                           state="asked", since=now))
            return "asked"

    async def remove(self, a: str, b: str) -> None:
        """``a`` ends a friendship, withdraws or declines a request, or lifts a block: every
        row between them goes, except ``b``'s block of ``a``, and so do the open challenges
        between them."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(friends).where(or_(
                and_(friends.c.player_id == a, friends.c.friend_id == b),
                and_(friends.c.player_id == b, friends.c.friend_id == a,
                     friends.c.state != "blocked"))))
            await self._withdraw(conn, a, b)

    async def _withdraw(self, conn: AsyncConnection, a: str, b: str) -> None:
        """The open challenges that would seat ``a`` and ``b`` at one table are withdrawn."""
        both = await _involving(conn, a, True) & await _involving(conn, b, True)
        if both:
            await conn.execute(update(challenges).where(challenges.c.id.in_(both))
                               .values(state="withdrawn"))

    async def block(self, a: str, b: str, now: float) -> None:
        """``a`` blocks ``b``: any friendship or request between them ends."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            mine = await _state(conn, a, b)
            await conn.execute(delete(friends).where(and_(
                friends.c.player_id == b, friends.c.friend_id == a,
                friends.c.state != "blocked")))
            await _put(conn, a, b, "blocked", now, mine is not None)
            await self._withdraw(conn, a, b)

    async def blocked_by_any(self, blockers: Sequence[str], player_id: str) -> bool:
        """Has any of ``blockers`` blocked ``player_id``?"""
        if not blockers:
            return False
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(friends.c.player_id).where(and_(
                friends.c.player_id.in_(list(blockers)), friends.c.friend_id == player_id,
                friends.c.state == "blocked")).limit(1))).first()
        return r is not None

    async def links(self, player_id: str) -> list[Link]:
        """Everyone the player has a row with, or who asked them, with their last session."""
        mine = (select(friends.c.friend_id.label("other"), friends.c.state, friends.c.since)
                .where(friends.c.player_id == player_id))
        asking = (select(friends.c.player_id.label("other"), friends.c.since)
                  .where(and_(friends.c.friend_id == player_id, friends.c.state == "asked")))
        found: list[tuple[str, str, str, float]] = []
        async with self.store.engine.connect() as conn:
            for q, state in ((mine, None), (asking, "asking")):
                sub = q.subquery()
                rows = await conn.execute(
                    select(sub, players.c.name).join(players, players.c.id == sub.c.other)
                    .where(players.c.deleted.is_(None)))
                found += [(r.other, r.name, state or r.state, r.since) for r in rows]
            ids = {f[0] for f in found}
            seen = {r.player_id: r.seen for r in await conn.execute(
                select(sessions.c.player_id, func.max(sessions.c.last_seen).label("seen"))
                .where(sessions.c.player_id.in_(ids)).group_by(sessions.c.player_id))} \
                if ids else {}
        return [Link(p, name, state, since, seen.get(p)) for p, name, state, since in found]

    # -- challenges ------------------------------------------------------------------------
    async def add_challenge(self, c: ChallengeRow) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(challenges.insert().values(
                id=c.id, from_id=c.from_id, to_id=c.to_id, game=c.game,
                options=json.dumps(c.options), live=c.live, state=c.state, created=c.created,
                expires=c.expires, table_id=c.table_id, bots=c.bots))
            await conn.execute(challenge_invites.insert(), [
                {"challenge_id": c.id, "player_id": i.player_id, "seat": i.seat,
                 "state": i.state} for i in c.invites])

    async def challenge(self, challenge_id: str) -> ChallengeRow | None:
        async with self.store.engine.connect() as conn:
            found = await _rows(conn, select(challenges)
                                     .where(challenges.c.id == challenge_id))
        return found[0] if found else None

    async def challenges_of(self, player_id: str, now: float) -> list[ChallengeRow]:
        """The player's open challenges not expired, sent or received, the newest first."""
        invited = select(challenge_invites.c.challenge_id).where(
            challenge_invites.c.player_id == player_id)
        async with self.store.engine.connect() as conn:
            return await _rows(conn, select(challenges).where(and_(
                or_(challenges.c.from_id == player_id, challenges.c.id.in_(invited)),
                challenges.c.state == "open", challenges.c.expires > now))
                .order_by(challenges.c.created.desc()).limit(100))

    async def answered_of(self, player_id: str, since: float) -> list[ChallengeRow]:
        """The challenges the player sent that were accepted or declined and would expire
        after ``since`` (so answered lately), the newest first."""
        async with self.store.engine.connect() as conn:
            return await _rows(conn, select(challenges).where(and_(
                challenges.c.from_id == player_id,
                challenges.c.state.in_(("accepted", "declined")), challenges.c.expires > since))
                .order_by(challenges.c.created.desc()).limit(20))

    async def close_challenge(self, challenge_id: str, state: str, now: float,
                              player_id: str | None = None) -> bool:
        """Move an open, unexpired challenge to ``state`` (declined by the invited
        ``player_id``, withdrawn); False if it was not open."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            done = await conn.execute(update(challenges).where(and_(
                challenges.c.id == challenge_id, challenges.c.state == "open",
                challenges.c.expires > now)).values(state=state))
            if done.rowcount and player_id is not None:
                await conn.execute(update(challenge_invites).where(and_(
                    challenge_invites.c.challenge_id == challenge_id,
                    challenge_invites.c.player_id == player_id)).values(state=state))
        return bool(done.rowcount)

    async def accept_invite(self, challenge_id: str, player_id: str, now: float) -> bool:
        """The invited player accepts an open, unexpired challenge; False if it was not open
        (or they had answered)."""
        live = select(challenges.c.id).where(and_(
            challenges.c.id == challenge_id, challenges.c.state == "open",
            challenges.c.expires > now))
        async with self.store._writing(), self.store.engine.begin() as conn:
            done = await conn.execute(update(challenge_invites).where(and_(
                challenge_invites.c.challenge_id == challenge_id,
                challenge_invites.c.player_id == player_id,
                challenge_invites.c.state == "open",
                challenge_invites.c.challenge_id.in_(live))).values(state="accepted"))
        return bool(done.rowcount)

    async def start_if_ready(self, challenge_id: str) -> bool:
        """Close the challenge as accepted if every invited friend has accepted: True for the
        one caller that closed it (it makes the table).  Called after each accept's commit,
        so the last of several accepting at once sees them all."""
        waiting = select(challenge_invites.c.player_id).where(and_(
            challenge_invites.c.challenge_id == challenge_id,
            challenge_invites.c.state != "accepted"))
        async with self.store._writing(), self.store.engine.begin() as conn:
            done = await conn.execute(update(challenges).where(and_(
                challenges.c.id == challenge_id, challenges.c.state == "open",
                ~waiting.exists())).values(state="accepted"))
        return bool(done.rowcount)

    async def set_table(self, challenge_id: str, table_id: str) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(challenges).where(challenges.c.id == challenge_id)
                               .values(table_id=table_id))

    async def forget(self, player_id: str) -> None:
        """A deleted account: its friend code, friendships, requests, blocks and challenges
        (sent, and those it was invited to) go (both ways)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(friend_codes).where(friend_codes.c.player_id == player_id))
            await conn.execute(delete(friends).where(or_(friends.c.player_id == player_id,
                                                         friends.c.friend_id == player_id)))
            ids = await _involving(conn, player_id, False)
            ids |= {str(r.id) for r in await conn.execute(
                select(challenges.c.id).where(challenges.c.to_id == player_id))}
            if ids:
                await conn.execute(delete(challenge_invites).where(
                    challenge_invites.c.challenge_id.in_(ids)))
                await conn.execute(delete(challenges).where(challenges.c.id.in_(ids)))

    async def channels(self, player_id: str) -> tuple[str | None, str | None]:
        """Where to tell a player who is away: the webhook of their seat at the table they
        last played with one, and their confirmed e-mail address (else that seat's)."""
        async with self.store.engine.connect() as conn:
            p = (await conn.execute(select(players.c.email).where(
                players.c.id == player_id))).first()
            s = (await conn.execute(
                select(seats.c.webhook, seats.c.email)
                .join(game_tables, game_tables.c.id == seats.c.table_id)
                .where(and_(seats.c.player_id == player_id,
                            or_(seats.c.webhook.is_not(None), seats.c.email.is_not(None))))
                .order_by(game_tables.c.updated.desc()).limit(1))).first()
        email = (p.email if p is not None else None) or (s.email if s is not None else None)
        return (s.webhook if s is not None else None), email
