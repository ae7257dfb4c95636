"""One owner per table (issue 44): a process plays a table only under its lease.  Two
instances in one process here (two ``Services`` on one database, each its own store), on
SQLite and on PostgreSQL: the owner holds the table, the other is told it moved; a write
made after the lease changed hands is refused by the database and drops the room; the
leases are renewed in one statement; a stopping owner gives its tables back."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
import uvicorn
from sqlalchemy import event

from taash.server.app import Services, create_app
from taash.server.config import Settings
from taash.server.errors import Moved
from taash.server.store.db import PlayerRow, Store
from taash.server.store.rows import SessionRow
from taash.server.tables import waiting
from taash.server.tables.bus import Bus
from taash.server.tables.seeds import set_seed

pytestmark = [pytest.mark.postgres]

TWO_HUMANS: Any = [{"type": "human"}, {"type": "human"}]


class Quiet(Bus):
    """A bus shared with other instances (so tables have owners) that carries nothing."""

    shared = True

    async def publish(self, message: dict[str, Any]) -> None:
        return None


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def pair(request: pytest.FixtureRequest, tmp_path: Path,
               pg_url: str) -> AsyncIterator[tuple[Services, Services]]:
    db = f"sqlite:///{tmp_path / 'o.db'}" if request.param == "sqlite" else pg_url
    made: list[Services] = []
    for _ in range(2):
        settings = Settings(db_url=db, sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        s = Services(settings, store, Quiet())
        s.hub.owners.start()
        made.append(s)
    yield made[0], made[1]
    for s in made:
        if not s.hub.closing:
            await s.close()
        await s.store.close()


async def play_one(s: Services, table_id: str, cid: str) -> int:
    room = await s.hub.room(table_id)
    seat = room.state.turn()
    assert seat is not None
    answer = await room.submit(seat, room.state.legal_actions(seat)[0], cid)
    return answer["version"]


async def test_the_owner_plays_the_table_and_the_other_is_told_it_moved(
        pair: tuple[Services, Services]) -> None:
    a, b = pair
    t, _ = await a.tables.create("court-piece-2p", None, TWO_HUMANS, True, False, None, None, 0)
    assert t.id in a.hub.owners.leases  # made here: owned here
    assert await play_one(a, t.id, "a1") == 1
    with pytest.raises(Moved):
        await b.hub.room(t.id)
    assert t.id not in b.hub.rooms and t.id not in b.hub.owners.leases
    await a.close()  # a stopping owner gives its tables back: b takes them at once
    assert await b.store.lease_of(t.id) is not None
    room = await b.hub.room(t.id)
    assert room.version == 1
    assert await play_one(b, t.id, "b2") == 2
    lease = await b.store.lease_of(t.id)
    assert lease is not None and lease.owner == b.hub.instance and lease.fence == 2


async def test_a_write_after_the_table_changed_hands_is_refused_and_drops_the_room(
        pair: tuple[Services, Services]) -> None:
    """An owner that paused past its lease (its renewals stopped) while another instance
    took the table: its next action is refused by the commit, nothing of it is written, its
    room and live connections end, and the new owner plays on from what was stored."""
    a, b = pair
    t, _ = await a.tables.create("court-piece-2p", None, TWO_HUMANS, True, False, None, None, 0)
    await play_one(a, t.id, "a1")
    room = a.hub.rooms[t.id]
    watcher = room.subscribe(0)
    # b finds the lease run out (as it would 5 s after a's last renewal) and takes it
    taken = await b.store.take_lease(t.id, b.hub.instance, 5.0, a.hub.owners.leases[t.id]
                                     .expires + 1)
    assert taken is not None and taken.fence == 2
    seat = room.state.turn()
    assert seat is not None
    with pytest.raises(Moved):
        await room.submit(seat, room.state.legal_actions(seat)[0], "a2")
    assert [r.version for r in await a.store.load_actions(t.id)] == [1]  # nothing kept
    assert t.id not in a.hub.rooms and t.id not in a.hub.owners.leases
    assert watcher.ended and watcher.wake.is_set()  # the client reconnects: to the owner
    b.hub.owners.leases[t.id] = taken
    on_b = await b.hub.room(t.id)
    assert on_b.version == 1
    assert await play_one(b, t.id, "a2") == 2  # the same client id: applied once, by b


async def test_leases_are_renewed_in_one_statement_and_a_taken_one_drops_its_room(
        pair: tuple[Services, Services]) -> None:
    a, b = pair
    ids = []
    for _ in range(3):
        t, _ = await a.tables.create("court-piece-2p", None, TWO_HUMANS, True, False, None,
                                     None, 0)
        ids.append(t.id)
    before = {i: a.hub.owners.leases[i].expires for i in ids}
    lost = ids[0]
    taken = await b.store.take_lease(lost, b.hub.instance, 5.0, before[lost] + 1)
    assert taken is not None
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, sql: str, *rest: Any) -> None:
        if "table_leases" in sql:
            statements.append(sql)

    event.listen(a.store.engine.sync_engine, "before_cursor_execute", seen)
    try:
        await a.hub.owners.renew()
    finally:
        event.remove(a.store.engine.sync_engine, "before_cursor_execute", seen)
    assert len(statements) == 1 and statements[0].lstrip().upper().startswith("UPDATE")
    assert lost not in a.hub.rooms and lost not in a.hub.owners.leases
    for i in ids[1:]:
        assert i in a.hub.rooms
        stored = await a.store.lease_of(i)
        assert stored is not None and stored.owner == a.hub.instance
        assert stored.expires > before[i]


async def test_a_table_owned_elsewhere_is_read_from_a_copy_that_writes_nothing(
        pair: tuple[Services, Services]) -> None:
    """A player's data export reads every table of theirs (``peek``), wherever it is played:
    a copy from the store, not kept, owning nothing, refused if it were written through."""
    a, b = pair
    t, _ = await a.tables.create("court-piece-2p", None, TWO_HUMANS, True, False, None, None, 0)
    await play_one(a, t.id, "a1")
    copy = await b.hub.peek(t.id)
    assert copy.version == 1 and copy.state.turn() == a.hub.rooms[t.id].state.turn()
    assert t.id not in b.hub.rooms and t.id not in b.hub.owners.leases
    seat = copy.state.turn()
    assert seat is not None
    with pytest.raises(Moved):
        await copy.submit(seat, copy.state.legal_actions(seat)[0], "b2")
    assert [r.version for r in await b.store.load_actions(t.id)] == [1]
    assert await a.hub.peek(t.id) is a.hub.rooms[t.id]  # the owner's own room


@contextlib.asynccontextmanager
async def serving(s: Services) -> AsyncIterator[str]:
    """``s``'s app on a real port of this machine (the other instance forwards to it)."""
    server = uvicorn.Server(uvicorn.Config(create_app(s.settings, services=s), host="127.0.0.1",
                                           port=0, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve())

    async def started() -> None:
        while not server.started:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(started(), 20)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 20)


async def test_a_request_that_lost_the_race_for_a_table_is_forwarded_then_refused_once_gone(
        pair: tuple[Services, Services], monkeypatch: pytest.MonkeyPatch) -> None:
    """b read the table's lease while nobody held it, and a took the table before b could:
    b's request goes to a (not a 503).  Once a no longer answers, b says 503 ``moved``."""
    a, b = pair
    front = httpx.AsyncClient(transport=httpx.ASGITransport(
        app=create_app(b.settings, services=b)), base_url="http://b")
    async with serving(a) as where:
        a.hub.owners.address = where
        t, _ = await a.tables.create("court-piece-2p", None, TWO_HUMANS, True, False, None,
                                     None, 0)
        await play_one(a, t.id, "a1")
        read = b.hub.owners.elsewhere
        reads: list[str] = []

        async def read_before_a_took_it(table_id: str) -> str | None:
            reads.append(table_id)
            return None if len(reads) == 1 else await read(table_id)

        monkeypatch.setattr(b.hub.owners, "elsewhere", read_before_a_took_it)
        r = await front.get(f"/api/tables/{t.id}")
        assert r.status_code == 200, r.text
        assert r.json()["id"] == t.id and r.json()["version"] == 1
        for once in ("x-request-id", "content-security-policy", "x-frame-options"):
            assert len(r.headers.get_list(once)) == 1, once  # b's own, not a's again
        assert t.id not in b.hub.rooms and t.id not in b.hub.owners.leases
    r = await front.get(f"/api/tables/{t.id}")  # a's lease holds, a does not answer
    assert r.status_code == 503 and r.headers["retry-after"] == "1"
    assert r.json()["error"]["code"] == "moved"
    await front.aclose()


# -- the writes other than actions, under the lease too ---------------------------------------
async def _finished(s: Services, table_id: str) -> None:
    """Play the table to its end (target 1: a few dozen moves)."""
    room = s.hub.rooms[table_id]
    for i in range(500):
        if room.state.is_over():
            return
        await play_one(s, table_id, f"f{i}")
    raise AssertionError("the match did not end")


async def _seen(store: Store, table_id: str) -> object:
    """What a write of the table's could change: its seats, its fair-deal rows, whether it
    waits and its rematch."""
    t = await store.load_table(table_id)
    assert t is not None
    return ([(s.seat, s.type, s.claimed, s.token_hash, s.player_id, s.webhook, s.name)
             for s in t.seats], [(f.deal, f.seeds, f.dealt) for f in t.fair], t.waiting,
            t.rematch_id)


async def _write(kind: str, s: Services, table_id: str, tokens: dict[int, str]) -> None:
    room = await s.hub.room(table_id)
    if kind == "join":
        await s.tables.join(table_id, 1, "Late")
    elif kind == "claim":
        now = time.time()
        who = PlayerRow(f"p-{s.hub.instance}", "Claimer", "en", now)
        await s.store.create_player(who, SessionRow(f"s-{s.hub.instance}", who.id, now, now,
                                                    now + 3600, None), f"h-{s.hub.instance}")
        await s.tables.claim(table_id, tokens[1], who)
    elif kind == "leave":
        await s.tables.leave(room, 1)
    elif kind == "notify":
        await s.tables.set_notify(room, 0, "https://example.com/hook", None)
    elif kind == "seed":
        await set_seed(room, 0, "my-seed")
    elif kind == "start":
        await waiting.start(room)
    else:
        assert kind == "rematch"
        await s.tables.rematch(room, 0, tokens[0])


@pytest.mark.parametrize("kind", ["join", "claim", "leave", "notify", "seed", "start",
                                  "rematch"])
async def test_a_seat_seed_or_rematch_written_after_the_table_changed_hands_is_refused(
        pair: tuple[Services, Services], kind: str) -> None:
    """Like an action, a write of a table's seats (join, claim, leave, notices), of its
    fair-deal seeds, of the end of its wait or of its rematch, made by an instance whose
    lease moved on, is refused by the database: nothing written, the room dropped; the new
    owner makes the same write."""
    a, b = pair
    t, tokens = await a.tables.create("court-piece-2p", {"target": 1}, TWO_HUMANS, True,
                                      kind == "join", None, None, 0, wait=kind == "start")
    if kind == "rematch":
        await _finished(a, t.id)
    before = await _seen(a.store, t.id)
    taken = await b.store.take_lease(t.id, b.hub.instance, 5.0,
                                     a.hub.owners.leases[t.id].expires + 1)
    assert taken is not None and taken.fence == 2
    with pytest.raises(Moved):
        await _write(kind, a, t.id, tokens)
    assert await _seen(a.store, t.id) == before  # nothing of it kept
    assert t.id not in a.hub.rooms and t.id not in a.hub.owners.leases
    b.hub.owners.leases[t.id] = taken
    await _write(kind, b, t.id, tokens)  # the owner's is written
    assert await _seen(b.store, t.id) != before
