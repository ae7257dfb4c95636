"""The fair-play domain's routes: the moderators' queue, a case, a decision, lifting a ban
(docs/API.md, "Fair play"; docs/fairplay.md), the moderators' page, and the notices a decided
player reads.  Every route acts for the session cookie's player: without a session 401; on the
moderators' routes a player who is not a moderator 403."""

from __future__ import annotations

from contextlib import suppress
from importlib import resources
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from taash.server.accounts.me import page_player, signed_in
from taash.server.errors import RateLimited
from taash.server.fairplay.deps import FairPlayDep
from taash.server.fairplay.shapes import CaseJson, Notices, Queue
from taash.server.http.deps import SettingsDep
from taash.server.http.errors import error_response

router = APIRouter()


class DecisionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decision: Literal["cleared", "warned", "banned"] = Field(
        description="cleared: nothing wrong; warned: told, nothing more; banned: from rated "
        "play (their rated results leave the ratings)")
    note: str = Field(max_length=4000, description="why, for the record (1 to 2000 "
                      "characters)")
    players: list[str] | None = Field(
        default=None, max_length=2, description="a partnership's case only: the players a "
        "warning or a ban applies to, one or both of its two (left out: both)")


@router.get("/api/fairplay/queue", tags=["fair play"])
async def fairplay_queue(fairplay: FairPlayDep, settings: SettingsDep, request: Request,
                         response: Response) -> Queue:
    """The open cases, the least likely play first, and the latest decided (moderators)."""
    response.headers["Cache-Control"] = "no-store"
    return await fairplay.queue_page((await signed_in(request, settings)).player.id)


@router.get("/api/fairplay/cases/{case_id}", tags=["fair play"])
async def fairplay_case(fairplay: FairPlayDep, settings: SettingsDep, request: Request,
                        response: Response, case_id: str) -> CaseJson:
    """A case: the evidence, the deals that weigh most (to replay), the decision (moderators)."""
    response.headers["Cache-Control"] = "no-store"
    return await fairplay.case((await signed_in(request, settings)).player.id, case_id)


@router.post("/api/fairplay/cases/{case_id}/decision", tags=["fair play"])
async def fairplay_decide(fairplay: FairPlayDep, settings: SettingsDep, request: Request,
                          case_id: str, body: DecisionBody) -> CaseJson:
    """Decide an open case (moderators): recorded with who and when; ``banned`` bans the player
    from rated play and takes their rated results out of the ratings.  A partnership's case
    warns or bans both its players, or those ``players`` names."""
    who = await signed_in(request, settings)
    return await fairplay.decide(who.player.id, case_id, body.decision, body.note,
                                 body.players)


class LiftBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    note: str = Field(max_length=4000, description="why the ban is lifted, for the record (1 "
                      "to 2000 characters)")


@router.post("/api/fairplay/cases/{case_id}/lift", tags=["fair play"])
async def fairplay_lift(fairplay: FairPlayDep, settings: SettingsDep, request: Request,
                        case_id: str, body: LiftBody) -> CaseJson:
    """Lift the ban from rated play of a case's player (moderators; a partnership's case:
    of each player it banned): recorded with who, when and why; 409 if the case banned nobody
    or the ban is lifted already.  The results taken out of the ratings at the ban stay
    out."""
    who = await signed_in(request, settings)
    return await fairplay.lift(who.player.id, case_id, body.note)


@router.get("/api/me/fairplay", tags=["fair play"])
async def my_fairplay(fairplay: FairPlayDep, settings: SettingsDep, request: Request,
                      response: Response) -> Notices:
    """The session's player's fair-play notices not read yet (a warning, a ban from rated
    play, a ban lifted: the kind and when, never the evidence), whom to write to, and whether
    they are banned from rated play now."""
    response.headers["Cache-Control"] = "no-store"
    return await fairplay.notices((await signed_in(request, settings)).player.id)


@router.post("/api/me/fairplay/notices/{notice_id}/seen", tags=["fair play"])
async def my_fairplay_seen(fairplay: FairPlayDep, settings: SettingsDep, request: Request,
                           notice_id: str) -> Notices:
    """The player has read this notice: it is not shown again (404 if it is not theirs).
    What is left, as ``GET /api/me/fairplay``."""
    return await fairplay.seen((await signed_in(request, settings)).player.id, notice_id)


@router.get("/moderate", include_in_schema=False)
async def moderate_page(request: Request, settings: SettingsDep) -> Response:
    """The moderators' page (its own module, moderate.js), with a session as the home page
    gives (the API says who may use it)."""
    page = Path(str(resources.files("taash"))) / "web" / "moderate.html"
    if not page.is_file():
        return error_response(404, "not_found", "this server has no moderators' page")
    response = HTMLResponse(page.read_text(encoding="utf-8"))
    with suppress(RateLimited):
        await page_player(request, response, settings)
    return response
