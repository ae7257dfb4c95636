"""The player's own data: personal API tokens (``/api/me/tokens``), the export of everything
the server keeps about them (``GET /api/me/export``) and the deletion of their account
(``DELETE /api/me``).  Cookie-authenticated, like the other ``/api/me`` routes.

A deleted player's seats keep their history under the name "deleted player"; at a table
still being played the seat becomes an easy bot's, so the other players can finish.
"""

from __future__ import annotations

import json
import time
from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from taash.server.accounts import me_kept
from taash.server.accounts.deletion import DELETED_NAME, forget_player
from taash.server.accounts.deps import PlayersDep, TokensDep
from taash.server.accounts.me import COOKIE, signed_in
from taash.server.accounts.players import MeJson, SessionJson, me
from taash.server.accounts.tokens import NewToken, TokenJson
from taash.server.errors import DomainError
from taash.server.http.deps import SettingsDep
from taash.server.notify.deps import PushDep
from taash.server.notify.shapes import PushShown
from taash.server.social.deps import FriendsDep, SocialDep
from taash.server.social.friends import FriendsList
from taash.server.social.profiles import ProfileJson
from taash.server.store.deps import StoreDep
from taash.server.store.my_data import MyData
from taash.server.tables import wire
from taash.server.tables.deps import BusDep, RoomsDep

EXPORT_FORMAT = "taash-export/1"


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, examples=["my bot"])
    scopes: list[Literal["play", "read"]] = Field(max_length=2, examples=[["play"]])


class DeleteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    confirm: Literal["delete"] = Field(description='"delete": the account goes, for good')


class TokenRevoked(TypedDict):
    id: str
    revoked: bool


class ExportedPasskey(TypedDict):
    name: str | None
    transports: str | None
    created: str
    last_used: str | None


class ExportedTable(TypedDict):
    """A table with a seat of the player's: which seats, and its taash-record/1 record."""

    id: str
    game: str
    seats: list[int]
    over: bool
    updated: str | None
    record: dict[str, object]


class ExportedOffline(TypedDict):
    """A match played offline and brought home (``POST /api/me/records``), as uploaded."""

    id: str
    game: str
    seat: int
    uploaded: str
    record: dict[str, object]


class Export(TypedDict):
    """``GET /api/me/export``: everything kept about the player (no secrets, no keys)."""

    format: str
    exported: str
    profile: MeJson
    email: str | None
    passkeys: list[ExportedPasskey]
    sessions: list[SessionJson]
    tokens: list[TokenJson]
    push: list[PushShown]
    player: ProfileJson
    friends: FriendsList
    tables: list[ExportedTable]
    offline_records: list[ExportedOffline]
    puzzles: me_kept.ExportedPuzzles
    clubs: list[me_kept.ExportedClub]
    tournaments: list[me_kept.ExportedEntry]
    events: list[me_kept.ExportedEvent]
    fairplay_notices: list[me_kept.ExportedNotice]


class Deleted(TypedDict):
    """The account deleted; ``tables``: how many tables kept its seats' history."""

    id: str
    deleted: bool
    tables: int


# Tokens, export and deletion for the player of the session cookie.
router = APIRouter()


@router.post("/api/me/tokens", status_code=201, tags=["players"])
async def make_token(tokens: TokensDep, settings: SettingsDep, request: Request, response: Response,
                     body: TokenBody) -> NewToken:
    """A personal API token (``play``: act at the player's seats, make and join tables;
    ``read``: see them): answered this once, with ``token``; kept only hashed."""
    who = await signed_in(request, settings)
    response.headers["Cache-Control"] = "no-store"
    return await tokens.create(who.player, body.name, body.scopes)

@router.get("/api/me/tokens", tags=["players"])
async def list_tokens(tokens: TokensDep, settings: SettingsDep, request: Request
) -> list[TokenJson]:
    """The player's tokens: name, scopes, created, last used (never the token)."""
    who = await signed_in(request, settings)
    return await tokens.listed(who.player)

@router.delete("/api/me/tokens/{token_id}", tags=["players"])
async def revoke_token(tokens: TokensDep, settings: SettingsDep, request: Request, token_id: str
) -> TokenRevoked:
    """Revoke a token at once: its requests are refused and its streams and sockets
    close."""
    who = await signed_in(request, settings)
    await tokens.revoke(who.player, token_id)
    return {"id": token_id, "revoked": True}

@router.get("/api/me/export", tags=["players"])
async def export(friends: FriendsDep, players: PlayersDep, push: PushDep, rooms: RoomsDep,
                 social: SocialDep, store: StoreDep, tokens: TokensDep, settings: SettingsDep,
                 request: Request, response: Response) -> Export:
    """Everything kept about the player, as a JSON download: profile, sessions and tokens
    (no secrets), e-mail and passkeys (no keys), the taash-record/1 record of every
    table with a seat of theirs (an unfinished deal without its deck), their puzzles,
    clubs, tournament and event entries, and the fair-play notices they were shown."""
    who = await signed_in(request, settings)
    kept = await MyData(store).kept(who.player.id)
    account = await tokens.store.account(who.player.id)
    keys = account["passkeys"]
    assert isinstance(keys, list)
    email = account["email"]
    assert email is None or isinstance(email, str)  # the players row's column
    tables: list[ExportedTable] = []
    mine = {str(r["id"]): r for r in await players.tables(who)}
    for table_id in await tokens.store.seat_tables(who.player.id):
        try:
            room = await rooms.peek(table_id)  # read only: wherever the table is played
        except DomainError:
            continue
        seats = [s.seat for s in room.meta.seats if s.player_id == who.player.id]
        updated = mine[table_id]["updated"] if table_id in mine else None
        tables.append({"id": table_id, "game": room.meta.game, "seats": seats,
                       "over": bool(room.state.is_over()),
                       "updated": updated if isinstance(updated, str) else None,
                       "record": wire.record(room)})
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Disposition"] = \
        f'attachment; filename="taash-data-{who.player.id}.json"'
    return {"format": EXPORT_FORMAT, "exported": wire.iso(time.time()),
            "profile": me(who.player),
            "email": email,
            "passkeys": [{"name": k["name"], "transports": k["transports"],
                          "created": wire.iso(k["created"]),
                          "last_used": wire.iso(k["last_used"]) if k["last_used"] else None}
                         for k in keys if isinstance(k, dict)],
            "sessions": await players.sessions(who),
            "tokens": await tokens.listed(who.player),
            "push": await push.listed(who.player.id),  # no keys: push.py
            # ratings, stats and recent matches (issue 28) as the public profile shows them
            "player": await social.profile(who.player.id),
            "friends": await friends.listing(who.player),
            "tables": tables,
            "offline_records": [
                {"id": i, "game": game, "seat": seat, "uploaded": wire.iso(uploaded),
                 "record": json.loads(text)}
                for i, game, seat, uploaded, text in
                await social.store.offline_records_of(who.player.id)],
            "puzzles": me_kept.puzzles(kept),
            "clubs": me_kept.clubs(kept),
            "tournaments": me_kept.tournaments(kept),
            "events": me_kept.events(kept),
            "fairplay_notices": me_kept.notices(kept)}

@router.delete("/api/me", tags=["players"])
async def delete_me(bus: BusDep, players: PlayersDep, rooms: RoomsDep, store: StoreDep,
                    tokens: TokensDep, settings: SettingsDep, request: Request,
                    response: Response,
                    body: DeleteBody) -> Deleted:
    """Delete the account (``{"confirm": "delete"}``): sessions, tokens, passkeys and
    e-mail removed at once (their streams and sockets close); the player's seats keep
    their history as "deleted player", and at an unfinished table become an easy bot's;
    the cookie is cleared.  Their puzzles, club memberships (a club they own passes to a
    member, or closes), entries in tournaments and events not yet played and fair-play
    notices go; finished results stay under "deleted player" (store/my_data.py)."""
    who = await signed_in(request, settings)
    now = time.time()
    ended, tables = await tokens.store.delete_player(who.player.id, now, DELETED_NAME)
    # puzzles, memberships, entries, ratings, stats, history, offline records, friends: each
    # step may run again, and the hourly sweep finishes it if this process stops here
    await forget_player(store, who.player.id, now)
    for key in ended:
        players.end_session(key)
        await bus.publish({"k": "revoked", "s": key})
    for table_id in tables:
        room = rooms.rooms.get(table_id)
        if room is not None:
            await room.reload_meta()
            room.kick()
        await bus.publish({"k": "meta", "t": table_id})
    response.delete_cookie(COOKIE, path="/")
    return {"id": who.player.id, "deleted": True, "tables": len(tables)}
