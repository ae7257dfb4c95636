"""The group commit's writing (the store's queue is in ``store.py``): the actions of many
tables that arrive together are written in one transaction and acknowledged after it.

A batch keeps only the actions whose table is still at the version they expect (one action a
version; the rest lost to another writer).  On PostgreSQL the transaction runs on a plain
asyncpg connection (``pg_writer.PgWriter``; through SQLAlchemy, ``apply_batch``, for any
other driver); on SQLite, whole in one thread of its own on a plain ``sqlite3`` connection
(``SqliteWriter``), with the statements SQLAlchemy compiles from the schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from asyncpg.exceptions import UniqueViolationError
from sqlalchemy import Connection, and_, bindparam, select, update
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

from taash.server.store.leases import Lease, held_in_batch
from taash.server.store.schema import actions, game_tables, table_leases

log = logging.getLogger("taash.server")

BUMP = (update(game_tables)
        .where(and_(game_tables.c.id == bindparam("tid"),
                    game_tables.c.version == bindparam("expected")))
        .values(version=bindparam("new_version"), updated=bindparam("now"),
                to_move=bindparam("tm"), over=bindparam("ov")))

# a row the database refuses (a client id used twice): SQLAlchemy's, sqlite3's from the
# SQLite writer, or asyncpg's from the PostgreSQL writer
INTEGRITY = (IntegrityError, sqlite3.IntegrityError, UniqueViolationError)


@dataclass(eq=False)
class Pending:
    """An action waiting for the group commit; ``done`` gets the commit's time, or
    the error."""

    table_id: str
    expected: int
    seat: int
    action: str
    client_id: str | None
    events: str
    to_move: int | None
    over: bool
    done: asyncio.Future[float]
    #: the table's lease this write is made under (None: no owner per table); ``lost``: the
    #: batch found it taken by another instance (LeaseLost, nothing written)
    lease: Lease | None = None
    lost: bool = False


def _fenced(batch: list[Pending], held: set[str]) -> list[Pending]:
    """The batch less the actions whose lease is not held any more (marked ``lost``)."""
    kept = []
    for item in batch:
        if item.lease is not None and item.table_id not in held:
            item.lost = True
        else:
            kept.append(item)
    return kept


def apply_batch(conn: Connection, batch: list[Pending], now: float) -> list[Pending]:
    """Write a group commit's actions in ``conn``'s transaction; those whose table was still at
    the version expected (the rest lost to another writer).  Three round trips for the whole
    batch: lock the tables' rows (in id order, so two instances never deadlock), keep the
    actions whose version is still the one expected, bump those tables and insert those
    actions; one more, first, where the actions are written under leases: the actions whose
    lease was taken since are left out (``lost``), by the database's word."""
    leases = [i.lease for i in batch if i.lease is not None]
    if leases:
        batch = _fenced(batch, held_in_batch(conn, leases))
    if not batch:
        return []
    ids = sorted({i.table_id for i in batch})
    found = conn.execute(
        select(game_tables.c.id, game_tables.c.version)
        .where(game_tables.c.id.in_(ids)).order_by(game_tables.c.id).with_for_update())
    won = _winners(batch, {str(r.id): int(r.version) for r in found})
    if won:
        conn.execute(BUMP, _bump_params(won, now))
        conn.execute(actions.insert(), _action_rows(won, now))
    return won


def _winners(batch: list[Pending], current: dict[str, int]) -> list[Pending]:
    """The actions whose table is still at the version they expect (``current``: each
    table's version now), one action per version."""
    won: list[Pending] = []
    for item in batch:
        if current.get(item.table_id) == item.expected:
            won.append(item)
            current[item.table_id] = item.expected + 1
    return won


def _bump_params(won: list[Pending], now: float) -> list[dict[str, object]]:
    return [{"tid": i.table_id, "expected": i.expected, "new_version": i.expected + 1,
             "now": now, "tm": i.to_move, "ov": i.over} for i in won]


def _action_rows(won: list[Pending], now: float) -> list[dict[str, object]]:
    return [{"table_id": i.table_id, "version": i.expected + 1, "seat": i.seat,
             "action": i.action, "client_id": i.client_id, "events": i.events,
             "created": now} for i in won]


def _positional(stmt: ClauseElement) -> tuple[str, list[str]]:
    """A statement's SQLite text and the order of its parameters' names."""
    c = stmt.compile(dialect=sqlite_dialect())
    assert isinstance(c, SQLCompiler)  # a statement's compiler (positiontup is its)
    return str(c), list(c.positiontup or [])


class _Cursor(Protocol):
    def execute(self, sql: str, /) -> object: ...

    def close(self) -> object: ...


class _Connection(Protocol):
    """What the pragmas need of a DB-API connection (sqlite3's, or SQLAlchemy's adapted
    aiosqlite one that its "connect" event hands over)."""

    def cursor(self) -> _Cursor: ...


def sqlite_pragmas(dbapi_conn: _Connection, _record: object = None) -> None:
    """Every SQLite connection's settings (the engine's and the writer's)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # committed means on disk
    cur.execute("PRAGMA busy_timeout=10000")
    # a commit that takes the log past 1000 pages copies it back (passive); the log's size is
    # bounded by the store's checkpoints, which truncate it between writes
    cur.execute("PRAGMA wal_autocheckpoint=1000")
    cur.close()


class SqliteWriter:
    """The group commit on SQLite: its own connection to the file, in one thread of its own,
    a batch's transaction in one hop there.  Plain ``sqlite3`` with the statements SQLAlchemy
    compiles from the schema (``BUMP``, the actions' insert): through SQLAlchemy's engine the
    same transaction cost 4x the CPU, held under the GIL that the event loop needs
    (bench/RESULTS.md, 2026-12-04).  Same rules as ``apply_batch``.  The caller holds the
    store's write lock around each call."""

    BUMP, BUMP_KEYS = _positional(BUMP)
    INSERT, INSERT_KEYS = _positional(actions.insert().values(
        {k: bindparam(k) for k in ("table_id", "version", "seat", "action", "client_id",
                                   "events", "created")}))
    FIND = (f"SELECT {game_tables.c.id.name}, {game_tables.c.version.name} "
            f"FROM {game_tables.name} WHERE {game_tables.c.id.name} IN ")
    LEASES = (f"SELECT {table_leases.c.table_id.name}, {table_leases.c.owner.name}, "
              f"{table_leases.c.fence.name} FROM {table_leases.name} "
              f"WHERE {table_leases.c.table_id.name} IN ")

    def __init__(self, path: str, wal_limit: int) -> None:
        self.path = path
        self.wal = f"{path}-wal"
        self.wal_limit = wal_limit
        self.truncated = 0  # TRUNCATE checkpoints made here
        self.conn: sqlite3.Connection | None = None
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="taash-sqlite-writer")

    async def commit(self, batch: list[Pending], now: float) -> list[Pending]:
        """Write the batch; the actions that won their version."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, self._commit,
                                                                batch, now)

    async def truncate(self) -> None:
        """Copy the write-ahead log back and empty it (between two batches)."""
        await asyncio.get_running_loop().run_in_executor(self.pool, self._truncate)

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None:
            self.conn = sqlite3.connect(self.path, isolation_level=None,
                                        check_same_thread=False)
            sqlite_pragmas(self.conn)
        return self.conn

    def _commit(self, batch: list[Pending], now: float) -> list[Pending]:
        c = self._connection()
        c.execute("BEGIN IMMEDIATE")  # the file's one writer until COMMIT: leases included
        try:
            want = {i.lease.table_id: (i.lease.owner, i.lease.fence)
                    for i in batch if i.lease is not None}
            if want:
                found = c.execute(self.LEASES + f"({','.join('?' * len(want))})", list(want))
                batch = _fenced(batch, {t for t, o, f in found if want.get(t) == (o, f)})
            ids = sorted({i.table_id for i in batch})
            won = _winners(batch, dict(
                c.execute(self.FIND + f"({','.join('?' * len(ids))})", ids)))
            if won:
                c.executemany(self.BUMP, [[b[k] for k in self.BUMP_KEYS]
                                          for b in _bump_params(won, now)])
                c.executemany(self.INSERT, [[r[k] for k in self.INSERT_KEYS]
                                            for r in _action_rows(won, now)])
            c.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                c.execute("ROLLBACK")
            raise
        # at thousands of actions a second the log grows by megabytes between two looks of
        # the store's periodic checkpoint: past its limit it is emptied now
        try:
            over = os.path.getsize(self.wal) > self.wal_limit
        except OSError:
            over = False
        if over:
            try:
                self._truncate()
            except sqlite3.Error as e:
                log.warning("checkpoint: %s", e)
        return won

    async def checkpoints(self, truncate: Callable[[], Awaitable[None]], every: float,
                          truncate_every: float) -> None:
        """Keep the write-ahead log bounded under load.  A passive checkpoint (the automatic
        one too) copies the log back but never restarts it while writes keep coming, so
        under steady writes the log only grows; so now and then (``truncate_every`` seconds,
        or as soon as it is over ``wal_limit`` bytes) ``truncate`` runs (the store's: a
        TRUNCATE checkpoint between two batches of writes, holding the write lock)."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(every)
            try:
                size = os.path.getsize(self.wal) if os.path.exists(self.wal) else 0
                if size == 0:
                    continue
                if size > self.wal_limit or time.monotonic() - last > truncate_every:
                    await truncate()
                    last = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("checkpoint: %s", e)

    def _truncate(self) -> None:
        c = self._connection()
        # readers are short: wait for them a little, not the writers' 10 s
        c.execute("PRAGMA busy_timeout=2000")
        try:
            busy = c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            c.execute("PRAGMA busy_timeout=10000")
        if busy and busy[0]:
            log.info("checkpoint: busy, the log is truncated later")
        else:
            self.truncated += 1

    async def close(self) -> None:
        def shut() -> None:
            if self.conn is not None:
                self.conn.close()
                self.conn = None

        await asyncio.get_running_loop().run_in_executor(self.pool, shut)
        self.pool.shutdown(wait=False)
