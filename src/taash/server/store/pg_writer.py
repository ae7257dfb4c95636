"""The group commit on PostgreSQL (``store.py``'s queue hands it each batch): a plain asyncpg
connection of its own, no SQLAlchemy; the usual batch (each table once) in one statement and
one round trip (``ONE``), any other in a transaction of four or five (the leases, the tables'
rows, the write, commit).

Through SQLAlchemy's engine the same transaction was six statements, each compiled, cached and
passed through a greenlet: at 1,000 live tables the database layer was 40 % of the server's
CPU (bench/RESULTS.md, 2026-12-07).  Same rules as ``group_commit.apply_batch``: the leases'
rows read ``FOR UPDATE`` (a takeover waits for the commit), the tables' rows locked in id
order (two instances never deadlock), only the actions whose table is still at the version
they expect written, each table bumped once to its last version in the batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from sqlalchemy.engine import URL

from taash.server.store.group_commit import Pending, _fenced, _winners
from taash.server.store.outage import unreachable_plain
from taash.server.store.schema import actions, game_tables, table_leases

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger("taash.server")

_L, _T, _A = table_leases.name, game_tables.name, actions.name

LEASES = (f"SELECT table_id, owner, fence FROM {_L} WHERE table_id = ANY($1::text[]) "
          "ORDER BY table_id FOR UPDATE")
FIND = f"SELECT id, version FROM {_T} WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE"
# the tables bumped (each once, to its batch's last version) and the actions inserted, in one
# statement: its parts see the same snapshot, and the rows were locked by FIND just before
WRITE = (
    f"WITH bump AS (UPDATE {_T} AS g SET version = u.last, updated = $6, to_move = u.tm, "
    "over = u.ov FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::bool[]) "
    "AS u(tid, expected, last, tm, ov) WHERE g.id = u.tid AND g.version = u.expected "
    "RETURNING g.id) "
    f"INSERT INTO {_A} (table_id, version, seat, action, client_id, events, created) "
    "SELECT a.tid, a.v, a.seat, a.act, a.cid, a.ev, $6 FROM unnest($7::text[], $8::int[], "
    "$9::int[], $10::text[], $11::text[], $12::text[]) AS a(tid, v, seat, act, cid, ev)")


# the usual batch (each table once: a room commits one action at a time) in ONE statement, its
# own transaction, one round trip instead of five.  Its parts run in this order because each
# needs the one before: the leases' rows locked in id order (``lk``, as the renewal locks
# them) and those not held any more found (``lost``); the batch less their actions (``a``);
# the tables' rows locked in id order (``t``, an InitPlan read to its end); each table bumped
# where it is still at the version expected (``bump``); those tables' actions inserted.  A row
# another transaction changed meanwhile is read again at its new version (PostgreSQL's rule
# for UPDATE and FOR UPDATE under READ COMMITTED): a lease taken since, or a version moved on,
# loses as it would in ``commit``'s transaction.
ONE = (
    f"WITH lk AS (SELECT table_id, owner, fence FROM {_L} WHERE table_id = ANY($1::text[]) "
    "ORDER BY table_id FOR UPDATE), "
    "lost AS (SELECT w.tid FROM unnest($1::text[], $2::text[], $3::bigint[]) "
    "AS w(tid, owner, fence) LEFT JOIN lk ON lk.table_id = w.tid AND lk.owner = w.owner "
    "AND lk.fence = w.fence WHERE lk.table_id IS NULL), "
    "a AS (SELECT * FROM unnest($4::text[], $5::int[], $6::int[], $7::text[], $8::text[], "
    "$9::text[], $10::int[], $11::bool[]) AS a(tid, expected, seat, act, cid, ev, tm, ov) "
    "WHERE a.tid NOT IN (SELECT tid FROM lost)), "
    f"t AS (SELECT id FROM {_T} WHERE id = ANY($4::text[]) ORDER BY id FOR UPDATE), "
    f"bump AS (UPDATE {_T} AS g SET version = a.expected + 1, updated = $12, to_move = a.tm, "
    "over = a.ov FROM a WHERE g.id = a.tid AND g.version = a.expected "
    "AND (SELECT count(*) FROM t) >= 0 RETURNING g.id), "
    f"ins AS (INSERT INTO {_A} (table_id, version, seat, action, client_id, events, created) "
    "SELECT a.tid, a.expected + 1, a.seat, a.act, a.cid, a.ev, $12 FROM a "
    "JOIN bump ON bump.id = a.tid RETURNING table_id) "
    "SELECT true AS won, table_id AS tid FROM ins UNION ALL SELECT false, tid FROM lost")


def _one_params(batch: list[Pending], now: float) -> list[object]:
    leased = [i for i in batch if i.lease is not None]
    return [[i.table_id for i in leased], [i.lease.owner for i in leased if i.lease],
            [i.lease.fence for i in leased if i.lease],
            [i.table_id for i in batch], [i.expected for i in batch], [i.seat for i in batch],
            [i.action for i in batch], [i.client_id for i in batch], [i.events for i in batch],
            [i.to_move for i in batch], [i.over for i in batch], now]


def dsn_of(url: URL) -> str:
    """asyncpg's address for SQLAlchemy's ``postgresql+asyncpg://`` URL (password kept)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _write_params(won: list[Pending], now: float) -> list[object]:
    first: dict[str, Pending] = {}
    last: dict[str, Pending] = {}
    for i in won:
        first.setdefault(i.table_id, i)
        last[i.table_id] = i
    tids = list(first)
    return [tids, [first[t].expected for t in tids], [last[t].expected + 1 for t in tids],
            [last[t].to_move for t in tids], [last[t].over for t in tids], now,
            [i.table_id for i in won], [i.expected + 1 for i in won], [i.seat for i in won],
            [i.action for i in won], [i.client_id for i in won], [i.events for i in won]]


def pg_writer_for(url: URL) -> PgWriter | None:
    """The group commit's writer for a PostgreSQL database reached through asyncpg (None:
    another database, written through SQLAlchemy or SQLite's own writer)."""
    if url.get_backend_name() == "postgresql" and url.get_driver_name() == "asyncpg":
        return PgWriter(url)
    return None


class PgWriter:
    """One connection, one batch at a time (the store's write loop runs one); a connection
    that failed is dropped and the next batch connects anew, so a PostgreSQL restart needs no
    restart here."""

    def __init__(self, url: URL, connect_timeout: float = 10.0) -> None:
        self.dsn = dsn_of(url)
        self.connect_timeout = connect_timeout
        self.conn: asyncpg.Connection | None = None

    async def _connection(self) -> asyncpg.Connection:
        if self.conn is None or self.conn.is_closed():
            import asyncpg

            self.conn = await asyncpg.connect(self.dsn, timeout=self.connect_timeout)
        return self.conn

    async def commit(self, batch: list[Pending], now: float) -> list[Pending]:
        """Write the batch; the actions that won their version.  A client id used twice
        raises asyncpg's UniqueViolationError (``group_commit.INTEGRITY``), nothing
        written."""
        conn = await self._connection()
        try:
            if len({i.table_id for i in batch}) == len(batch):
                return await self._one(conn, batch, now)
            async with conn.transaction():
                want = {i.lease.table_id: (i.lease.owner, i.lease.fence)
                        for i in batch if i.lease is not None}
                if want:
                    rows = await conn.fetch(LEASES, sorted(want))
                    batch = _fenced(batch, {r["table_id"] for r in rows
                                            if want.get(r["table_id"]) == (r["owner"],
                                                                           r["fence"])})
                if not batch:
                    return []
                ids = sorted({i.table_id for i in batch})
                found = await conn.fetch(FIND, ids)
                won = _winners(batch, {r["id"]: r["version"] for r in found})
                if won:
                    await conn.execute(WRITE, *_write_params(won, now))
            return won
        except asyncio.CancelledError:
            # cut short mid-transaction: the connection's state is unknown, so it goes
            self._drop()
            raise
        except Exception as e:
            if conn.is_closed() or unreachable_plain(e):
                self._drop()
                if not unreachable_plain(e):  # e.g. "connection is closed": unavailable
                    raise ConnectionResetError(f"the database connection failed: {e}") from e
            raise

    @staticmethod
    async def _one(conn: asyncpg.Connection, batch: list[Pending], now: float) -> list[Pending]:
        rows = await conn.fetch(ONE, *_one_params(batch, now))
        won = {r["tid"] for r in rows if r["won"]}
        lost = {r["tid"] for r in rows if not r["won"]}
        for i in batch:
            if i.table_id in lost:
                i.lost = True
        return [i for i in batch if i.table_id in won]

    def _drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()

    async def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=2)
