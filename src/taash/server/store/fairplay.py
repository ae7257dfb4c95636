"""The store's queries for fair play (migration 0020; docs/fairplay.md): players' roles, the
queue of finished matches waiting for the detector, what it found per player and match, the
moderators' cases and their decisions, and the bans from rated play.

A finished match is queued once (keyed by its table) and leaves the queue in the transaction
that writes what the detector found in it, so a stop between the two scans it again and finds
its rows there already.  An instance scans a match only under its claim (``claim``: a lease it
renews while the scan runs), so instances sharing the database scan each match once; a claim
left by an instance that stopped runs out and the match is taken again.  A case is decided
once: the decision is written only where the case is still open.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, RowMapping, and_, delete, desc, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.fairplay_lift import LiftQueries, add_notice
from taash.server.store.fairplay_schema import (
    fairplay_bans,
    fairplay_cases,
    fairplay_queue,
    fairplay_scans,
    player_roles,
)
from taash.server.store.schema import players


@dataclass(frozen=True)
class QueuedMatch:
    table_id: str
    game: str
    ended: float
    record: str  # JSON text
    tries: int


@dataclass(frozen=True)
class ScanRow:
    """One player's seat of one finished match, as the detector found it: ``opportunities``
    as [deal, step, game key, kind, hit] each."""

    player_id: str
    table_id: str
    game: str
    ended: float
    deals: int
    judged: int
    opportunities: list[tuple[int, int, str, str, bool]]


@dataclass
class CaseRow:
    id: str
    player_id: str
    name: str
    opened: float
    updated: float
    status: str  # open, cleared, warned, banned
    p_value: float
    deals: int
    evidence: dict[str, object]
    decided: float | None = None
    decided_by: str | None = None
    decided_by_name: str | None = None
    note: str | None = None


class FairPlayStore(LiftQueries):
    """Fair play's rows in the server's one database (lifts and notices: ``LiftQueries``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- roles ------------------------------------------------------------------------------
    async def grant(self, player_id: str, role: str, now: float) -> bool:
        """Give a player a role: False if they had it already."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(player_roles.insert().values(player_id=player_id, role=role,
                                                                granted=now))
        except IntegrityError:
            return False
        return True

    async def revoke(self, player_id: str, role: str) -> bool:
        async with self.store._writing(), self.store.engine.begin() as conn:
            gone = await conn.execute(delete(player_roles).where(and_(
                player_roles.c.player_id == player_id, player_roles.c.role == role)))
        return bool(gone.rowcount)

    async def has_role(self, player_id: str, role: str) -> bool:
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(select(player_roles.c.granted).where(and_(
                player_roles.c.player_id == player_id, player_roles.c.role == role)))).first()
        return found is not None

    async def holders(self, role: str) -> list[tuple[str, str, float]]:
        """(id, name, granted) of the players with ``role``, the earliest granted first."""
        q = (select(player_roles.c.player_id, players.c.name, player_roles.c.granted)
             .join(players, players.c.id == player_roles.c.player_id)
             .where(player_roles.c.role == role).order_by(player_roles.c.granted))
        async with self.store.engine.connect() as conn:
            return [(r.player_id, r.name, r.granted) for r in await conn.execute(q)]

    async def find_players(self, who: str) -> list[tuple[str, str]]:
        """(id, name) of the living players whose id is ``who`` or whose name is ``who``
        (any case)."""
        q = (select(players.c.id, players.c.name)
             .where(and_(players.c.deleted.is_(None),
                         or_(players.c.id == who,
                             func.lower(players.c.name) == who.lower())))
             .order_by(players.c.created))
        async with self.store.engine.connect() as conn:
            return [(r.id, r.name) for r in await conn.execute(q)]

    # -- the queue --------------------------------------------------------------------------
    async def enqueue(self, table_id: str, game: str, ended: float, record: str) -> bool:
        """Queue a finished match for the detector: False if it was queued before."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(fairplay_queue.insert().values(
                    table_id=table_id, game=game, ended=ended, record=record, tries=0))
        except IntegrityError:
            return False
        return True

    async def queued(self, limit: int) -> list[QueuedMatch]:
        """The matches waiting, the earliest ended first."""
        q = select(fairplay_queue).order_by(fairplay_queue.c.ended,
                                            fairplay_queue.c.table_id).limit(limit)
        async with self.store.engine.connect() as conn:
            return [QueuedMatch(r.table_id, r.game, r.ended, r.record, r.tries)
                    for r in await conn.execute(q)]

    async def claim(self, by: str, now: float, lease_s: float) -> QueuedMatch | None:
        """Claim the earliest ended match that no instance holds (or whose claim has run out)
        for ``lease_s`` seconds: of instances claiming at once, one gets each match (PostgreSQL:
        the others skip its locked row; the write is also conditional on the claim being
        free).  None when nothing is waiting."""
        free = or_(fairplay_queue.c.claimed_until.is_(None),
                   fairplay_queue.c.claimed_until <= now)
        pick = (select(fairplay_queue).where(free)
                .order_by(fairplay_queue.c.ended, fairplay_queue.c.table_id).limit(1))
        if not self.store.is_sqlite:
            pick = pick.with_for_update(skip_locked=True)
        for _ in range(8):  # taken by another between the read and the write: the next one
            async with self.store._writing(), self.store.engine.begin() as conn:
                r = (await conn.execute(pick)).first()
                if r is None:
                    return None
                took = await conn.execute(
                    update(fairplay_queue)
                    .where(and_(fairplay_queue.c.table_id == r.table_id, free))
                    .values(claimed_by=by, claimed_until=now + lease_s))
            if took.rowcount:
                return QueuedMatch(r.table_id, r.game, r.ended, r.record, r.tries)
        return None

    async def renew(self, table_id: str, by: str, until: float) -> bool:
        """Hold a claim longer while its scan runs: False if it is no longer ``by``'s."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            done = await conn.execute(update(fairplay_queue).where(and_(
                fairplay_queue.c.table_id == table_id, fairplay_queue.c.claimed_by == by))
                .values(claimed_until=until))
        return bool(done.rowcount)

    async def release(self, by: str) -> None:
        """Give back every claim of ``by`` (an instance stopping: its scans under way are
        taken again at once, by whichever instance comes first)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(fairplay_queue).where(fairplay_queue.c.claimed_by == by)
                               .values(claimed_by=None, claimed_until=None))

    async def tried(self, table_id: str, retry_at: float | None = None) -> None:
        """A scan of this match failed: counted, so that it is given up after a few, and its
        claim given back, the match to be taken again from ``retry_at``."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(fairplay_queue)
                               .where(fairplay_queue.c.table_id == table_id)
                               .values(tries=fairplay_queue.c.tries + 1, claimed_by=None,
                                       claimed_until=retry_at))

    async def drop(self, table_id: str) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(fairplay_queue)
                               .where(fairplay_queue.c.table_id == table_id))

    async def scanned(self, table_id: str, rows: Sequence[ScanRow]) -> None:
        """What the detector found in a queued match, written as the match leaves the queue
        (rows written before, by an earlier try, are kept)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            have = {r.player_id for r in await conn.execute(
                select(fairplay_scans.c.player_id).where(fairplay_scans.c.table_id == table_id))}
            new = [r for r in rows if r.player_id not in have]
            if new:
                await conn.execute(fairplay_scans.insert(), [
                    {"player_id": r.player_id, "table_id": r.table_id, "game": r.game,
                     "ended": r.ended, "deals": r.deals, "judged": r.judged,
                     "opportunities": json.dumps(r.opportunities)} for r in new])
            await conn.execute(delete(fairplay_queue)
                               .where(fairplay_queue.c.table_id == table_id))

    async def scans(self, player_id: str, since: float, limit: int) -> list[ScanRow]:
        """The player's scanned matches ended after ``since``, the newest first."""
        q = (select(fairplay_scans)
             .where(and_(fairplay_scans.c.player_id == player_id,
                         fairplay_scans.c.ended > since))
             .order_by(desc(fairplay_scans.c.ended), desc(fairplay_scans.c.table_id))
             .limit(limit))
        async with self.store.engine.connect() as conn:
            rows = list(await conn.execute(q))
        return [ScanRow(r.player_id, r.table_id, r.game, r.ended, r.deals, r.judged,
                        [(int(o[0]), int(o[1]), str(o[2]), str(o[3]), bool(o[4]))
                         for o in json.loads(r.opportunities)]) for r in rows]

    # -- cases ------------------------------------------------------------------------------
    async def _cases(self, where: ColumnElement[bool], by_p: bool,
                     limit: int) -> list[CaseRow]:
        decider = players.alias("decider")
        q = (select(fairplay_cases, players.c.name, decider.c.name.label("decider_name"))
             .join(players, players.c.id == fairplay_cases.c.player_id)
             .outerjoin(decider, decider.c.id == fairplay_cases.c.decided_by)
             .where(where)
             .order_by(fairplay_cases.c.p_value if by_p else desc(fairplay_cases.c.updated),
                       fairplay_cases.c.id).limit(limit))
        async with self.store.engine.connect() as conn:
            return [self._case(r._mapping) for r in await conn.execute(q)]

    @staticmethod
    def _case(m: RowMapping) -> CaseRow:
        return CaseRow(m["id"], m["player_id"], m["name"], m["opened"], m["updated"],
                       m["status"], m["p_value"], m["deals"], json.loads(m["evidence"]),
                       m["decided"], m["decided_by"], m["decider_name"], m["note"])

    async def open_case(self, player_id: str) -> str | None:
        """The id of the player's open case, if any."""
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(select(fairplay_cases.c.id).where(and_(
                fairplay_cases.c.player_id == player_id,
                fairplay_cases.c.status == "open")))).scalar()
        return None if found is None else str(found)

    async def last_decided(self, player_id: str) -> float | None:
        """When the player's latest decided case was decided (None: never)."""
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(
                select(fairplay_cases.c.decided)
                .where(and_(fairplay_cases.c.player_id == player_id,
                            fairplay_cases.c.decided.is_not(None)))
                .order_by(desc(fairplay_cases.c.decided)).limit(1))).scalar()
        return None if found is None else float(found)

    async def open(self, case_id: str, player_id: str, now: float, p_value: float, deals: int,
                   evidence: dict[str, object]) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(fairplay_cases.insert().values(
                id=case_id, player_id=player_id, opened=now, updated=now, status="open",
                p_value=p_value, deals=deals, evidence=json.dumps(evidence)))

    async def refresh(self, case_id: str, now: float, p_value: float, deals: int,
                      evidence: dict[str, object]) -> None:
        """An open case's evidence, brought up to date with the player's newer deals."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(fairplay_cases).where(and_(
                fairplay_cases.c.id == case_id, fairplay_cases.c.status == "open"))
                .values(updated=now, p_value=p_value, deals=deals,
                        evidence=json.dumps(evidence)))

    async def cases(self, status: str | None, limit: int) -> list[CaseRow]:
        """Cases (of ``status``; None: all), the open ones by p-value, the others the latest
        changed first."""
        where = (fairplay_cases.c.status == status) if status is not None \
            else fairplay_cases.c.id.is_not(None)
        return await self._cases(where, status == "open", limit)

    async def case(self, case_id: str) -> CaseRow | None:
        found = await self._cases(fairplay_cases.c.id == case_id, False, 1)
        return found[0] if found else None

    async def decide(self, case_id: str, status: str, by: str, note: str,
                     now: float) -> tuple[bool, bool]:
        """Decide an open case (and, for ``banned``, ban its player from rated play) in one
        transaction, with the notice that tells the player of a warning or a ban: (decided,
        told), decided False if it was decided already, told False if no notice was written
        (cleared; banned by an earlier case already)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            done = await conn.execute(update(fairplay_cases).where(and_(
                fairplay_cases.c.id == case_id, fairplay_cases.c.status == "open"))
                .values(status=status, decided=now, decided_by=by, note=note))
            if not done.rowcount:
                return False, False
            player = (await conn.execute(select(fairplay_cases.c.player_id).where(
                fairplay_cases.c.id == case_id))).scalar_one()
            told = status == "warned"
            if status == "banned":
                banned = (await conn.execute(select(fairplay_bans.c.player_id).where(
                    fairplay_bans.c.player_id == player))).first()
                if banned is None:  # (banned already by another case: told then)
                    await conn.execute(fairplay_bans.insert().values(
                        player_id=player, case_id=case_id, banned=now, by=by))
                    told = True
            if told:
                await add_notice(conn, player, status, now)
        return True, told

    # -- bans -------------------------------------------------------------------------------
    async def banned(self, player_ids: Sequence[str]) -> set[str]:
        """Which of these players are banned from rated play."""
        if not player_ids:
            return set()
        async with self.store.engine.connect() as conn:
            return {str(r.player_id) for r in await conn.execute(
                select(fairplay_bans.c.player_id)
                .where(fairplay_bans.c.player_id.in_(list(player_ids))))}
