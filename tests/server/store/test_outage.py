"""Which errors say "the database cannot be reached now" (503 ``unavailable``, try again)
rather than a fault (500): the driver's connection errors, SQLAlchemy's wrapping of them, the
network's; never an error merely raised while handling one."""

from __future__ import annotations

import asyncpg.exceptions as pg
import pytest
from sqlalchemy import exc

from taash.server.errors import Unavailable
from taash.server.http.errors import status_of
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
