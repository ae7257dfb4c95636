"""What the server refuses, as values.

Each domain error has a code (the wire's ``error.code``), an English message and sometimes a
rule id; the domain raises them and never knows HTTP.  ``taash.server.app`` alone chooses the
HTTP status of each (``STATUS``), and the live channel says the same code in its messages.
"""

from __future__ import annotations

from typing import ClassVar, NotRequired, TypedDict

from taash.games.base import IllegalAction, MalformedAction


class ErrorBody(TypedDict):
    """The ``error`` object of an answer or a live message."""

    code: str
    rule: str | None
    message: str
    key: NotRequired[str]
    params: NotRequired[dict[str, str | int]]
    exit: NotRequired[int]


class DomainError(Exception):
    """A request the server refuses; ``code`` names the kind (docs/API.md, errors)."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def error(self) -> ErrorBody:
        return {"code": self.code, "rule": self.rule, "message": self.message}


class BadRequest(DomainError):
    """The request asks for something that cannot be (an unknown game, a bad seat list)."""

    code = "bad_request"


class Unauthorized(DomainError):
    """No seat token, an unknown or withdrawn one, or a spectator trying to act."""

    code = "unauthorized"


class Forbidden(DomainError):
    """A token for another table or seat; a table not open to join."""

    code = "forbidden"


class CrossSite(Forbidden):
    """A request that changes something, made with the session cookie, from another site
    (its Origin, or Referer, is not this server's)."""

    code = "cross_site"


class NotFound(DomainError):
    code = "not_found"


class Full(DomainError):
    """No free seat (or not the one asked for), or the match is over."""

    code = "full"


class NotOver(DomainError):
    """A rematch of a match still being played."""

    code = "not_over"


class Conflict(DomainError):
    """The table is busy, or the seat asked for is taken."""

    code = "conflict"


class InviteUsed(Conflict):
    """An invite link some player has already claimed (or a seat another player holds)."""

    code = "invite_used"


class SeatedAlready(Conflict):
    """A second seat of one table for a player who holds one, at a table not made for pass
    and play."""

    code = "seated_already"


class Waiting(Conflict):
    """A move at a live table that waits for the friends invited to it (until they come or
    a player at it starts it)."""

    code = "waiting"


class Stale(DomainError):
    """The table moved on from the version a client (or a bot, or a timer) acted on."""

    code = "stale"

    @classmethod
    def since(cls, now: int, expected: int | None) -> Stale:
        return cls(f"the table has moved on to version {now} since version {expected}: look at "
                   "the table again and act on what is there now")


class Moved(DomainError):
    """The table is played by another server instance now (its owner, issue 44), or this
    instance lost it mid-request: nothing was changed; the same request, made again, reaches
    the owner (``where``: the owner's address, where known)."""

    code = "moved"

    def __init__(self, message: str, rule: str | None = None, where: str | None = None) -> None:
        super().__init__(message, rule)
        self.where = where


class Unavailable(DomainError):
    """The database cannot be reached now (restarting, the connection to it lost): nothing
    was changed; the same request, made again in a moment (``retry_after`` seconds), is
    answered, an action with its client id applied once (``store.outage``)."""

    code = "unavailable"
    retry_after = 2


class TooLarge(DomainError):
    code = "too_large"


class RateLimited(DomainError):
    """Too many requests (or sign-in attempts); ``retry_after``: the seconds to wait, where
    known (the answer's Retry-After)."""

    code = "rate_limited"

    def __init__(self, message: str, rule: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message, rule)
        self.retry_after = retry_after


class NoEmail(BadRequest):
    """This server sends no e-mail (no SMTP server is configured)."""

    code = "no_email"


class PasskeyRefused(BadRequest):
    """A passkey answer that does not check out: for another site, a challenge used or
    expired, a passkey not known here, a signature that is not the key's."""

    code = "passkey_refused"


class RecordRefused(BadRequest):
    """A record that ``taash record verify`` refuses (``exit``: the command's exit code, 1
    illegal, 2 malformed, 3 not fair), or that cannot be taken as it is (not finished, a seat
    that is not the record's: 2)."""

    code = "record_refused"

    def __init__(self, message: str, rule: str | None = None, exit: int | None = None) -> None:
        super().__init__(message, rule)
        self.exit = exit

    def error(self) -> ErrorBody:
        err = super().error()
        if self.exit is not None:
            err["exit"] = self.exit
        return err


def error_of(e: DomainError | IllegalAction | MalformedAction) -> ErrorBody:
    """The wire's ``error`` object for a refusal.  An illegal action's gives the rule, the
    English sentence and, where the core gives them, its key and parameters, so a client can
    say it in the player's language."""
    if isinstance(e, IllegalAction):
        err: ErrorBody = {"code": "illegal", "rule": e.rule, "message": e.message}
        if e.key:
            err["key"] = e.key
            err["params"] = e.params
        return err
    if isinstance(e, MalformedAction):
        return {"code": "malformed", "rule": None, "message": str(e)}
    return e.error()
