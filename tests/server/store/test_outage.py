"""Which errors say "the database cannot be reached now" (503 ``unavailable``, try again)
rather than a fault (500): the driver's connection errors, SQLAlchemy's wrapping of them, the
network's; never an error merely raised while handling one."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import asyncpg.exceptions as pg
import pytest
from sqlalchemy import exc

from taash.server.app import Services
from taash.server.config import Settings
from taash.server.errors import Unavailable
from taash.server.http.errors import status_of
from taash.server.store.db import Store
from taash.server.store.group_commit import Pending
from taash.server.store.outage import unavailable, unreachable


@pytest.mark.parametrize("e", [
    ConnectionRefusedError(111, "Connection refused"),
    ConnectionResetError(104, "Connection reset by peer"),
    ConnectionError("unexpected connection_lost() call"),
    OSError("Multiple exceptions: [Errno 111] Connect call failed, [Errno 99] ..."),
    TimeoutError(),
    pg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    pg.CannotConnectNowError("the database system is starting up"),
    pg.AdminShutdownError("terminating connection due to administrator command"),
    pg.TooManyConnectionsError("sorry, too many clients already"),
    exc.InterfaceError("SELECT 1", {}, ConnectionResetError(104, "reset")),
    exc.DBAPIError("SELECT 1", {}, Exception("gone"), connection_invalidated=True),
    exc.TimeoutError("QueuePool limit reached"),
])
def test_the_database_away_is_unreachable(e: BaseException) -> None:
    assert unreachable(e)


def test_a_refused_query_or_a_fault_is_not() -> None:
    assert not unreachable(pg.UniqueViolationError("duplicate key"))
    assert not unreachable(exc.IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not unreachable(FileNotFoundError(2, "No such file"))
    assert not unreachable(ValueError("bad"))
    try:  # a bug while handling an outage is a bug (500), not an outage
        try:
            raise ConnectionResetError(104, "reset")
        except ConnectionResetError:
            raise NameError("Unavailable") from None
    except NameError as e:
        assert not unreachable(e)


def test_unavailable_is_503_try_again() -> None:
    e = unavailable()
    assert isinstance(e, Unavailable) and status_of(e) == 503 and e.retry_after >= 1
    assert e.error()["code"] == "unavailable" and "try again" in e.message


@pytest.mark.postgres
@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
async def test_an_action_whose_commit_answer_was_lost_is_applied_once_when_sent_again(
        db: str, tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection is lost after the commit, before its answer: the action was stored but
    is refused (an outage: 503 ``unavailable``), and the database stays away a moment.  Sent
    again with its client id once it is back, it is answered as stored, at its version, not
    applied a second time."""
    url = f"sqlite:///{tmp_path / 'o.db'}" if db == "sqlite" else pg_url
    settings = Settings(db_url=url, sweep_s=60)
    store = Store(settings.resolved_db_url())
    await store.migrate()
    s = Services(settings, store)
    try:
        t, _ = await s.tables.create("court-piece-2p", None, [{"type": "human"}] * 2, True,
                                     False, None, None, 0)
        room = await s.hub.room(t.id)
        seat = room.state.turn()
        assert seat is not None
        action = room.state.legal_actions(seat)[0]
        real = store._write_batch
        calls: list[int] = []

        async def cut(batch: list[Pending]) -> None:
            calls.append(len(batch))
            if len(calls) == 1:  # committed; the answer is lost with the connection
                lost = asyncio.get_running_loop()
                await real([replace(i, done=lost.create_future()) for i in batch])
            raise ConnectionResetError(104, "Connection reset by peer")

        monkeypatch.setattr(store, "_write_batch", cut)
        with pytest.raises(Exception) as refused:  # answered 503 unavailable, try again
            await room.submit(seat, action, "c1")
        assert unreachable(refused.value)
        assert room.version == 0
        monkeypatch.setattr(store, "_write_batch", real)  # the database is back
        answer = await room.submit(seat, action, "c1")
        assert answer["version"] == 1 and room.version == 1
        rows = await store.load_actions(t.id)
        assert [(r.version, r.client_id) for r in rows] == [(1, "c1")]
        nxt = room.state.turn()
        assert nxt is not None
        assert (await room.submit(nxt, room.state.legal_actions(nxt)[0], "c2"))["version"] == 2
    finally:
        await s.close()
        await store.close()
