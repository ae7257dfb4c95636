"""The store's queries for the sweeper (the turn notices claimed once across instances, the
humans waiting on a notice, the tables whose bots or timers should move after a restart or on
another instance's tables, a seat's last move) and the deal analyses kept (migration 0008).
``Store`` inherits them; they share its engine and its one writer on SQLite."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from sqlalchemy import Exists, and_, func, select, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from taash.server.store.schema import actions, analyses, game_tables, push_subscriptions, seats


def _push_for_seat() -> Exists:
    """The seat row has a Web Push subscription of its own or of its player's (0007)."""
    ps = push_subscriptions
    return select(ps.c.id).where(
        ((ps.c.table_id == seats.c.table_id) & (ps.c.seat == seats.c.seat))
        | (ps.c.scope == "p:" + seats.c.player_id)).exists()


class SweepQueries:
    """Notices, the sweeper's questions and the analyses (a mixin of ``Store``)."""

    engine: AsyncEngine

    def _writing(self) -> AbstractAsyncContextManager[None]:
        raise NotImplementedError  # the Store's: one writer at a time on SQLite

    async def claim_notice(self, table_id: str, seat: int, version: int,
                           kind: str) -> tuple[str | None, str | None] | None:
        """Take the right to send notice ``kind`` ("notified" or "reminded") for this seat and
        version, once across every instance; returns (webhook, email) or None."""
        col = seats.c.notified_version if kind == "notified" else seats.c.reminded_version
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat, col < version))
                .values({col.name: version}))
            if res.rowcount != 1:
                return None
            r = (await conn.execute(select(seats.c.webhook, seats.c.email).where(
                and_(seats.c.table_id == table_id, seats.c.seat == seat)))).first()
            return None if r is None else (r.webhook, r.email)

    async def waiting_humans(self, older_than: float) -> list[tuple[str, int, int]]:
        """(table, seat, version) of human seats to move, with a way to be told (webhook,
        e-mail, push), that have waited since before ``older_than`` and were not reminded of
        this turn yet."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(game_tables.c.id, seats.c.seat, game_tables.c.version)
                .join(seats, and_(seats.c.table_id == game_tables.c.id,
                                  seats.c.seat == game_tables.c.to_move))
                .where(and_(game_tables.c.over.is_(False), seats.c.type == "human",
                            game_tables.c.updated < older_than,
                            seats.c.reminded_version < game_tables.c.version,
                            (seats.c.webhook.is_not(None)) | (seats.c.email.is_not(None))
                            | _push_for_seat()))
                .limit(500))
            return [(str(r.id), int(r.seat), int(r.version)) for r in rows]

    async def tables_to_drive(self, now: float, stalled_s: float,
                              idle_s: float = 0.0) -> list[str]:
        """Tables that need a server-side move: a bot to move and nothing done for
        ``stalled_s`` (its instance may have stopped), or a human whose turn timer ran out;
        with ``idle_s``, not those where nothing at all was done for longer than that (plus
        their turn timer): nobody has come there, so their bots rest."""
        recent = (game_tables.c.updated + func.coalesce(game_tables.c.turn_timer_s, 0.0)
                  >= now - idle_s) if idle_s > 0 else true()
        async with self.engine.connect() as conn:
            bot = (select(game_tables.c.id)
                   .join(seats, and_(seats.c.table_id == game_tables.c.id,
                                     seats.c.seat == game_tables.c.to_move))
                   .where(and_(game_tables.c.over.is_(False), seats.c.type == "bot",
                               game_tables.c.waiting.is_(False),
                               game_tables.c.updated < now - stalled_s, recent)))
            timer = (select(game_tables.c.id)
                     .where(and_(game_tables.c.over.is_(False),
                                 game_tables.c.waiting.is_(False),
                                 game_tables.c.turn_timer_s.is_not(None),
                                 game_tables.c.to_move.is_not(None),
                                 game_tables.c.updated + game_tables.c.turn_timer_s < now,
                                 recent)))
            ids = [str(r.id) for r in await conn.execute(bot.limit(1000))]
            ids += [str(r.id) for r in await conn.execute(timer.limit(1000))]
        return list(dict.fromkeys(ids))

    async def last_own_move(self, table_id: str, seat: int) -> int:
        """The version of the last action this seat took itself (with a client id: not a
        turn timer's for it); 0 if none."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(func.max(actions.c.version))
                .where(and_(actions.c.table_id == table_id, actions.c.seat == seat,
                            actions.c.client_id.is_not(None))))
        return 0 if found is None else int(found)

    async def last_human_move(self, table_id: str, human_seats: Sequence[int]) -> float | None:
        """When one of these seats last moved by itself (a client id: bots and turn timers
        send none); None if never."""
        if not human_seats:
            return None
        async with self.engine.connect() as conn:
            found = await conn.scalar(
                select(func.max(actions.c.created))
                .where(and_(actions.c.table_id == table_id, actions.c.seat.in_(human_seats),
                            actions.c.client_id.is_not(None))))
        return None if found is None else float(found)


    # -- deal analyses (0008) ----------------------------------------------------------------
    async def load_analysis(self, key: str) -> str | None:
        """A kept analysis (its JSON text), or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(analyses.c.analysis).where(analyses.c.key == key))
                 ).first()
        return None if r is None else str(r.analysis)

    async def save_analysis(self, key: str, table_id: str | None, deal: int, now: float,
                            analysis: str) -> None:
        """Keep an analysis; one already kept under the key stays (the same deal, the same
        result)."""
        async with self._writing(), self.engine.begin() as conn:
            try:
                async with conn.begin_nested():
                    await conn.execute(analyses.insert().values(
                        key=key, table_id=table_id, deal=deal, created=now, analysis=analysis))
            except IntegrityError:
                pass
