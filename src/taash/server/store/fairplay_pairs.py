"""The store's queries on what the detector found per partnership (migration 0030;
docs/fairplay.md, "Partnerships in the server"), a mixin of ``FairPlayStore``: a pair of
players who sat as partners (a side of Court Piece or Goat), keyed by their two ids in order,
per finished match.  The rows of a match are written in the transaction that takes it off the
queue, with its players' (``FairPlayStore.scanned``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, desc, select
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.server.store.db import Store
from taash.server.store.fairplay_schema import fairplay_pair_scans


@dataclass(frozen=True)
class PairScanRow:
    """One partnership's side of one finished match, as the detector found it: the two
    players (``player_id`` < ``partner_id``) and ``opportunities`` as [deal, step, game key,
    kind, hit] each, of the partnership's statistic."""

    player_id: str
    partner_id: str
    table_id: str
    game: str
    ended: float
    deals: int
    judged: int
    opportunities: list[tuple[int, int, str, str, bool]]


def pair_key(a: str, b: str) -> tuple[str, str]:
    """A partnership's two players in the order it is kept by."""
    return (a, b) if a < b else (b, a)


async def add_pair_scans(conn: AsyncConnection, table_id: str,
                         pairs: Sequence[PairScanRow]) -> None:
    """A match's partnerships' rows, in the transaction of its players' (those written before,
    by an earlier try, are kept)."""
    if not pairs:
        return
    have = {(r.player_id, r.partner_id) for r in await conn.execute(
        select(fairplay_pair_scans.c.player_id, fairplay_pair_scans.c.partner_id)
        .where(fairplay_pair_scans.c.table_id == table_id))}
    new = [r for r in pairs if (r.player_id, r.partner_id) not in have]
    if new:
        await conn.execute(fairplay_pair_scans.insert(), [
            {"player_id": r.player_id, "partner_id": r.partner_id, "table_id": r.table_id,
             "game": r.game, "ended": r.ended, "deals": r.deals, "judged": r.judged,
             "opportunities": json.dumps(r.opportunities)} for r in new])


class PairQueries:
    """The partnerships' scans (a mixin of ``FairPlayStore``)."""

    store: Store

    async def pair_scans(self, player_id: str, partner_id: str, since: float,
                         limit: int) -> list[PairScanRow]:
        """The partnership's scanned matches ended after ``since``, the newest first."""
        t = fairplay_pair_scans
        q = (select(t)
             .where(and_(t.c.player_id == player_id, t.c.partner_id == partner_id,
                         t.c.ended > since))
             .order_by(desc(t.c.ended), desc(t.c.table_id))
             .limit(limit))
        async with self.store.engine.connect() as conn:
            rows = list(await conn.execute(q))
        return [PairScanRow(r.player_id, r.partner_id, r.table_id, r.game, r.ended, r.deals,
                            r.judged,
                            [(int(o[0]), int(o[1]), str(o[2]), str(o[3]), bool(o[4]))
                             for o in json.loads(r.opportunities)]) for r in rows]
