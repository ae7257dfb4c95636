"""The tournaments domain's routes: ``/api/tournaments`` (docs/API.md, "Tournaments";
docs/tournaments.md) and the ``/tournaments`` page.  A change acts for the session cookie's
player, or a personal API token's holder (scope ``play``: the terminal's ``taash play
--tournament``); the listing and a tournament's page answer anyone."""

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
from taash.server.http.deps import SettingsDep
from taash.server.http.errors import error_response
from taash.server.store.db import PlayerRow
from taash.server.tables.access import acting_player
from taash.server.tournaments.deps import RunningDep, TournamentsDep
from taash.server.tournaments.shapes import TournamentJson, TournamentPage, TournamentsList

router = APIRouter()


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="1 to 64 characters")
    kind: Literal["swiss", "arena"] = "swiss"
    game: str = Field(max_length=32, description="court-piece-2p, goat or court-piece")
    options: dict[str, object] | None = Field(None, description="the game's options "
                                              "(GET /api/games); each table is played with them")
    rounds: int = Field(0, ge=0, le=100, description="Swiss: how many rounds (1 to 15)")
    minutes: int = Field(0, ge=0, le=100_000, description="arena: how long (1 to 1440)")
    starts: float = Field(description="when it starts (Unix seconds; now or later)")
    turn_timer_s: float = Field(60.0, description="the tables' turn timer: past it, a bot "
                                "makes the move of a player who has not moved")
    club: str | None = Field(None, max_length=24, description="a club's tournament (its "
                             "owner or an admin makes it; only its members register)")
    spectator_delay: Literal["trick", "deal", "hidden"] = Field(
        "deal", description="how far behind spectators see its tables: a trick, a deal, or "
        "hidden (not at all until each game is over)")


class RegisterBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    partner: str | None = Field(None, max_length=24, description="four-seat games: your "
                                "partner's player id (alone, the start pairs you)")


class BotBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Literal["random", "easy", "hard"] = "easy"


class PairBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seeds: list[int] = Field(min_length=2, max_length=2, description="two lone entrants")


async def _viewer(request: Request, settings: SettingsDep) -> str | None:
    me = await acting_player(request, settings)
    return me.id if me is not None else None


async def _me(request: Request, settings: SettingsDep) -> PlayerRow:
    """The player a change acts for: a personal token's (scope ``play``), else the
    session's (Unauthorized without either)."""
    me = await acting_player(request, settings)
    return me if me is not None else (await signed_in(request, settings)).player


@router.get("/api/tournaments", tags=["tournaments"])
async def list_tournaments(tournaments: TournamentsDep, settings: SettingsDep,
                           request: Request, response: Response) -> TournamentsList:
    """Scheduled and running tournaments, the soonest first; and yours."""
    response.headers["Cache-Control"] = "no-store"
    return await tournaments.listing(await _viewer(request, settings))


@router.post("/api/tournaments", tags=["tournaments"], status_code=201)
async def create_tournament(tournaments: TournamentsDep, settings: SettingsDep,
                            request: Request, body: CreateBody) -> TournamentJson:
    """A new tournament: you are its organiser."""
    me = await _me(request, settings)
    return await tournaments.create(me, body.name, body.kind, body.game, body.options,
                                    body.rounds, body.minutes, body.starts, body.turn_timer_s,
                                    body.club, body.spectator_delay)


@router.get("/api/tournaments/{tournament_id}", tags=["tournaments"])
async def get_tournament(running: RunningDep, settings: SettingsDep, request: Request,
                         response: Response, tournament_id: str) -> TournamentPage:
    """A tournament: entrants, live standings, every round's games and tables, the final
    table, and your table now."""
    response.headers["Cache-Control"] = "no-store"
    return await running.page(tournament_id, await _viewer(request, settings))


@router.post("/api/tournaments/{tournament_id}/register", tags=["tournaments"])
async def register(tournaments: TournamentsDep, settings: SettingsDep, request: Request,
                   tournament_id: str, body: RegisterBody | None = None) -> TournamentJson:
    """Enter before the start (alone, or with a partner in a four-seat game)."""
    me = await _me(request, settings)
    return await tournaments.register(tournament_id, me, body.partner if body else None)


@router.post("/api/tournaments/{tournament_id}/unregister", tags=["tournaments"])
async def unregister(tournaments: TournamentsDep, settings: SettingsDep, request: Request,
                     tournament_id: str) -> TournamentJson:
    """Leave before the start."""
    return await tournaments.unregister(tournament_id, await _me(request, settings))


@router.post("/api/tournaments/{tournament_id}/bots", tags=["tournaments"])
async def add_bot(tournaments: TournamentsDep, settings: SettingsDep, request: Request,
                  tournament_id: str, body: BotBody) -> TournamentJson:
    """A bot entrant (the organiser, before the start)."""
    return await tournaments.add_bot(tournament_id, await _me(request, settings), body.level)


@router.post("/api/tournaments/{tournament_id}/pairs", tags=["tournaments"])
async def pair_partners(tournaments: TournamentsDep, settings: SettingsDep, request: Request,
                        tournament_id: str, body: PairBody) -> TournamentJson:
    """Two lone entrants as partners (the organiser, four-seat games, before the start)."""
    return await tournaments.pair_partners(tournament_id, await _me(request, settings),
                                           body.seeds)


@router.post("/api/tournaments/{tournament_id}/start", tags=["tournaments"])
async def start(running: RunningDep, settings: SettingsDep, request: Request,
                tournament_id: str) -> TournamentPage:
    """Start now (the organiser; else it starts at its start time): round 1 is paired and
    its tables made."""
    return await running.start(tournament_id, await _me(request, settings))


def _page_file() -> Path:
    return Path(str(resources.files("taash"))) / "web" / "tournaments.html"


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page(request: Request, settings: SettingsDep) -> Response:
    """The tournaments page (its own module, tournaments.js), with a session."""
    page = _page_file()
    if not page.is_file():
        return error_response(404, "not_found", "this server has no tournaments page")
    response = HTMLResponse(page.read_text(encoding="utf-8"))
    with suppress(RateLimited):  # too many new guests from this address: the page, no session
        await page_player(request, response, settings)
    return response
