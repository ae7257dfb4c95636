"""The one place that chooses HTTP statuses: ``STATUS`` maps each domain error (and the
core's refusals) to its status; the domain raises them and never knows HTTP.  The app's error
handlers and the live channel's closing codes (4000 + the status) read it."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from taash.games.base import IllegalAction, MalformedAction
from taash.server.errors import (
    BadRequest,
    Conflict,
    CrossSite,
    DomainError,
    Forbidden,
    Full,
    InviteUsed,
    Moved,
    NoEmail,
    NotFound,
    NotOver,
    PasskeyRefused,
    RateLimited,
    RecordRefused,
    SeatedAlready,
    Stale,
    TooLarge,
    Unauthorized,
    Unavailable,
    Waiting,
    error_of,
)
from taash.server.store.leases import LeaseLost

# The HTTP status of each refusal.
STATUS: dict[type[Exception], int] = {
    BadRequest: 400, MalformedAction: 400, NoEmail: 400, PasskeyRefused: 400, RecordRefused: 400,
    Unauthorized: 401,
    Forbidden: 403, CrossSite: 403,
    NotFound: 404,
    Full: 409, NotOver: 409, Conflict: 409, InviteUsed: 409, SeatedAlready: 409,
    Waiting: 409, Stale: 409, IllegalAction: 409,
    TooLarge: 413,
    RateLimited: 429,
    Moved: 503, LeaseLost: 503, Unavailable: 503,
}

# The error code of each status the framework answers itself (an unknown path, a wrong method).
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 409: "conflict", 413: "too_large",
                415: "unsupported_media_type", 429: "rate_limited"}


def status_of(e: Exception) -> int:
    """The HTTP status of a refusal (500: not one)."""
    for cls in type(e).__mro__:
        status = STATUS.get(cls)
        if status is not None:
            return status
    return 500


def error_response(status: int, code: str, message: str, rule: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "rule": rule, "message": message}},
                        status_code=status, headers=headers)


def refusal(e: DomainError | IllegalAction | MalformedAction,
            headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer to a refusal: its status and ``{"error": ...}``."""
    return JSONResponse({"error": error_of(e)}, status_code=status_of(e), headers=headers)
