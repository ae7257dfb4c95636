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
import os
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from typing import Any

from sqlalchemy import Connection, and_, event, func, select, text, true, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from taash.games.base import Json
from taash.server.store.group_commit import (
    INTEGRITY,
    Pending,
    SqliteWriter,
    apply_batch,
    sqlite_pragmas,
)
from taash.server.store.players import PlayerQueries
from taash.server.store.schema import (
    ActionRow,
    FairRow,
    PlayerRow,
    SeatRow,
    SessionRow,
    TableRow,
    actions,
    analyses,
    fair_deals,
    game_tables,
    metadata,
    push_subscriptions,
    seat_row_of,
    seats,
    table_row_of,
)

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
    from alembic import command
    from alembic.config import Config

    if conn.dialect.name == "postgresql":
        # several instances starting at once: one migrates, the others wait and find it done
        conn.execute(text("SELECT pg_advisory_xact_lock(724301)"))
    cfg = Config()
    cfg.set_main_option("script_location", migrations_path())
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, "head")


class Store(PlayerQueries):
    """Async access to the database; one per server process."""

    def __init__(self, url: URL, wal_limit: int = 16 * 1024 * 1024) -> None:
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
        # SQLite has one writer at a time: queue writers here rather than in SQLITE_BUSY
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._pending: list[Pending] = []
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
        """Keep SQLite's write-ahead log bounded under load.  A passive checkpoint (the
        automatic one too) copies the log back but never restarts it while writes keep coming,
        so under steady writes the log only grows; so now and then (``truncate_every``
        seconds, or as soon as it is over ``wal_limit`` bytes) a TRUNCATE checkpoint runs
        between two batches of writes, holding the write lock, and empties it."""

        wal = f"{self.url.database}-wal"
        last = time.monotonic()
        while True:
            await asyncio.sleep(every)
            try:
                size = os.path.getsize(wal) if os.path.exists(wal) else 0
                if size == 0:
                    continue
                if size > self.wal_limit or time.monotonic() - last > truncate_every:
                    await self._truncate_wal()
                    last = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("checkpoint: %s", e)

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
        if self._sqlite_writer is not None:
            await self._sqlite_writer.close()

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
            pass_and_play=t.pass_and_play))
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
        async with self._writing(), self.engine.begin() as conn:
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
                            client_id: str | None, events: Sequence[Mapping[str, Json]],
                            to_move: int | None, over: bool) -> float:
        """Commit action number ``expected + 1``; VersionConflict if another writer took it
        (or this seat already used ``client_id``).  Returns the commit time.

        Actions of many tables arriving together are committed in one transaction (group
        commit): one disk flush for all of them, each still checked on its own."""
        item = Pending(table_id, expected, seat, action, client_id, json.dumps(events),
                        to_move, over, asyncio.get_running_loop().create_future())
        self._pending.append(item)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="taash-writer")
        return await item.done

    async def _write_loop(self) -> None:
        while self._pending:
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
        else:
            async with self.engine.begin() as conn:
                won = await conn.run_sync(apply_batch, batch, now)
        kept = {id(i) for i in won}
        for item in batch:
            if not item.done.done():
                if id(item) in kept:
                    item.done.set_result(now)
                else:
                    item.done.set_exception(VersionConflict(item.table_id))

    async def update_seat(self, table_id: str, seat: int, *, only_unclaimed: bool = False,
                          **values: str | int | bool | None) -> bool:
        """Change a seat's fields; with ``only_unclaimed``, only a human seat nobody has
        claimed.  True if a row changed."""
        cond = and_(seats.c.table_id == table_id, seats.c.seat == seat)
        if only_unclaimed:
            cond = and_(cond, seats.c.type == "human", seats.c.claimed.is_(False))
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(update(seats).where(cond).values(**values))
            return bool(res.rowcount == 1)

    async def claim_seat(self, table_id: str, seat: int, token_hash: str, new_hash: str,
                         player_id: str, name: str | None) -> bool:
        """Give the human seat whose token is ``token_hash`` to the player, with a new token,
        the old one spent; False if its token is another now or another player has it."""
        async with self._writing(), self.engine.begin() as conn:
            values: dict[str, str | bool] = {"token_hash": new_hash, "spent_hash": token_hash,
                                             "player_id": player_id, "claimed": True}
            if name is not None:
                values["name"] = name
            res = await conn.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat,
                            seats.c.type == "human", seats.c.token_hash == token_hash,
                            seats.c.player_id.is_(None) | (seats.c.player_id == player_id)))
                .values(**values))
            return bool(res.rowcount == 1)

    async def spent_seat(self, token_hash: str) -> tuple[str, int, str | None] | None:
        """The seat claimed with this (spent) invite token: table, seat, its player."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(seats.c.table_id, seats.c.seat, seats.c.player_id)
                                    .where(seats.c.spent_hash == token_hash))).first()
            return None if r is None else (str(r.table_id), int(r.seat), r.player_id)

    async def set_rematch(self, table_id: str, rematch: TableRow) -> str:
        """Create ``rematch`` as the rematch of ``table_id`` unless one exists; the id of the
        rematch table either way."""
        async with self._writing(), self.engine.begin() as conn:
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

    async def seat_by_token(self, token_hash: str) -> tuple[str, int] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(seats.c.table_id, seats.c.seat)
                                    .where(seats.c.token_hash == token_hash))).first()
            return None if r is None else (str(r.table_id), int(r.seat))

    async def my_tables(self, hashes: Sequence[str]) -> list[dict[str, Json]]:
        """The seats of these token hashes, as ``player_tables`` gives a player's."""
        if not hashes:
            return []
        return await self.seats_with_tables(seats.c.token_hash.in_(list(hashes)))

    async def lobby(self, limit: int = 100) -> list[tuple[TableRow, list[int]]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(game_tables, seats.c.seat)
                .join(seats, seats.c.table_id == game_tables.c.id)
                .where(and_(game_tables.c.open.is_(True), game_tables.c.over.is_(False),
                            seats.c.type == "human", seats.c.claimed.is_(False)))
                .order_by(game_tables.c.created.desc(), seats.c.seat))
            out: dict[str, tuple[TableRow, list[int]]] = {}
            for r in rows:
                if r.id not in out:
                    if len(out) >= limit:
                        break
                    out[r.id] = (table_row_of(r), [])
                out[r.id][1].append(r.seat)
            return list(out.values())

    # -- notifications and the sweeper --------------------------------------------------------
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
                               game_tables.c.updated < now - stalled_s, recent)))
            timer = (select(game_tables.c.id)
                     .where(and_(game_tables.c.over.is_(False),
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

def _push_for_seat() -> Any:
    """The seat row has a Web Push subscription of its own or of its player's (0007)."""
    ps = push_subscriptions
    return select(ps.c.id).where(
        ((ps.c.table_id == seats.c.table_id) & (ps.c.seat == seats.c.seat))
        | (ps.c.scope == "p:" + seats.c.player_id)).exists()


class _NullLock:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None
