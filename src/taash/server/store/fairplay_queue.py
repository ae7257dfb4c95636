"""The store's queries on fair play's queue of finished matches (migrations 0023 and 0029;
docs/fairplay.md), a mixin of ``FairPlayStore``.

A finished match is queued once (keyed by its table) and leaves the queue in the transaction
that writes what the detector found in it (``FairPlayStore.scanned``), so a stop between the two
scans it again and finds its rows there already.  An instance scans a match only under its
claim (``claim``: a lease it renews while the scan runs), so instances sharing the database scan
each match once; a claim left by an instance that died runs out and the match is taken again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.fairplay_schema import fairplay_queue


@dataclass(frozen=True)
class QueuedMatch:
    table_id: str
    game: str
    ended: float
    record: str  # JSON text
    tries: int


class QueueQueries:
    """Queueing, claiming and giving back finished matches (a mixin of ``FairPlayStore``)."""

    store: Store

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
