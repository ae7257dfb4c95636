"""The voice routes: ``GET /api/tables/{id}/ice``, the ICE servers for a seat's peer
connections."""

from __future__ import annotations

from fastapi import APIRouter, Request
from typing_extensions import TypedDict

from taash.server.http.deps import SettingsDep
from taash.server.tables.access import seat_of
from taash.server.voice.relay import ice_for

# GET /api/tables/{id}/ice: the ICE servers for a seat's peer connections.
router = APIRouter()


class Ice(TypedDict):
    """``ice_servers``: RTCIceServer objects (``urls``, and ``username`` and ``credential``
    where the server has them); ``ttl``: seconds a TURN credential holds (null: none made)."""

    ice_servers: list[dict[str, object]]
    ttl: int | None
    same_network_only: bool


@router.get("/api/tables/{table_id}/ice", tags=["seats"])
async def ice(settings: SettingsDep, request: Request, table_id: str, token: str | None = None,
              seat: int | None = None) -> Ice:
    """The ICE servers (RTCIceServer objects) for voice at the table, for a seat only;
    TURN servers carry a credential valid ``ttl`` seconds when a TURN secret is
    configured.  None configured: ``ice_servers`` is empty and voice works between
    players on the same network only."""
    room, s = await seat_of(request, settings, table_id, token, seat, scope="read")
    servers = ice_for(settings.ice_servers, settings.turn_secret, settings.turn_ttl_s,
                      f"{room.id}.{s}")
    return {"ice_servers": servers,
            "ttl": int(settings.turn_ttl_s) if settings.turn_secret else None,
            "same_network_only": not servers}
