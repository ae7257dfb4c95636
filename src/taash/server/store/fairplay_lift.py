"""The store's queries for what follows a fair-play decision (migration 0029; docs/fairplay.md):
a ban lifted by a moderator (the ban's row moves to ``fairplay_lifts`` with who lifted it, when
and why) and the notices a warned, banned or lifted player is told once.  A notice is written in
the transaction of the decision or the lift it tells of, so of several instances exactly one
writes it; it holds the kind of decision and when, nothing of the evidence, the note or the
moderator."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, desc, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.server.store.db import Store
from taash.server.store.fairplay_schema import fairplay_bans, fairplay_lifts, fairplay_notices
from taash.server.store.schema import players

NOTICES = ("warned", "banned", "lifted")


@dataclass(frozen=True)
class LiftRow:
    """A ban lifted: the case that banned the player, who lifted it, when and why."""

    player_id: str
    case_id: str
    banned: float
    banned_by: str
    lifted: float
    lifted_by: str
    lifted_by_name: str | None
    note: str


@dataclass(frozen=True)
class NoticeRow:
    id: str
    kind: str  # warned, banned or lifted
    created: float


async def add_notice(conn: AsyncConnection, player_id: str, kind: str, now: float) -> None:
    """A notice for the player, in the transaction of what it tells of."""
    assert kind in NOTICES
    await conn.execute(fairplay_notices.insert().values(
        id=secrets.token_hex(8), player_id=player_id, kind=kind, created=now, seen=None))


class LiftQueries:
    """Lifting bans and the players' notices (a mixin of ``FairPlayStore``)."""

    store: Store

    async def lift(self, player_id: str, by: str, note: str, now: float) -> str | None:
        """Lift the player's ban from rated play: recorded with who, when and why, and the
        player told (a notice), in one transaction.  The id of the case that had banned them,
        or None if they are not banned (never, or lifted already: of two moderators lifting at
        once, one does)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            ban = (await conn.execute(select(fairplay_bans).where(
                fairplay_bans.c.player_id == player_id))).first()
            if ban is None:
                return None
            gone = await conn.execute(delete(fairplay_bans).where(
                fairplay_bans.c.player_id == player_id))
            if not gone.rowcount:
                return None
            await conn.execute(fairplay_lifts.insert().values(
                id=secrets.token_hex(8), player_id=player_id, case_id=ban.case_id,
                banned=ban.banned, banned_by=ban.by, lifted=now, lifted_by=by, note=note))
            await add_notice(conn, player_id, "lifted", now)
        return str(ban.case_id)

    async def lifts(self, case_ids: Sequence[str]) -> dict[str, LiftRow]:
        """The latest lift of the ban each of these cases decided, by case id."""
        if not case_ids:
            return {}
        q = (select(fairplay_lifts, players.c.name)
             .outerjoin(players, players.c.id == fairplay_lifts.c.lifted_by)
             .where(fairplay_lifts.c.case_id.in_(list(case_ids)))
             .order_by(fairplay_lifts.c.lifted))
        async with self.store.engine.connect() as conn:
            return {r.case_id: LiftRow(r.player_id, r.case_id, r.banned, r.banned_by, r.lifted,
                                       r.lifted_by, r.name, r.note)
                    for r in await conn.execute(q)}

    async def ban_case(self, player_id: str) -> str | None:
        """The case of the player's ban in force (None: not banned)."""
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(select(fairplay_bans.c.case_id).where(
                fairplay_bans.c.player_id == player_id))).scalar()
        return None if found is None else str(found)

    async def notices(self, player_id: str) -> list[NoticeRow]:
        """The player's notices not seen yet, the newest first."""
        q = (select(fairplay_notices.c.id, fairplay_notices.c.kind, fairplay_notices.c.created)
             .where(and_(fairplay_notices.c.player_id == player_id,
                         fairplay_notices.c.seen.is_(None)))
             .order_by(desc(fairplay_notices.c.created), fairplay_notices.c.id))
        async with self.store.engine.connect() as conn:
            return [NoticeRow(r.id, r.kind, r.created) for r in await conn.execute(q)]

    async def seen(self, player_id: str, notice_id: str, now: float) -> bool:
        """The player has read this notice of theirs: it is not shown again (read twice: the
        first time is kept).  False if it is not theirs."""
        theirs = and_(fairplay_notices.c.id == notice_id,
                      fairplay_notices.c.player_id == player_id)
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(fairplay_notices).where(and_(
                theirs, fairplay_notices.c.seen.is_(None))).values(seen=now))
            found = (await conn.execute(select(fairplay_notices.c.id).where(theirs))).first()
        return found is not None
