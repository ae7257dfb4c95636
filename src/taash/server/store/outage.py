"""The database cannot be reached now: PostgreSQL restarting or failing over, the connection
to it cut.  Such an error is not the request's fault and not a bug: the request is refused
with 503 ``unavailable`` (``Retry-After``; on a live socket an ``error`` with that code),
nothing of it kept, and the same request made again once the database is back is answered
(an action with its client id is applied once).  The pool needs no restart: a connection
found broken invalidates the pool's others, and the next request connects anew."""

from __future__ import annotations

import errno

from sqlalchemy import exc

from taash.server.errors import Unavailable

# a connection refused, reset or timed out (asyncpg raises them plain when it connects)
_NETWORK = {errno.ECONNREFUSED, errno.ECONNRESET, errno.ECONNABORTED, errno.ETIMEDOUT,
            errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EPIPE}
# asyncpg's (by name: the driver has no types): the connection is gone, or the server is
# shutting down or starting up, or has no connection to spare
_DRIVER = {"PostgresConnectionError", "OperatorInterventionError", "TooManyConnectionsError"}


def unreachable(e: BaseException) -> bool:
    """Whether ``e`` says the database cannot be reached now, rather than that it refused a
    query (or that something else failed: only the driver's and SQLAlchemy's errors, and
    the network's, count, never what they were raised while handling)."""
    if isinstance(e, exc.DBAPIError):
        return bool(e.connection_invalidated) or unreachable_plain(e.orig) \
            or unreachable_plain(e.__cause__)
    return unreachable_plain(e)


def unreachable_plain(e: BaseException | None) -> bool:
    if isinstance(e, (ConnectionError, TimeoutError, exc.TimeoutError)):
        return True
    if e is not None and any(c.__module__.startswith("asyncpg.") and c.__name__ in _DRIVER
                             for c in type(e).__mro__):
        return True
    # several addresses tried (localhost: ::1 and 127.0.0.1), each refused
    return type(e) is OSError and (e.errno in _NETWORK or str(e).startswith("Multiple exc"))


def unavailable() -> Unavailable:
    return Unavailable("the database cannot be reached just now: nothing was changed; "
                       "try again in a moment")
