"""The server's own routes: liveness (``/api/health``), readiness for a load balancer
(``/api/ready``) and the Prometheus metrics (``/metrics``, with ``--metrics-token``)."""

from __future__ import annotations

import asyncio
import hmac

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from typing_extensions import TypedDict

from taash.server.errors import NotFound, Unauthorized
from taash.server.http.deps import SettingsDep
from taash.server.ops.deps import MetricsDep
from taash.server.ops.metrics import CONTENT_TYPE
from taash.server.store.deps import StoreDep
from taash.server.tables.deps import BusDep

router = APIRouter()


class Health(TypedDict):
    ok: bool
    email: bool


@router.get("/api/health", tags=["server"])
async def health(settings: SettingsDep) -> Health:
    """Liveness: the process answers; ``email``: it can send turn e-mails (SMTP set up),
    so the page offers them only then."""
    return {"ok": True, "email": settings.smtp_url is not None}


@router.get("/api/ready", tags=["server"],
            responses={503: {"description": "the store or the bus does not answer"}})
async def ready(bus: BusDep, store: StoreDep, request: Request) -> JSONResponse:
    """Readiness, for a load balancer: the store and the bus both answer (within 2 s)."""
    parts: dict[str, str] = {}
    for name, probe in (("store", store.ping), ("bus", bus.check)):
        try:
            await asyncio.wait_for(probe(), 2.0)
            parts[name] = "ok"
        except Exception as e:  # any failure means "not ready", said in one word
            parts[name] = f"unreachable: {type(e).__name__}"
    ok = all(v == "ok" for v in parts.values())
    return JSONResponse({"ok": ok, **parts}, status_code=200 if ok else 503)


@router.get("/metrics", tags=["server"], include_in_schema=False)
async def metrics(metrics: MetricsDep, settings: SettingsDep, request: Request) -> Response:
    """Prometheus metrics, when ``--metrics-token`` turned them on (404 otherwise)."""
    want = settings.metrics_token
    if not want:
        raise NotFound("not found")
    given = (request.headers.get("authorization") or "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), want.encode()):
        raise Unauthorized("the metrics token is needed: Authorization: Bearer TOKEN")
    return Response(metrics.exposition(), media_type=CONTENT_TYPE)
