"""`taash backup`, `taash restore`, `taash db copy | check | upgrade` on real databases: a
SQLite server under play is backed up, restored into a fresh file and replayed to the same
summaries; the SQLite database is copied to PostgreSQL and plays on there; bad asks are one
line and change nothing."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taash.record import verify
from taash.server.ops.db import check, db_url
from tests.server.conftest import PG_ADMIN, _admin
from tests.server.helpers import Api, Server, pick_actor, tokens_of

SHORT = {"court-piece": {"session_end": {"deals": 1}}, "court-piece-2p": {"target": 1},
         "goat": {"target": 1}}
SEATS = {"court-piece": 4, "court-piece-2p": 2, "goat": 4}


def taash(*args: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TAASH_DATABASE_URL"}
    if db is not None:
        env["TAASH_DATABASE_URL"] = db
    return subprocess.run([sys.executable, "-m", "taash", *args], capture_output=True,
                          text=True, timeout=120, env=env, check=False)


def play(api: Api, table: str, tokens: dict[int, str], rng: random.Random,
         moves: int | None = None, stop: threading.Event | None = None) -> int:
    """Play the table's human seats with random legal actions (all of them, or ``moves``)."""
    done = 0
    while moves is None or done < moves:
        if stop is not None and stop.is_set():
            break
        views = {s: api.view(table, t) for s, t in tokens.items()}
        if any(v["over"] for v in views.values()):
            break
        picked = pick_actor(views, rng)
        if picked is None:
            continue
        seat, action = picked
        r = api.act(table, tokens[seat], action, version=views[seat]["version"])
        assert r.status_code in (200, 409), r.text
        done += r.status_code == 200
    return done


Played = tuple[Server, Api, dict[str, Any]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A SQLite server with a finished table of each game and one table half played."""
    folder = tmp_path_factory.mktemp("ops")
    srv = Server(f"sqlite+aiosqlite:///{folder / 'live.db'}", "--bot-delay", "0").start()
    api = Api(srv.base)
    rng = random.Random(7)
    tables: dict[str, Any] = {"finished": [], "half": None}
    for game in SHORT:
        t = api.create(game, SHORT[game], [{"type": "human"}] * SEATS[game])
        play(api, t["id"], tokens_of(t), rng)
        tables["finished"].append(t["id"])
    half = api.create("court-piece-2p", {"target": 3}, [{"type": "human"}] * 2)
    play(api, half["id"], tokens_of(half), rng, moves=9)
    tables["half"] = half
    yield srv, api, tables
    api.close()
    srv.stop()


async def summaries(url: str) -> dict[str, dict[str, Any]]:
    report = await check(db_url(url))
    assert not report.failed, report.failed
    return {t.id: verify(t.record) for t in report.tables if t.record is not None}


@pytest.mark.slow
async def test_a_backup_taken_under_play_restores_and_replays_to_the_same_summaries(
        played: Played, tmp_path: Path) -> None:
    srv, api, tables = played
    assert srv.db is not None
    busy = api.create("goat", {"target": 3}, [{"type": "human"}] * 4)
    stop = threading.Event()
    worker = threading.Thread(target=play, args=(Api(srv.base), busy["id"], tokens_of(busy),
                                                 random.Random(3), None, stop))
    worker.start()
    try:
        backups = []
        for i in range(2):  # while the other thread goes on playing
            path = tmp_path / f"b{i}.db"
            r = taash("backup", str(path), db=srv.db)
            assert r.returncode == 0, r.stderr
            assert "backed up" in r.stdout
            backups.append(path)
    finally:
        stop.set()
        worker.join(60)
    for path in backups:
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        fresh = f"sqlite+aiosqlite:///{tmp_path / ('restored-' + path.name)}"
        r = taash("restore", str(path), db=fresh)
        assert r.returncode == 0, r.stderr
        r = taash("db", "check", "--json", db=fresh)
        assert r.returncode == 0, r.stdout + r.stderr
        got = await summaries(fresh)
        for tid in tables["finished"]:
            assert got[tid] == verify(api.record(tid))


@pytest.mark.slow
@pytest.mark.postgres
async def test_db_copy_to_postgresql_moves_everything_and_the_table_plays_on(
        played: Played, pg_url: str) -> None:
    srv, api, tables = played
    assert srv.db is not None
    r = taash("db", "copy", "--from", srv.db, "--to", pg_url, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "copied actions:" in r.stderr
    want = await summaries(srv.db)
    copied = await summaries(pg_url)
    assert copied == {k: want[k] for k in copied}
    for tid in tables["finished"]:
        assert copied[tid] == verify(api.record(tid))
    # copying again into the same (now full) database is refused, nothing written
    again = taash("db", "copy", "--from", srv.db, "--to", pg_url)
    assert again.returncode == 2
    assert again.stderr.startswith("taash: the target is not empty")
    assert "Traceback" not in again.stderr
    # the half-played table goes on with its old tokens on a server on PostgreSQL
    half = tables["half"]
    pg = Server(pg_url, "--bot-delay", "0").start()
    other = Api(pg.base)
    try:
        toks = tokens_of(half)
        before = other.view(half["id"], toks[0])["version"]
        assert play(other, half["id"], toks, random.Random(1), moves=3) == 3
        assert other.view(half["id"], toks[0])["version"] == before + 3
    finally:
        other.close()
        pg.stop()  # was left running to the end of the session
        pg.stop()


@pytest.mark.slow
@pytest.mark.postgres
async def test_postgresql_backup_and_restore_with_pg_dump(
        played: Played, pg_url: str, tmp_path: Path) -> None:
    srv, _, tables = played
    assert srv.db is not None
    # its own source database, filled here: the module's pg_url is the copy test's, which
    # must find it empty whichever of the two runs first
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    names = [f"taash_dumped_{uuid.uuid4().hex[:8]}", f"taash_restore_{uuid.uuid4().hex[:8]}"]
    for name in names:
        await _admin(f'CREATE DATABASE "{name}"')
    source, fresh = (f"{base}/{name}" for name in names)
    try:
        assert taash("db", "copy", "--from", srv.db, "--to", source).returncode == 0
        dump = tmp_path / "pg.dump"
        r = taash("backup", str(dump), db=source)
        assert r.returncode == 0, r.stderr
        assert dump.read_bytes()[:5] == b"PGDMP"
        r = taash("restore", str(dump), db=fresh)
        assert r.returncode == 0, r.stderr
        restored = await summaries(fresh)
        assert restored == await summaries(source)
        assert set(tables["finished"]) <= set(restored)
        # a second restore into a database with tables is refused without --force
        r = taash("restore", str(dump), db=fresh)
        assert r.returncode == 2 and "holds tables" in r.stderr
    finally:
        for name in names:
            await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
def test_check_names_a_table_that_does_not_replay(
        played: Played, tmp_path: Path) -> None:
    srv, _, tables = played
    assert srv.db is not None
    path = tmp_path / "copy.db"
    assert taash("backup", str(path), db=srv.db).returncode == 0
    bad = tables["finished"][0]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE actions SET action = 'play:ZZ' WHERE table_id = ? AND version = 3",
                     (bad,))
    r = taash("db", "check", db=f"sqlite:///{path}")
    assert r.returncode == 1
    assert f"table {bad}:" in r.stdout
    assert "1 do not replay" in r.stdout


@pytest.mark.slow
def test_bad_asks_are_one_line_and_change_nothing(
        played: Played, tmp_path: Path) -> None:
    srv, _, _ = played
    assert srv.db is not None
    existing = tmp_path / "there.db"
    existing.write_text("keep me")
    cases = [
        (taash("backup", str(existing), db=srv.db), "exists"),
        (taash("backup", str(tmp_path / "no" / "b.db"), db=srv.db), "does not exist"),
        (taash("restore", str(existing), db=f"sqlite:///{tmp_path / 'new.db'}"),
         "not a SQLite database"),
        (taash("restore", str(tmp_path / "missing.db"), db=f"sqlite:///{tmp_path / 'n.db'}"),
         "no backup at"),
        (taash("db", "copy", "--from", srv.db, "--to", srv.db), "the same database"),
        (taash("db", "check", db="mysql://x/y"), "unsupported database"),
        (taash("db", "check", db=f"sqlite:///{tmp_path / 'empty.db'}"), "no taash database"),
    ]
    for r, words in cases:
        assert r.returncode == 2, (r.args, r.stderr)
        assert r.stderr.count("\n") == 1 and words in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    assert existing.read_text() == "keep me"


@pytest.mark.slow
def test_db_upgrade_takes_an_empty_database_to_the_newest_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'up.db'}"
    r = taash("db", "upgrade", db=url)
    assert r.returncode == 0, r.stderr
    assert "schema none ->" in r.stdout
    r = taash("db", "upgrade", db=url)
    assert "up to date" in r.stdout
    r = taash("db", "check", db=url)
    assert r.returncode == 0 and r.stdout.startswith("0 tables")
