"""The store's queries for fair play (migrations 0023 and 0030; docs/fairplay.md): players'
roles, the queue of finished matches waiting for the detector, what it found per player (and
per partnership: ``fairplay_pairs.PairQueries``) and match, the moderators' cases and their
decisions, and the bans from rated play.

A finished match leaves the queue (its queries: ``fairplay_queue.QueueQueries``) in the
transaction that writes what the detector found in it, so a stop between the two scans it again
and finds its rows there already.  A player has one open case at a time, even when two
instances weigh them at once (``open``), and so has a partnership (a case of two players,
``partner_id`` set).  A case is decided once: the decision is written only where the case is
still open.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    RowMapping,
    and_,
    delete,
    desc,
    exists,
    func,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.fairplay_lift import LiftQueries, add_notice
from taash.server.store.fairplay_pairs import PairQueries, PairScanRow, add_pair_scans
from taash.server.store.fairplay_queue import QueueQueries
from taash.server.store.fairplay_schema import (
    fairplay_bans,
    fairplay_cases,
    fairplay_queue,
    fairplay_scans,
    player_roles,
)
from taash.server.store.schema import players


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
    partner_id: str | None = None  # a partnership's case: its second player
    partner_name: str | None = None
    decided_for: list[str] | None = None  # a partnership's case: whom its decision applies to

    @property
    def players(self) -> list[str]:
        return [self.player_id] if self.partner_id is None else [self.player_id,
                                                                  self.partner_id]


def _whose(player_id: str, partner_id: str | None) -> ColumnElement[bool]:
    """The cases of one player (``partner_id`` None) or of one partnership."""
    partner = fairplay_cases.c.partner_id
    return and_(fairplay_cases.c.player_id == player_id,
                partner.is_(None) if partner_id is None else partner == partner_id)


class FairPlayStore(QueueQueries, LiftQueries, PairQueries):
    """Fair play's rows in the server's one database (the queue: ``QueueQueries``; lifts and
    notices: ``LiftQueries``; partnerships' scans: ``PairQueries``)."""

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

    # -- what the detector found ----------------------------------------------------------
    async def scanned(self, table_id: str, rows: Sequence[ScanRow],
                      pairs: Sequence[PairScanRow] = ()) -> None:
        """What the detector found in a queued match (per player, and per partnership),
        written as the match leaves the queue (rows written before, by an earlier try, are
        kept)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            have = {r.player_id for r in await conn.execute(
                select(fairplay_scans.c.player_id).where(fairplay_scans.c.table_id == table_id))}
            new = [r for r in rows if r.player_id not in have]
            if new:
                await conn.execute(fairplay_scans.insert(), [
                    {"player_id": r.player_id, "table_id": r.table_id, "game": r.game,
                     "ended": r.ended, "deals": r.deals, "judged": r.judged,
                     "opportunities": json.dumps(r.opportunities)} for r in new])
            await add_pair_scans(conn, table_id, pairs)
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
        decider, partner = players.alias("decider"), players.alias("partner")
        q = (select(fairplay_cases, players.c.name, decider.c.name.label("decider_name"),
                    partner.c.name.label("partner_name"))
             .join(players, players.c.id == fairplay_cases.c.player_id)
             .outerjoin(decider, decider.c.id == fairplay_cases.c.decided_by)
             .outerjoin(partner, partner.c.id == fairplay_cases.c.partner_id)
             .where(where)
             .order_by(fairplay_cases.c.p_value if by_p else desc(fairplay_cases.c.updated),
                       fairplay_cases.c.id).limit(limit))
        async with self.store.engine.connect() as conn:
            return [self._case(r._mapping) for r in await conn.execute(q)]

    @staticmethod
    def _case(m: RowMapping) -> CaseRow:
        decided_for = m["decided_for"]
        return CaseRow(m["id"], m["player_id"], m["name"], m["opened"], m["updated"],
                       m["status"], m["p_value"], m["deals"], json.loads(m["evidence"]),
                       m["decided"], m["decided_by"], m["decider_name"], m["note"],
                       m["partner_id"], m["partner_name"],
                       None if decided_for is None else [str(p) for p in
                                                         json.loads(decided_for)])

    async def open_case(self, player_id: str, partner_id: str | None = None) -> str | None:
        """The id of the player's open case (with ``partner_id``: the partnership's), if
        any."""
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(select(fairplay_cases.c.id).where(and_(
                _whose(player_id, partner_id), fairplay_cases.c.status == "open")))).scalar()
        return None if found is None else str(found)

    async def last_decided(self, player_id: str, partner_id: str | None = None
                           ) -> float | None:
        """When the player's (the partnership's) latest decided case was decided (None:
        never)."""
        async with self.store.engine.connect() as conn:
            found = (await conn.execute(
                select(fairplay_cases.c.decided)
                .where(and_(_whose(player_id, partner_id),
                            fairplay_cases.c.decided.is_not(None)))
                .order_by(desc(fairplay_cases.c.decided)).limit(1))).scalar()
        return None if found is None else float(found)

    async def open(self, case_id: str, player_id: str, now: float, p_value: float, deals: int,
                   evidence: dict[str, object], partner_id: str | None = None) -> str:
        """Open a case for the player (with ``partner_id``: for the partnership of the two,
        ``player_id`` < ``partner_id``) unless one is open already (another instance weighed
        them at the same moment): the id of the open case, this one or that one.  The insert
        is one statement conditional on no open case (SQLite: atomic), and on PostgreSQL made
        under a lock of the player's or the partnership's (a transaction's advisory lock: two
        transactions would not see each other's insert)."""
        is_open = and_(_whose(player_id, partner_id), fairplay_cases.c.status == "open")
        row = {"id": case_id, "player_id": player_id, "opened": now, "updated": now,
               "status": "open", "p_value": p_value, "deals": deals,
               "evidence": json.dumps(evidence), "partner_id": partner_id}
        values = select(*(literal(v, fairplay_cases.c[k].type) for k, v in row.items())
                        ).where(~exists().where(is_open))
        async with self.store._writing(), self.store.engine.begin() as conn:
            if not self.store.is_sqlite:
                whose = player_id if partner_id is None else f"{player_id}&{partner_id}"
                key = int.from_bytes(hashlib.sha256(f"fairplay:{whose}".encode())
                                     .digest()[:8], "big", signed=True)
                await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
            for _ in range(3):  # (an open case decided between the two: the insert again)
                done = await conn.execute(fairplay_cases.insert().from_select(list(row),
                                                                              values))
                if done.rowcount:
                    return case_id
                found = (await conn.execute(select(fairplay_cases.c.id).where(is_open))
                         ).scalar()
                if found is not None:
                    return str(found)
        raise RuntimeError(f"player {player_id}: no case could be opened")

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

    async def decide(self, case_id: str, status: str, by: str, note: str, now: float,
                     decided_for: Sequence[str] | None = None) -> tuple[bool, list[str]]:
        """Decide an open case (and, for ``banned``, ban its player from rated play) in one
        transaction, with the notice that tells the player of a warning or a ban: (decided,
        told), decided False if it was decided already, told the players a notice was written
        for (none: cleared; banned by an earlier case already).  A partnership's case warns or
        bans the players ``decided_for`` (its two players, or one of them), recorded with it."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            done = await conn.execute(update(fairplay_cases).where(and_(
                fairplay_cases.c.id == case_id, fairplay_cases.c.status == "open"))
                .values(status=status, decided=now, decided_by=by, note=note,
                        decided_for=None if decided_for is None
                        else json.dumps(list(decided_for))))
            if not done.rowcount:
                return False, []
            player = (await conn.execute(select(fairplay_cases.c.player_id).where(
                fairplay_cases.c.id == case_id))).scalar_one()
            told: list[str] = []
            for p in [player] if decided_for is None else decided_for:
                if status == "warned":
                    told.append(p)
                elif status == "banned" and (await conn.execute(
                        select(fairplay_bans.c.player_id).where(
                            fairplay_bans.c.player_id == p))).first() is None:
                    # (banned already by another case: told then)
                    await conn.execute(fairplay_bans.insert().values(
                        player_id=p, case_id=case_id, banned=now, by=by))
                    told.append(p)
            for p in told:
                await add_notice(conn, p, status, now)
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
