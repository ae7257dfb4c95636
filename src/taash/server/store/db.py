"""The store: tables, seats and every accepted action, in SQLite or PostgreSQL.

An action is committed before it is acknowledged.  Two writers racing for one table cannot both
win: the table row's ``version`` is bumped with ``WHERE version = expected`` and every action row
is keyed by ``(table_id, version)``, so exactly one commit takes a version; the loser is told
with ``VersionConflict`` and catches up.  A match is rebuilt by replaying its actions.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, and_, event, select, text, update
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from taash.server.store import (
    club_schema,  # noqa: F401  (its tables join ``metadata``)
    event_best_schema,  # noqa: F401  (so do its)
    fairplay_schema,  # noqa: F401  (likewise)
    mining_schema,  # noqa: F401  (likewise)
    puzzle_schema,  # noqa: F401  (its tables too)
    season_schema,  # noqa: F401  (the same)
    tournament_schema,  # noqa: F401  (the same)
)
from taash.server.store.group_commit import (
    INTEGRITY,
    Pending,
    SqliteWriter,
    apply_batch,
    sqlite_pragmas,
)
from taash.server.store.leases import LeaseQueries
from taash.server.store.pacing import Pacer
from taash.server.store.pg_writer import pg_writer_for
from taash.server.store.players import PlayerQueries
from taash.server.store.rows import (
    ActionRow,
    FairRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    TableRow,
    seat_row_of,
    table_row_of,
)
from taash.server.store.schema import actions, fair_deals, game_tables, metadata, seats
from taash.server.store.seats import SeatQueries
from taash.server.store.sign_in import SignInQueries
from taash.server.store.sweeps import SweepQueries

# the migrations read ``metadata`` here; the server, the rows
__all__ = ["ActionRow", "PlayerRow", "SeatRow", "SessionRow", "Store", "TableRow",
           "VersionConflict", "metadata"]

log = logging.getLogger("taash.server")

BATCH = 64


class VersionConflict(Exception):
    """Another writer took this version of the table first (or the client id was used)."""


def migrations_path() -> str:
    return str(resources.files("taash.server.store") / "migrations")


def _upgrade(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        # several instances starting at once: one migrates, the others wait and find it done
        conn.execute(text("SELECT pg_advisory_xact_lock(724301)"))
    cfg = Config()
    cfg.set_main_option("script_location", migrations_path())
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, "head")


class Store(PlayerQueries, SeatQueries, SignInQueries, SweepQueries, LeaseQueries):
    """Async access to the database; one per server process."""

    def __init__(self, url: URL, wal_limit: int = 16 * 1024 * 1024,
                 commit_wait_s: float = 0.0) -> None:
        self.url = url
        #: SQLite: past this size the write-ahead log is copied back and truncated, between
        #: two writes (see _checkpoints)
        self.wal_limit = wal_limit
        self.is_sqlite = url.get_backend_name() == "sqlite"
        kw: dict[str, int | bool] = {}
        if not self.is_sqlite:
            kw.update(pool_size=10, max_overflow=20, pool_pre_ping=False)
        self.engine: AsyncEngine = create_async_engine(url, **kw)
        #: SQLite: the group commit's own connection, in a thread of its own
        self._sqlite_writer: SqliteWriter | None = None
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
            self._sqlite_writer = SqliteWriter(str(url.database), wal_limit)
        #: PostgreSQL: the group commit's own asyncpg connection, without SQLAlchemy
        self._pg_writer = pg_writer_for(url)
        # SQLite has one writer at a time: queue writers here rather than in SQLITE_BUSY
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._pending: list[Pending] = []
        #: under load, a moment's wait for fuller batches (``pacing``)
        self.pacer = Pacer(commit_wait_s)
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        #: told (start time, actions) after each group commit: the metrics
        self.on_write: Callable[[float, int], None] | None = None

    async def migrate(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)
        if self.is_sqlite and self._checkpointer is None:
            self._checkpointer = asyncio.create_task(self._checkpoints(), name="taash-wal")

    async def _checkpoints(self, every: float = 0.5, truncate_every: float = 30.0) -> None:
        """Keep SQLite's write-ahead log bounded under load (``SqliteWriter.checkpoints``),
        each TRUNCATE between two batches of writes, holding the write lock."""
        assert self._sqlite_writer is not None
        await self._sqlite_writer.checkpoints(self._truncate_wal, every, truncate_every)

    async def _truncate_wal(self) -> None:
        if self._sqlite_writer is not None:
            async with self._writing():
                await self._sqlite_writer.truncate()

    async def close(self, grace: float = 5.0) -> None:
        """Finish the writes under way (within ``grace`` seconds), then close; SQLite's log is
        copied back and truncated."""
        writer = self._writer
        if writer is not None and not writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(writer), grace)
            except (TimeoutError, Exception) as e:
                log.warning("closing with writes unfinished: %r", e)
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
            try:
                await self._truncate_wal()
            except Exception as e:
                log.warning("checkpoint: %s", e)
        await self.engine.dispose()
        for w in (self._pg_writer, self._sqlite_writer):
            if w is not None:
                await w.close()

    async def ping(self) -> None:
        """Raise if the database cannot answer a query (readiness)."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    def _writing(self) -> AbstractAsyncContextManager[None]:
        return self._write_lock if self._write_lock is not None else _NullLock()

    # -- tables ------------------------------------------------------------------------------
    async def create_table(self, t: TableRow) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await self._insert_table(conn, t)

    @staticmethod
    async def _insert_table(conn: AsyncConnection, t: TableRow) -> None:
        await conn.execute(game_tables.insert().values(
            id=t.id, game=t.game, options=json.dumps(t.options), seed=t.seed,
            first_seat=t.first_seat, live=t.live, open=t.open, bot_delay_ms=t.bot_delay_ms,
            turn_timer_s=t.turn_timer_s, created=t.created, updated=t.updated,
            version=t.version, over=t.over, to_move=t.to_move, rematch_id=t.rematch_id,
            rematch_of=t.rematch_of, chat_text=t.chat_text,
            pass_and_play=t.pass_and_play, waiting=t.waiting, spectator_delay=t.spectator_delay))
        await conn.execute(seats.insert(), [
            {"table_id": t.id, "seat": s.seat, "type": s.type, "level": s.level,
             "name": s.name, "token_hash": s.token_hash, "claimed": s.claimed,
             "webhook": None, "email": None, "notified_version": -1,
             "reminded_version": -1, "player_id": s.player_id} for s in t.seats])
        await Store._insert_fair(conn, t.id, t.fair)

    async def load_table(self, table_id: str) -> TableRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(game_tables).where(game_tables.c.id == table_id))
                 ).first()
            if r is None:
                return None
            t = table_row_of(r)
            rows = await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                      .order_by(seats.c.seat))
            t.seats = [seat_row_of(s) for s in rows]
            t.fair = await self._select_fair(conn, table_id)
        return t

    # -- fair deals --------------------------------------------------------------------------
    @staticmethod
    async def _insert_fair(conn: AsyncConnection, table_id: str,
                           rows: Sequence[FairRow]) -> None:
        if rows:
            await conn.execute(fair_deals.insert(), [
                {"table_id": table_id, "deal": f.deal, "secret": f.secret,
                 "seeds": json.dumps(f.seeds), "dealt": f.dealt} for f in rows])

    @staticmethod
    async def _select_fair(conn: AsyncConnection, table_id: str) -> list[FairRow]:
        rows = await conn.execute(select(fair_deals).where(fair_deals.c.table_id == table_id)
                                  .order_by(fair_deals.c.deal))
        return [FairRow(deal=r.deal, secret=r.secret, seeds=list(json.loads(r.seeds)),
                        dealt=bool(r.dealt)) for r in rows]

    async def load_fair(self, table_id: str) -> list[FairRow]:
        """The table's fair-deal secrets and seeds, deal by deal."""
        async with self.engine.connect() as conn:
            return await self._select_fair(conn, table_id)

    async def save_fair(self, table_id: str, rows: Sequence[FairRow]) -> None:
        """Write the table's fair-deal rows as they are now (a few per table)."""
        async with self.under_lease(table_id) as conn:
            await conn.execute(fair_deals.delete().where(fair_deals.c.table_id == table_id))
            await self._insert_fair(conn, table_id, rows)

    async def load_seats(self, table_id: str) -> list[SeatRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                      .order_by(seats.c.seat))
            return [seat_row_of(s) for s in rows]

    async def load_actions(self, table_id: str, after: int = 0) -> list[ActionRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(actions.c.version, actions.c.seat, actions.c.action,
                       actions.c.client_id, actions.c.events)
                .where(and_(actions.c.table_id == table_id, actions.c.version > after))
                .order_by(actions.c.version))
            return [ActionRow(r.version, r.seat, r.action, r.client_id, json.loads(r.events))
                    for r in rows]

    async def append_action(self, table_id: str, expected: int, seat: int, action: str,
                            client_id: str | None, events: Sequence[Mapping[str, object]],
                            to_move: int | None, over: bool) -> float:
        """Commit action number ``expected + 1``; VersionConflict if another writer took it
        (or this seat already used ``client_id``).  Returns the commit time.

        Actions of many tables arriving together are committed in one transaction (group
        commit): one disk flush for all of them, each still checked on its own; with owners,
        under the table's lease (LeaseLost: not held, or taken since)."""
        item = Pending(table_id, expected, seat, action, client_id,
                       orjson.dumps(events).decode(),
                        to_move, over, asyncio.get_running_loop().create_future(),
                        self.lease_to_write(table_id))
        self._pending.append(item)
        self.pacer.arrived()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="taash-writer")
        return await item.done

    async def _write_loop(self) -> None:
        while self._pending:
            if len(self._pending) < BATCH and (wait := self.pacer.wait()):
                await asyncio.sleep(wait)
            batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
            started = time.perf_counter()
            try:
                await self._write_batch(batch)
                if self.on_write is not None:
                    self.on_write(started, len(batch))
            except Exception as e:
                # one bad apple (a client id used twice, a row the database refuses) must not
                # fail the other tables' actions: write them one at a time, so only its own
                # action fails
                if len(batch) > 1 and not isinstance(e, INTEGRITY):
                    log.warning("a batch of %d actions failed (%s): writing them one by one",
                                len(batch), type(e).__name__)
                for item in batch:
                    if item.done.done():
                        continue
                    try:
                        await self._write_batch([item])
                    except INTEGRITY:
                        item.done.set_exception(VersionConflict(item.table_id))
                    except Exception as e1:
                        item.done.set_exception(e1)

    async def _write_batch(self, batch: list[Pending]) -> None:
        now = time.time()
        if self._sqlite_writer is not None:
            # SQLite: the whole transaction in one hop to the writer's thread, on a plain
            # (blocking) connection: a transaction through the asyncio driver costs a thread
            # hop and an event-loop wake-up per driver call (bench/RESULTS.md, 2026-12-04)
            async with self._writing():
                won = await self._sqlite_writer.commit(batch, now)
        elif self._pg_writer is not None:
            won = await self._pg_writer.commit(batch, now)
        else:
            async with self.engine.begin() as conn:
                won = await conn.run_sync(apply_batch, batch, now)
        kept = {id(i) for i in won}
        for item in batch:
            if not item.done.done():
                if id(item) in kept:
                    item.done.set_result(now)
                elif item.lost:
                    item.done.set_exception(self.lease_lost(item.table_id))
                else:
                    item.done.set_exception(VersionConflict(item.table_id))

    async def set_rematch(self, table_id: str, rematch: TableRow) -> str:
        """Create ``rematch`` as the rematch of ``table_id`` unless one exists; the id of the
        rematch table either way."""
        async with self.under_lease(table_id) as conn:
            res = await conn.execute(
                update(game_tables)
                .where(and_(game_tables.c.id == table_id, game_tables.c.rematch_id.is_(None)))
                .values(rematch_id=rematch.id))
            if res.rowcount == 1:
                await self._insert_table(conn, rematch)
                return rematch.id
            r = (await conn.execute(select(game_tables.c.rematch_id)
                                    .where(game_tables.c.id == table_id))).first()
            assert r is not None and r.rematch_id is not None
            return str(r.rematch_id)

    async def my_tables(self, hashes: Sequence[str]) -> list[dict[str, object]]:
        """The seats of these token hashes, as ``player_tables`` gives a player's."""
        if not hashes:
            return []
        return await self.seats_with_tables(seats.c.token_hash.in_(list(hashes)))


class _NullLock:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None
