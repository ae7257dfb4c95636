"""docs/API.md's endpoint tables cannot drift from the server: every operation in the OpenAPI
schema (and the live channel's WebSocket) has exactly one row, and every row names a route the
server has.  (It once listed three endpoints twice, one of them with two different shapes, and
missed two.)"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from fastapi.routing import APIWebSocketRoute

from taash.server.app import ROUTERS, create_app
from taash.server.config import Settings

DOC = Path(__file__).resolve().parents[3] / "docs" / "API.md"
ROW = re.compile(r"^\| `(GET|POST|PUT|DELETE|PATCH|WS) (/[^` ?]*)[^`]*` \|", re.M)


def shape(path: str) -> str:
    """A path with its parameters unnamed: /api/tables/{table_id} and /api/tables/{id} match."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def test_every_route_has_one_row_and_every_row_a_route(tmp_path: Path) -> None:
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'doc.db'}"))
    routes = {(method.upper(), shape(path)) for path, item in app.openapi()["paths"].items()
              for method in item if method in ("get", "post", "put", "delete", "patch")}
    routes |= {("WS", shape(r.path)) for router in ROUTERS for r in router.routes
               if isinstance(r, APIWebSocketRoute)}
    assert ("WS", "/api/tables/{}/ws") in routes
    assert len(routes) > 60  # the schema was read
    rows = Counter((m, shape(p)) for m, p in ROW.findall(DOC.read_text(encoding="utf-8")))
    assert [r for r, n in rows.items() if n > 1] == [], "listed more than once"
    assert sorted(set(rows) - routes) == [], "listed, but the server has no such route"
    assert sorted(routes - set(rows)) == [], "the server has it, docs/API.md does not say"


def test_no_route_dependency_runs_in_a_thread() -> None:
    """FastAPI runs a dependency written as a plain ``def`` in a worker thread: a thread hop
    on every request (it tripled GET /api/health's time in bench/route_overhead.py).  Every
    dependency of every route is ``async def``."""
    import inspect

    def calls(dependant: object) -> list[object]:
        out = []
        for d in getattr(dependant, "dependencies", []):
            out.append(d.call)
            out += calls(d)
        return out

    found = [c for router in ROUTERS for r in router.routes
             for c in calls(getattr(r, "dependant", None))]
    assert len(found) > 50  # the routes' dependencies were read
    threaded = sorted({getattr(c, "__qualname__", repr(c)) for c in found
                       if not inspect.iscoroutinefunction(c)})
    assert threaded == []
