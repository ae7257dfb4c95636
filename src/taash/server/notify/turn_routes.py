"""Where a seat's turn notices go (docs/API.md): its webhook and its e-mail address, checked
here (an http(s) URL whose addresses the server may post to; an address, on a server that
sends e-mail) and kept with the seat by the tables service."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from taash.server.errors import BadRequest
from taash.server.http.deps import SettingsDep
from taash.server.notify.notifier import (
    WebhookRefused,
    valid_email,
    valid_webhook,
    webhook_addresses,
)
from taash.server.tables.access import seat_of
from taash.server.tables.deps import TablesDep


class NotifyBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    webhook: str | None = Field(None, max_length=2000)
    email: str | None = Field(None, max_length=320)


class NotifySet(TypedDict):
    """Where this seat's turn notices now go."""

    id: str
    seat: int
    webhook: str | None
    email: str | None


router = APIRouter()


@router.put("/api/tables/{table_id}/notify", tags=["seats"])
async def notify(tables: TablesDep, settings: SettingsDep, request: Request, table_id: str,
                 body: NotifyBody, token: str | None = None) -> NotifySet:
    """Where to tell this seat that it is its turn (null turns one off)."""
    room, s = await seat_of(request, settings, table_id, token, None)
    if body.webhook is not None and not valid_webhook(body.webhook):
        raise BadRequest("webhook must be an http:// or https:// URL")
    if body.webhook:
        try:
            await webhook_addresses(body.webhook, settings.webhook_allow_private)
        except WebhookRefused as e:
            raise BadRequest(str(e)) from None
    if body.email is not None and not valid_email(body.email):
        raise BadRequest(f"not an email address: {body.email!r}")
    if body.email and settings.smtp_url is None:
        raise BadRequest("this server sends no e-mail (it has no SMTP server set up)")
    await tables.set_notify(room, s, body.webhook or None, body.email or None)
    return {"id": table_id, "seat": s, "webhook": body.webhook, "email": body.email}
