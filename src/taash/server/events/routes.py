"""The events domain's routes: ``/api/events`` (docs/API.md, "Events"; docs/events.md).

Every route acts for the session cookie's player, or a personal API token's (``read`` for what
only reads, ``play`` for what changes something: ``taash event`` uses one); the listing, an
event's description and the daily event answer without either too.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from taash.server.accounts.deps import TokensDep
from taash.server.accounts.me import cookie_player
from taash.server.accounts.tokens import is_personal
from taash.server.errors import Unauthorized
from taash.server.events.deps import BoardsDep, EventsDep
from taash.server.events.service import EventJson, TodayJson
from taash.server.events.shapes import BoardResults, BoardReview, BoardView, StandingsJson
from taash.server.http.deps import SettingsDep

router = APIRouter()


class EventBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    options: dict[str, object] | None = None  # the game's options, checked by the core
    boards: int = Field(description="how many boards (1 to 24)")
    opens: float = Field(description="when it opens (Unix seconds)")
    closes: float = Field(description="when it closes and its secret is published")


class EventAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=64, description="an action of the board, e.g. play:AS")
    version: int | None = Field(None, description="the board's version the move was chosen "
                                "on (a stale one is refused)")
    id: str | None = Field(None, max_length=64, description="the client's id for this move: "
                           "sent again, it is not applied twice")


async def _player(request: Request, settings: SettingsDep, tokens: TokensDep,
                  scope: str = "read") -> str | None:
    """The player a request acts for: a personal token's (with ``scope``), else the session
    cookie's (a change from this site's pages only); None without either."""
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        token = auth[7:].strip()
        if not is_personal(token):
            raise Unauthorized("events take a personal API token (taash_pat_...) or the "
                               "session cookie, not a seat's token")
        holder = await tokens.resolve(token)
        holder.need(scope)
        return holder.player.id
    who = await cookie_player(request, settings)
    return who.player.id if who is not None else None


async def _signed(request: Request, settings: SettingsDep, tokens: TokensDep,
                  scope: str = "read") -> str:
    player = await _player(request, settings, tokens, scope)
    if player is None:
        raise Unauthorized("no session or personal token: open the site's page (or GET "
                           "/api/me) to get a session, or send a personal API token")
    return player


@router.get("/api/events", tags=["events"])
async def list_events(events: EventsDep, settings: SettingsDep, tokens: TokensDep,
                      request: Request, response: Response) -> dict[str, list[EventJson]]:
    """Events open or to come, and (with a session) the player's own entries."""
    response.headers["Cache-Control"] = "no-store"
    return await events.listing(await _player(request, settings, tokens))


@router.post("/api/events", tags=["events"], status_code=201)
async def create_event(events: EventsDep, settings: SettingsDep, tokens: TokensDep,
                       request: Request, body: EventBody) -> EventJson:
    """A new event, hosted by the player: its commitment is in the answer."""
    host = await _signed(request, settings, tokens, "play")
    return await events.create(host, body.game, body.options, body.boards,
                               body.opens, body.closes)


@router.get("/api/events/daily/{game}", tags=["events"])
async def daily_event(events: EventsDep, settings: SettingsDep, tokens: TokensDep,
                      request: Request, response: Response, game: str) -> EventJson:
    """Today's (UTC) event of a game, made on the first ask."""
    response.headers["Cache-Control"] = "no-store"
    return await events.daily(game, await _player(request, settings, tokens))


@router.get("/api/events/today", tags=["events"])
async def events_today(events: EventsDep, settings: SettingsDep, tokens: TokensDep,
                       request: Request, response: Response) -> list[TodayJson]:
    """The home page's feed: today's (UTC) event of each game and its entrants so far
    (``entered``: whether you did).  It reads only: an event nobody asked for yet is listed
    with no entrants, and made by its first ``/api/events/daily/{game}``."""
    response.headers["Cache-Control"] = "no-store"
    return await events.today(await _player(request, settings, tokens))


@router.get("/api/events/{event_id}", tags=["events"])
async def get_event(events: EventsDep, settings: SettingsDep, tokens: TokensDep, request: Request,
                    response: Response, event_id: str) -> EventJson:
    """An event: its game, boards, times, commitment, and its secret once closed."""
    response.headers["Cache-Control"] = "no-store"
    return await events.describe(event_id, await _player(request, settings, tokens))


@router.post("/api/events/{event_id}/entry", tags=["events"], status_code=201)
async def enter_event(events: EventsDep, settings: SettingsDep, tokens: TokensDep,
                      request: Request, event_id: str) -> EventJson:
    """Enter the event (once)."""
    return await events.enter(event_id, await _signed(request, settings, tokens, "play"))


@router.post("/api/events/{event_id}/close", tags=["events"])
async def close_event(events: EventsDep, settings: SettingsDep, tokens: TokensDep,
                      request: Request, event_id: str) -> EventJson:
    """The host closes the event now; its secret is published."""
    return await events.close(event_id, await _signed(request, settings, tokens, "play"))


@router.get("/api/events/{event_id}/board", tags=["events"])
async def current_board(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep,
                        request: Request, response: Response, event_id: str) -> BoardView:
    """The board the entrant is at, as their seat sees it."""
    response.headers["Cache-Control"] = "no-store"
    who = await _signed(request, settings, tokens)
    return await boards.current(event_id, who)


@router.get("/api/events/{event_id}/boards/{board}", tags=["events"])
async def get_board(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep, request: Request,
                    response: Response, event_id: str, board: int) -> BoardView:
    """A board the entrant has reached, as their seat sees it."""
    response.headers["Cache-Control"] = "no-store"
    who = await _signed(request, settings, tokens)
    return await boards.board(event_id, who, board)


@router.post("/api/events/{event_id}/boards/{board}/actions", tags=["events"])
async def act_on_board(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep,
                       request: Request, event_id: str, board: int, body: EventAction) -> BoardView:
    """The entrant's move; the answer is the board after the robots' replies."""
    player = await _signed(request, settings, tokens, "play")
    return await boards.act(event_id, player, board, body.action, body.version,
                            body.id)


@router.get("/api/events/{event_id}/boards/{board}/results", tags=["events"])
async def board_results(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep,
                        request: Request, response: Response, event_id: str,
                        board: int) -> BoardResults:
    """How the field played a board (once the entrant has finished it)."""
    response.headers["Cache-Control"] = "no-store"
    who = await _signed(request, settings, tokens)
    return await boards.results(event_id, who, board)


@router.get("/api/events/{event_id}/boards/{board}/review", tags=["events"])
async def board_review(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep,
                       request: Request, response: Response, event_id: str,
                       board: int) -> BoardReview:
    """Your board against the best result with every hand open (once you have finished
    it): ``status`` "computing" while a worker searches for it (ask again in ``retry``
    seconds), then "done", kept for every entrant of that board and trump call."""
    response.headers["Cache-Control"] = "no-store"
    who = await _signed(request, settings, tokens)
    return await boards.review(event_id, who, board)


@router.get("/api/events/{event_id}/boards/{board}/record", tags=["events"])
async def board_record(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep,
                       request: Request, response: Response, event_id: str, board: int,
                       player: str | None = None) -> dict[str, object]:
    """A board's taash-record/1 as an entrant (``player``; you by default) played it, once
    you have finished the board; with the event's secret once it has closed."""
    response.headers["Cache-Control"] = "no-store"
    who = await _signed(request, settings, tokens)
    return await boards.record(event_id, who, board, player)


@router.get("/api/events/{event_id}/standings", tags=["events"])
async def event_standings(boards: BoardsDep, settings: SettingsDep, tokens: TokensDep,
                          request: Request, response: Response, event_id: str) -> StandingsJson:
    """The standings: once the event has closed, or provisional for an entrant who has
    finished every board."""
    response.headers["Cache-Control"] = "no-store"
    return await boards.standings(event_id, await _player(request, settings, tokens))
