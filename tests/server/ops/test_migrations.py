"""The schema is written twice: the store's metadata (what the server's queries use) and the
Alembic migrations (what a database gets).  Alembic's autogenerate compare, on a fresh database
upgraded to head, says where they disagree; any difference fails, save those listed in KNOWN."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, Connection, Integer, MetaData
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from taash.server.store.db import Store, metadata

# Differences known and waiting for their fix; each one makes the test xfail, not pass.  Fixed,
# its line goes (the test says so when an entry no longer differs).
KNOWN: frozenset[str] = frozenset()


def describe(diff: Any) -> list[str]:
    """One short line per difference: "<operation> <table.column | index | constraint>"."""
    if isinstance(diff, list):  # column changes come as a list of modify_* tuples
        return [f"{d[0]} {d[2]}.{d[3]}" for d in diff]
    op, obj = diff[0], diff[-1]
    if op.endswith("_column"):
        return [f"{op} {diff[2]}.{obj.name}"]
    if op.endswith("_fk") or op.endswith("_constraint") or op.endswith("_index"):
        return [f"{op} {obj.name}"]
    if op.endswith("_table"):
        return [f"{op} {obj.name}"]
    return [repr(diff)]


async def differences(url: str, models: MetaData = metadata) -> set[str]:
    """Upgrade a fresh database at ``url`` to head as the server does, then compare it with
    ``models`` (the store's metadata)."""

    def compare(conn: Connection) -> set[str]:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                     "compare_server_default": True})
        return {line for diff in compare_metadata(ctx, models) for line in describe(diff)}

    async def go() -> set[str]:
        store = Store(make_url(url))
        try:
            await store.migrate()
        finally:
            await store.close()
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(compare)
        finally:
            await engine.dispose()

    return await go()


def check(found: set[str]) -> None:
    unknown, fixed = found - KNOWN, KNOWN - found
    assert not unknown, f"the store's metadata and the migrations disagree: {sorted(unknown)}"
    assert not fixed, f"these agree now, remove them from KNOWN: {sorted(fixed)}"
    if found:
        pytest.xfail(f"known differences: {sorted(found)}")


async def test_models_match_migrations_on_sqlite(tmp_path: Path) -> None:
    check(await differences(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}"))


@pytest.mark.postgres
async def test_models_match_migrations_on_postgresql(pg_url: str) -> None:
    check(await differences(pg_url))


def copy_of_the_models() -> MetaData:
    models = MetaData()
    for table in metadata.tables.values():
        table.to_metadata(models)
    return models


async def test_the_compare_sees_a_difference_and_its_fix(tmp_path: Path) -> None:
    """The check is not blind: a column the migrations never made is reported; and the
    metadata as it is agrees with the migrations entirely."""
    models = copy_of_the_models()
    models.tables["seats"].append_column(Column("not_migrated", Integer, nullable=True))
    found = await differences(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", models)
    assert "add_column seats.not_migrated" in found
    again = await differences(f"sqlite+aiosqlite:///{tmp_path / 'y.db'}", copy_of_the_models())
    assert again == set()


# -- a database of the previous release (migration 0001 only), taken forward ---------------------
def make_0001_database(path: Path, moves: int = 6) -> tuple[str, dict[int, str], int]:
    """A SQLite database made by migration 0001 alone, holding one two-player table with its
    seats (tokens stored hashed, as that release did) and ``moves`` accepted actions; the
    table's id, its seat tokens and the number of actions."""
    import hashlib
    import json

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from taash.games import new_match
    from taash.server.store.db import migrations_path

    engine = create_engine(f"sqlite:///{path}")
    cfg = Config()
    cfg.set_main_option("script_location", migrations_path())
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    tokens = {0: "old-token-of-seat-zero-0123456789", 1: "old-token-of-seat-one-0123456789"}
    game, seed, first = "court-piece-2p", 4242, 0
    state = new_match(game, None, seed=seed, first_seat=first)
    options = json.dumps({"target": 5})
    rows = []
    for version in range(1, moves + 1):
        seat = state.turn()
        assert seat is not None
        action = state.view(seat)["legal_actions"][0]
        events = state.apply(seat, action)
        rows.append({"t": "oldtable", "v": version, "s": seat, "a": action,
                     "e": json.dumps(events), "c": 1000.0 + version})
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO game_tables (id, game, options, seed, first_seat, live, open, "
            "bot_delay_ms, turn_timer_s, created, updated, version, over, to_move, rematch_id, "
            "rematch_of) VALUES ('oldtable', :g, :o, :seed, :fs, 0, 0, 0, NULL, 1000.0, "
            ":upd, :v, 0, :tm, NULL, NULL)"),
            {"g": game, "o": options, "seed": seed, "fs": first, "upd": 1000.0 + moves,
             "v": moves, "tm": state.turn()})
        for seat, tok in tokens.items():
            conn.execute(text(
                "INSERT INTO seats (table_id, seat, type, level, name, token_hash, claimed, "
                "webhook, email, notified_version, reminded_version) VALUES "
                "('oldtable', :s, 'human', NULL, :n, :h, 1, NULL, NULL, -1, -1)"),
                {"s": seat, "n": f"old {seat}", "h": hashlib.sha256(tok.encode()).hexdigest()})
        conn.execute(text(
            "INSERT INTO actions (table_id, version, seat, action, client_id, events, created) "
            "VALUES (:t, :v, :s, :a, NULL, :e, :c)"), rows)
    engine.dispose()
    return "oldtable", tokens, moves


def head() -> str:
    """The newest migration's revision, as Alembic finds it in the package."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from taash.server.store.db import migrations_path

    cfg = Config()
    cfg.set_main_option("script_location", migrations_path())
    found = ScriptDirectory.from_config(cfg).get_current_head()
    assert found is not None
    return found


@pytest.mark.slow
def test_a_database_of_migration_0001_upgrades_and_its_table_still_plays(tmp_path: Path) -> None:
    """The previous release's database, taken to head by the server at start: the old table
    keeps its seats, actions and tokens, and plays on with them; its seats belong to no
    player."""
    import sqlite3

    from tests.server.helpers import Api, Server

    db = tmp_path / "old.db"
    table, tokens, moves = make_0001_database(db)
    srv = Server(f"sqlite+aiosqlite:///{db}", "--bot-delay", "0").start()
    api = Api(srv.base)
    try:
        views = {s: api.view(table, tok) for s, tok in tokens.items()}
        assert all(v["version"] == moves for v in views.values())
        assert [s["name"] for s in views[0]["table"]["seats"]] == ["old 0", "old 1"]
        mover = views[0]["to_move"]
        action = views[mover]["legal_actions"][0]
        r = api.act(table, tokens[mover], action)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == moves + 1
        other = 1 - mover
        assert api.act(table, tokens[other], "play:AS").status_code in (409, 400)
        assert len(api.record(table)["deals"][0]["actions"]) == moves + 1
    finally:
        api.close()
        srv.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (head(),)
        assert conn.execute("SELECT player_id FROM seats").fetchall() == [(None,), (None,)]
        assert conn.execute("SELECT count(*) FROM actions").fetchone() == (moves + 1,)
