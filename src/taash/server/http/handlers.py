"""The answers to a refused or failed request, as every route gives them: a domain's refusal
and an illegal or malformed action in the error shape (``taash.server.http.errors``, with
``Retry-After`` where asking again helps), a request FastAPI could not read as 400, Starlette's
own errors, and anything else as a one-line 500 with the request's id (logged, no traceback)."""

from __future__ import annotations

import logging
import math

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from taash.games.base import IllegalAction, MalformedAction
from taash.server.errors import DomainError, Moved, RateLimited, Unavailable
from taash.server.http.errors import STATUS_CODES, error_response, refusal

log = logging.getLogger("taash.server")


def add_error_handlers(app: FastAPI) -> None:
    async def refused(request: Request, e: Exception) -> Response:
        assert isinstance(e, DomainError | IllegalAction | MalformedAction)
        if isinstance(e, RateLimited) and e.retry_after is not None:
            return refusal(e, {"Retry-After": str(max(1, math.ceil(e.retry_after)))})
        if isinstance(e, Moved):  # asked again, it reaches the table's owner
            return refusal(e, {"Retry-After": "1"})
        if isinstance(e, Unavailable):  # the database is away: asked again once it is back
            return refusal(e, {"Retry-After": str(e.retry_after)})
        return refusal(e)

    for kind in (DomainError, IllegalAction, MalformedAction):
        app.add_exception_handler(kind, refused)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> Response:
        parts = []
        for err in e.errors()[:3]:
            if err.get("type") == "json_invalid":
                parts.append("the body is not valid JSON")
                continue
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where
                         else str(err.get("msg", "invalid")))
        return error_response(400, "bad_request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        code = STATUS_CODES.get(e.status_code, "http_error")
        message = str(e.detail) if e.detail else code.replace("_", " ")
        if e.status_code == 404:
            message = f"nothing at {request.url.path}"
        return error_response(e.status_code, code, message,
                              headers=dict(e.headers) if e.headers else None)

    @app.exception_handler(Exception)
    async def internal(request: Request, e: Exception) -> Response:
        # one line, no traceback: a fault that repeats per request must not flood the log
        rid = getattr(request.state, "request_id", None) or "-"
        log.error("internal error %s on %s %s: %s: %s", rid, request.method, request.url.path,
                  type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "")
        return JSONResponse({"error": {"code": "internal", "rule": None,
                                       "message": f"internal error {rid}; it has been logged"},
                             "request_id": rid}, status_code=500,
                            headers={"X-Request-Id": rid})
