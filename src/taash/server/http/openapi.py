"""The OpenAPI schema as the server really answers: each route's refusals (400 for a bad body
or parameter, where FastAPI would say 422; 401, 403, 404, 409, 413 and 429 where they can
happen) with the error body every refusal has.  tests/server/http/test_openapi.py provokes each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

# Why each status is answered (the error's ``code`` tells which case it was).
WHY = {
    400: "bad request: a body or parameter that is not valid (code bad_request or malformed)",
    401: "no seat token or session, or an unknown or withdrawn one (code unauthorized)",
    403: "a token or player of another seat or table, a table not open, or a change made "
         "with the session cookie from another site (codes forbidden, cross_site)",
    404: "no such table, player, friend code or session (code not_found)",
    409: "illegal now: an illegal action, a stale version, a full table, a taken seat "
         "(codes illegal, stale, full, conflict, not_over, invite_used, seated_already)",
    413: "request body too large (code too_large)",
    429: "too many requests, or too many tables of bots only (code rate_limited)",
}

# The refusals of each route, besides 429 (every /api route).  A route not named here (a new
# one) is given the refusals its shape allows: see ``refusals``.
ROUTES: dict[tuple[str, str], set[int]] = {
    ("get", "/api/health"): set(),
    ("get", "/api/games"): set(),
    ("post", "/api/tables"): {400, 403, 413},
    ("get", "/api/lobby"): set(),
    ("post", "/api/tables/{table_id}/join"): {400, 403, 404, 409, 413},
    ("post", "/api/my-tables"): {400, 413},
    ("get", "/api/tables/{table_id}"): {400, 404},
    ("get", "/api/tables/{table_id}/view"): {400, 401, 403, 404},
    ("post", "/api/tables/{table_id}/actions"): {400, 401, 403, 404, 409, 413},
    ("post", "/api/tables/{table_id}/seed"): {400, 401, 403, 404, 409, 413},
    ("get", "/api/tables/{table_id}/hint"): {400, 401, 403, 404},
    ("get", "/api/tables/{table_id}/record"): {400, 401, 403, 404},
    ("get", "/api/tables/{table_id}/away"): {400, 401, 403, 404},
    ("post", "/api/tables/{table_id}/chat"): {400, 401, 403, 404, 413},
    ("get", "/api/chat"): set(),
    ("post", "/api/tables/{table_id}/rematch"): {400, 401, 403, 404, 409},
    ("post", "/api/tables/{table_id}/claim"): {400, 401, 403, 404, 409},
    ("post", "/api/tables/{table_id}/invite"): {400, 401, 403, 404, 409, 413},
    ("post", "/api/tables/{table_id}/leave"): {400, 401, 403, 404},
    ("put", "/api/tables/{table_id}/notify"): {400, 401, 403, 404, 413},
    ("get", "/api/tables/{table_id}/stream"): {400, 401, 403, 404},
    ("get", "/api/me"): set(),
    ("patch", "/api/me"): {400, 401, 403, 413},
    ("get", "/api/me/tables"): {401},
    ("get", "/api/me/sessions"): {401},
    ("delete", "/api/me/sessions/{session_id}"): {400, 401, 403, 404},
    ("post", "/api/me/link"): {401, 403},
    ("post", "/api/link"): {400, 401, 403, 413},
}

ERROR_SCHEMA: dict[str, object] = {
    "title": "Error",
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "rule", "message"],
        "properties": {
            "code": {"type": "string"},
            "rule": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "message": {"type": "string"},
            "key": {"type": "string"},
            "params": {"type": "object"},
            "exit": {"type": "integer"},
        },
    }},
}


def refusals(method: str, path: str, op: Mapping[str, object]) -> set[int]:
    """The statuses a route may refuse with (``op``: the route's operation in the schema)."""
    known = ROUTES.get((method, path))
    if known is not None:
        out = set(known)
    else:  # by its shape: what validation, the guards, tokens and sessions can answer
        given = op.get("parameters")
        params = [p for p in given if isinstance(p, dict)] if isinstance(given, list) else []
        body = "requestBody" in op
        out = set()
        if params or body:
            out.add(400)
        if body:  # a body can name what is not there (a friend code, a player, a session)
            out |= {404, 413}
        if any(p.get("in") == "path" for p in params):
            out.add(404)
        # the player's own routes, the events' (a session or a personal token; a board or
        # a field not theirs to see), the clubs' (a session; a club not theirs to change), the
        # tournaments', fair play's (a session; a moderator's) and the puzzles' (a session)
        if path.startswith(("/api/me", "/api/events", "/api/clubs", "/api/tournaments",
                            "/api/fairplay", "/api/puzzles")) or any(
                p.get("name") == "token" for p in params):
            out |= {401, 403}
        if method != "get":
            out |= {403, 409}
        if path.endswith(("/review", "/analysis")):  # a deal not over yet (not_over), a full
            out.add(409)                              # analysis queue
    if path.startswith("/api/"):
        out.add(429)
    return out


# Any: FastAPI's own type of an OpenAPI schema (app.openapi_schema, app.openapi())
def documented(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI schema with the refusals it really answers (made once)."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, description=app.description,
                         routes=app.routes, tags=app.openapi_tags)
    comps = schema.setdefault("components", {}).setdefault("schemas", {})
    comps.pop("HTTPValidationError", None)
    comps.pop("ValidationError", None)
    comps["Error"] = ERROR_SCHEMA
    for path, ops in schema.get("paths", {}).items():
        for method, op in ops.items():
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            for status in sorted(refusals(method, path, op)):
                responses[str(status)] = {
                    "description": WHY[status],
                    "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Error"}}},
                }
    app.openapi_schema = schema
    return schema
