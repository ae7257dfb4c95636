"""Looking after a server's database: upgrade it, back it up, restore it, copy it from SQLite
to PostgreSQL, and check it by replaying every table through the rules core.

A check replays each table from its stored rows (its seed or fair-deal secrets, then every
action in version order) exactly as the server does when it loads a table, so a table that
replays here plays on a server; the copy is checked by row counts and by replaying every table
on both sides to the same record.  Nothing here holds a lock on a live server: SQLite's online
backup copies a consistent snapshot while the server writes, ``pg_dump`` takes a snapshot too.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Table, func, select, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from taash.games.base import RecordError
from taash.server.config import ConfigError, normalize_db_url
from taash.server.store.db import Store, migrations_path
from taash.server.store.schema import game_tables, metadata
from taash.server.tables.match import build_match, deal_next, fair_record, fork

BATCH = 1000
Progress = Callable[[str], None]


class OpsError(Exception):
    """A database task that cannot be done as asked (one clear line for the user)."""


def _quiet(_: str) -> None:
    return None


def db_url(text_url: str) -> URL:
    try:
        return normalize_db_url(text_url)
    except ConfigError as e:
        raise OpsError(str(e)) from None


def _libpq(url: URL) -> str:
    """The URL ``pg_dump``/``pg_restore`` understand (no SQLAlchemy driver name)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _sqlite_file(url: URL) -> Path:
    assert url.database is not None
    return Path(url.database).expanduser()


async def revision(url: URL) -> str | None:
    """The database's migration revision (None: no taash schema there yet)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            has = await conn.run_sync(
                lambda c: c.dialect.has_table(c, "alembic_version"))
            if not has:
                return None
            row = (await conn.execute(text("SELECT version_num FROM alembic_version"))).first()
            return None if row is None else str(row[0])
    finally:
        await engine.dispose()


def head_revision() -> str:
    cfg = Config()
    cfg.set_main_option("script_location", migrations_path())
    found = ScriptDirectory.from_config(cfg).get_current_head()
    assert found is not None
    return found


async def upgrade(url: URL) -> tuple[str | None, str]:
    """Take the database to the newest schema (what a server does at start): (before, after)."""
    before = await revision(url)
    store = Store(url)
    try:
        await store.migrate()
    finally:
        await store.close()
    return before, head_revision()


# -- checking by replay ---------------------------------------------------------------------

@dataclass
class TableCheck:
    id: str
    game: str
    actions: int
    over: bool
    record: object = None  # the full record the table replays to (as JSON reads it back)
    error: str | None = None


class Failed(TypedDict):
    table: str
    error: str | None


class ReportJson(TypedDict):
    """What ``taash db check`` prints: tables and actions replayed, those that failed, and
    the rows of each table of the database."""

    tables: int
    over: int
    actions: int
    failed: list[Failed]
    rows: dict[str, int]


@dataclass
class Report:
    tables: list[TableCheck] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def failed(self) -> list[TableCheck]:
        return [t for t in self.tables if t.error is not None]

    def as_json(self) -> ReportJson:
        return {"tables": len(self.tables), "over": sum(t.over for t in self.tables),
                "actions": sum(t.actions for t in self.tables),
                "failed": [{"table": t.id, "error": t.error} for t in self.failed],
                "rows": dict(self.counts)}


async def replay_table(store: Store, table_id: str) -> TableCheck:
    """Rebuild one table from its rows as the server does; its full record, or the error."""
    t = await store.load_table(table_id)
    if t is None:
        return TableCheck(table_id, "?", 0, False, error="no such table")
    rows = await store.load_actions(table_id)
    check = TableCheck(t.id, t.game, len(rows), t.over)
    try:
        state = build_match(t)
        for n, r in enumerate(rows, start=1):
            if r.version != n:
                raise RecordError(f"action version {r.version} where {n} was due")
            state = fork(state)
            state.apply(r.seat, r.action)
            deal_next(t, state)
        if state.is_over() != t.over:
            raise RecordError(f"the table says over={t.over}, its actions say "
                              f"over={state.is_over()}")
        rec = dict(state.record())
        fair_record(t, rec)
        check.record = json.loads(json.dumps(rec))
    except (RecordError, ValueError, KeyError) as e:
        check.error = str(e) or type(e).__name__
    return check


async def _counts(engine: AsyncEngine, tables: Sequence[Table]) -> dict[str, int]:
    out: dict[str, int] = {}
    async with engine.connect() as conn:
        for tbl in tables:
            out[tbl.name] = int((await conn.execute(select(func.count()).select_from(tbl)))
                                .scalar_one())
    return out


async def _table_ids(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as conn:
        rows = await conn.execute(select(game_tables.c.id).order_by(game_tables.c.created,
                                                                   game_tables.c.id))
        return [r[0] for r in rows]


async def check(url: URL, progress: Progress = _quiet) -> Report:
    """Replay every table of a database (at the newest schema) through the rules core."""
    rev = await revision(url)
    if rev is None:
        raise OpsError("no taash database there (no schema): nothing to check")
    if rev != head_revision():
        raise OpsError(f"the database is at revision {rev}, this taash at {head_revision()}: "
                       "run `taash db upgrade` first")
    store = Store(url)
    report = Report()
    try:
        report.counts = await _counts(store.engine, metadata.sorted_tables)
        ids = await _table_ids(store.engine)
        for i, tid in enumerate(ids, start=1):
            report.tables.append(await replay_table(store, tid))
            if i % 100 == 0 or i == len(ids):
                progress(f"replayed {i} of {len(ids)} tables")
    finally:
        await store.close()
    return report


# -- copying --------------------------------------------------------------------------------

async def copy(source: URL, target: URL, progress: Progress = _quiet) -> Report:
    """Copy every row of every table from ``source`` to an empty ``target`` (made at the
    newest schema), then check: the same row counts, and every table replays to the same
    record on both sides.  The source is only read."""
    if source.render_as_string(hide_password=False) == target.render_as_string(
            hide_password=False):
        raise OpsError("the source and the target are the same database")
    head = head_revision()
    rev = await revision(source)
    if rev is None:
        raise OpsError("the source holds no taash database")
    if rev != head:
        raise OpsError(f"the source is at revision {rev}, this taash at {head}: run "
                       "`taash db upgrade --db SOURCE` first (or copy with the taash that "
                       "made it)")
    await upgrade(target)
    src = create_async_engine(source)
    dst = Store(target)
    try:
        filled = {k: v for k, v in (await _counts(dst.engine, metadata.sorted_tables)).items()
                  if v}
        if filled:
            raise OpsError("the target is not empty (" + ", ".join(
                f"{k}: {v} rows" for k, v in sorted(filled.items())) + "): copy into a new "
                "database")
        for tbl in metadata.sorted_tables:
            done = 0
            async with src.connect() as sconn:
                result = await sconn.stream(select(tbl))
                async for part in result.partitions(BATCH):
                    rows = [dict(r._mapping) for r in part]
                    async with dst.engine.begin() as dconn:
                        await dconn.execute(tbl.insert(), rows)
                    done += len(rows)
            progress(f"copied {tbl.name}: {done} rows")
        want = await _counts(src, metadata.sorted_tables)
        got = await _counts(dst.engine, metadata.sorted_tables)
        if want != got:
            bad = {k: (want[k], got.get(k)) for k in want if want[k] != got.get(k)}
            raise OpsError(f"row counts differ after the copy (source, target): {bad}")
    finally:
        await src.dispose()
        await dst.close()
    progress("checking: replaying every table on both sides")
    before = await check(source)
    after = await check(target, progress)
    theirs = {t.id: t for t in before.tables}
    for t in after.tables:
        s = theirs.get(t.id)
        if t.error is None and (s is None or s.record != t.record):
            t.error = "replays to a different record than the source"
    return after


# -- backups --------------------------------------------------------------------------------

def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise OpsError(f"{name} not found: install PostgreSQL's client tools "
                       "(Debian: apt install postgresql-client)")
    return found


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()
        raise OpsError(f"{Path(cmd[0]).name} failed: {last[-1] if last else done.returncode}")


def _sqlite_integrity(path: Path) -> None:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            ok = conn.execute("PRAGMA integrity_check").fetchone()
            has = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = "
                               "'alembic_version'").fetchone()
    except sqlite3.DatabaseError as e:
        raise OpsError(f"{path} is not a SQLite database: {e}") from None
    if ok is None or ok[0] != "ok":
        raise OpsError(f"{path} fails SQLite's integrity check: {ok}")
    if not has or not has[0]:
        raise OpsError(f"{path} holds no taash database")


def _sqlite_copy(src: Path, dst: Path) -> None:
    """SQLite's online backup: a consistent copy while a server goes on writing."""
    with sqlite3.connect(f"file:{src}?mode=ro", uri=True) as s, sqlite3.connect(dst) as d:
        s.backup(d, pages=1024)
    with sqlite3.connect(dst) as d:  # a backup is one file, not a file and its log
        d.execute("PRAGMA journal_mode=DELETE")


def backup(url: URL, path: Path, *, force: bool = False) -> str:
    """Write a backup of the database to ``path``; what kind it is, in words."""
    if path.exists() and not force:
        raise OpsError(f"{path} exists: give another path or --force")
    if not path.parent.is_dir():
        raise OpsError(f"folder {path.parent} does not exist")
    if url.get_backend_name() == "sqlite":
        src = _sqlite_file(url)
        if not src.is_file():
            raise OpsError(f"no database at {src}")
        tmp = path.with_name(path.name + ".part")
        tmp.unlink(missing_ok=True)
        try:
            _sqlite_copy(src, tmp)
            _sqlite_integrity(tmp)
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
        return "SQLite database file"
    _run([_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(path),
          _libpq(url)])
    return "PostgreSQL custom-format dump (pg_restore reads it)"


async def _is_empty(url: URL) -> bool:
    if await revision(url) is None:
        return True
    engine = create_async_engine(url)
    try:
        counts = await _counts(engine, [game_tables])
    finally:
        await engine.dispose()
    return counts["game_tables"] == 0


def restore(path: Path, url: URL, *, force: bool = False) -> tuple[str | None, str]:
    """Restore a backup made by ``backup`` into the database at ``url`` (which must be empty
    unless ``force``), then take it to the newest schema: (its revision, head)."""
    if not path.is_file():
        raise OpsError(f"no backup at {path}")
    if not force and not asyncio.run(_is_empty(url)):
        raise OpsError("the database to restore into holds tables: give an empty one, or "
                       "--force to replace what is there")
    if url.get_backend_name() == "sqlite":
        _sqlite_integrity(path)
        dst = _sqlite_file(url)
        for extra in (dst.with_name(dst.name + "-wal"), dst.with_name(dst.name + "-shm")):
            extra.unlink(missing_ok=True)
        tmp = dst.with_name(dst.name + ".part")
        tmp.unlink(missing_ok=True)
        _sqlite_copy(path, tmp)
        tmp.replace(dst)
    else:
        with path.open("rb") as f:
            if f.read(5) != b"PGDMP":
                raise OpsError(f"{path} is not a PostgreSQL custom-format dump")
        _run([_pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner",
              "--single-transaction", "--dbname", _libpq(url), str(path)])
    before, after = asyncio.run(upgrade(url))
    return before, after


def describe(url: URL) -> str:
    return url.render_as_string(hide_password=True)

