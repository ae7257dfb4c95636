"""The clubs domain's routes: ``/api/clubs`` and ``/api/me/clubs`` (docs/API.md, "Clubs";
docs/clubs.md).  Every route acts for the session cookie's player; a public club's page, its
leaderboard and the list of public clubs answer without one too."""

from __future__ import annotations

from contextlib import suppress
from importlib import resources
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from taash.server.accounts.me import cookie_player, page_player, signed_in
from taash.server.clubs.deps import ClubPlayDep, ClubsDep
from taash.server.clubs.shapes import (
    ClubPage,
    ClubSeat,
    ClubsList,
    InviteResult,
    Leaderboard,
    MyClubs,
)
from taash.server.errors import RateLimited
from taash.server.events.service import EventJson
from taash.server.http.deps import SettingsDep
from taash.server.http.errors import error_response

router = APIRouter()


class ClubBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="1 to 64 characters")
    public: bool = Field(False, description="listed and searchable, and anyone may join; "
                         "a private club (the default) is seen by its members and invited "
                         "players only")


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    invite: str | None = Field(None, max_length=64, description="the invite link's token "
                               "(not needed for a public club, or when invited by name)")


class InviteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="the player's name, exactly (any case)")


class RoleBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["owner", "admin", "member"] = Field(
        description="owner: hand the club over (you become an admin)")


class ClubSeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["human", "bot"]
    level: Literal["random", "easy", "hard"] | None = None


class ClubTableBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32, description="a game's id (GET /api/games)")
    options: dict[str, object] | None = None
    seats: list[ClubSeatSpec] | None = Field(None, max_length=8, description="each seat "
                                             "human (for a member) or bot; all human unless "
                                             "given; you take the first human seat")
    live: bool = True


class ClubEventBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    options: dict[str, object] | None = None
    boards: int = Field(description="how many boards (1 to 24)")
    opens: float = Field(description="when it opens (Unix seconds)")
    closes: float = Field(description="when it closes and its secret is published")


async def _viewer(request: Request, settings: SettingsDep) -> str | None:
    who = await cookie_player(request, settings)
    return who.player.id if who is not None else None


@router.get("/api/clubs", tags=["clubs"])
async def list_clubs(clubs: ClubsDep, settings: SettingsDep, request: Request,
                     response: Response, q: str = "") -> ClubsList:
    """Public clubs, the most members first; ``q``: a piece of the name."""
    response.headers["Cache-Control"] = "no-store"
    return await clubs.listing(q[:64], await _viewer(request, settings))


@router.post("/api/clubs", tags=["clubs"], status_code=201)
async def create_club(clubs: ClubsDep, settings: SettingsDep, request: Request,
                      body: ClubBody) -> ClubPage:
    """A new club: you are its owner."""
    who = await signed_in(request, settings)
    return await clubs.create(who.player, body.name, body.public)


@router.get("/api/me/clubs", tags=["clubs"])
async def my_clubs(clubs: ClubsDep, settings: SettingsDep, request: Request,
                   response: Response) -> MyClubs:
    """Your clubs, and those that invited you by name."""
    response.headers["Cache-Control"] = "no-store"
    return await clubs.mine((await signed_in(request, settings)).player)


@router.get("/api/clubs/{club_id}", tags=["clubs"])
async def club_page(clubs: ClubsDep, settings: SettingsDep, request: Request,
                    response: Response, club_id: str, invite: str | None = None) -> ClubPage:
    """A club's page: members and their ratings, recent club tables and results, events."""
    response.headers["Cache-Control"] = "no-store"
    return await clubs.page(club_id, await _viewer(request, settings), invite)


@router.get("/api/clubs/{club_id}/leaderboard/{game}", tags=["clubs"])
async def club_leaderboard(clubs: ClubsDep, settings: SettingsDep, request: Request,
                           response: Response, club_id: str, game: str) -> Leaderboard:
    """The club's members with a rating in a game, the highest first."""
    response.headers["Cache-Control"] = "no-store"
    return await clubs.leaderboard(club_id, await _viewer(request, settings), game)


@router.post("/api/clubs/{club_id}/join", tags=["clubs"])
async def join_club(clubs: ClubsDep, settings: SettingsDep, request: Request, club_id: str,
                    body: JoinBody | None = None) -> ClubPage:
    """Join by the invite link's token, an invitation by name, or a public club freely."""
    who = await signed_in(request, settings)
    return await clubs.join(club_id, who.player, body.invite if body else None)


@router.post("/api/clubs/{club_id}/invites", tags=["clubs"])
async def invite_player(clubs: ClubsDep, settings: SettingsDep, request: Request,
                        club_id: str, body: InviteBody) -> InviteResult:
    """Invite a player by name (owner, admins)."""
    who = await signed_in(request, settings)
    return await clubs.invite(club_id, who.player, body.name)


@router.post("/api/clubs/{club_id}/link", tags=["clubs"])
async def renew_link(clubs: ClubsDep, settings: SettingsDep, request: Request,
                     club_id: str) -> ClubPage:
    """A new invite link; the old one stops working (owner, admins)."""
    return await clubs.new_link(club_id, (await signed_in(request, settings)).player)


@router.post("/api/clubs/{club_id}/leave", tags=["clubs"], status_code=204)
async def leave_club(clubs: ClubsDep, settings: SettingsDep, request: Request,
                     club_id: str) -> Response:
    """Leave the club (not its owner)."""
    await clubs.leave(club_id, (await signed_in(request, settings)).player)
    return Response(status_code=204)


@router.delete("/api/clubs/{club_id}/members/{player_id}", tags=["clubs"], status_code=204)
async def remove_member(clubs: ClubsDep, settings: SettingsDep, request: Request,
                        club_id: str, player_id: str) -> Response:
    """Remove a member (owner; admins remove plain members)."""
    await clubs.remove(club_id, (await signed_in(request, settings)).player, player_id)
    return Response(status_code=204)


@router.put("/api/clubs/{club_id}/members/{player_id}", tags=["clubs"])
async def set_role(clubs: ClubsDep, settings: SettingsDep, request: Request, club_id: str,
                   player_id: str, body: RoleBody) -> ClubPage:
    """A member's role (owner only); ``owner`` hands the club over."""
    who = await signed_in(request, settings)
    return await clubs.set_role(club_id, who.player, player_id, body.role)


@router.post("/api/clubs/{club_id}/close", tags=["clubs"])
async def close_club(clubs: ClubsDep, settings: SettingsDep, request: Request,
                     club_id: str) -> ClubPage:
    """Close the club for good (owner only)."""
    return await clubs.close(club_id, (await signed_in(request, settings)).player)


@router.post("/api/clubs/{club_id}/tables", tags=["clubs"], status_code=201)
async def create_club_table(play: ClubPlayDep, settings: SettingsDep, request: Request,
                            club_id: str, body: ClubTableBody) -> ClubSeat:
    """A club table (any member): you sit at its first human seat."""
    who = await signed_in(request, settings)
    seats = ([{"type": s.type, "level": s.level} for s in body.seats]
             if body.seats is not None else None)
    return await play.create_table(club_id, who.player, body.game, body.options, body.live,
                                   seats)


@router.post("/api/clubs/{club_id}/tables/{table_id}/join", tags=["clubs"])
async def join_club_table(play: ClubPlayDep, settings: SettingsDep, request: Request,
                          club_id: str, table_id: str) -> ClubSeat:
    """Take a free seat at a club table (members)."""
    return await play.join_table(club_id, (await signed_in(request, settings)).player,
                                 table_id)


@router.post("/api/clubs/{club_id}/events", tags=["clubs"], status_code=201)
async def create_club_event(play: ClubPlayDep, settings: SettingsDep, request: Request,
                            club_id: str, body: ClubEventBody) -> EventJson:
    """A duplicate event for the club's members (owner, admins)."""
    who = await signed_in(request, settings)
    return await play.create_event(club_id, who.player, body.game, body.options, body.boards,
                                   body.opens, body.closes)


def _page_file() -> Path:
    return Path(str(resources.files("taash"))) / "web" / "club.html"


async def _clubs_page(request: Request, settings: SettingsDep) -> Response:
    """The clubs page (its own module, club.js), with a session as the home page gives."""
    page = _page_file()
    if not page.is_file():
        return error_response(404, "not_found", "this server has no clubs page")
    response = HTMLResponse(page.read_text(encoding="utf-8"))
    with suppress(RateLimited):  # too many new guests from this address: the page, no session
        await page_player(request, response, settings)
    return response


@router.get("/clubs", include_in_schema=False)
async def clubs_page(request: Request, settings: SettingsDep) -> Response:
    return await _clubs_page(request, settings)


@router.get("/club/{club_id}", include_in_schema=False)  # ?invite=: the page joins with it
async def club_page_html(request: Request, settings: SettingsDep, club_id: str) -> Response:
    return await _clubs_page(request, settings)
