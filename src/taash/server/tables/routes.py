"""The HTTP API of docs/API.md: the request bodies and one route each, which reads the
request, asks the services and shapes the answer (refusals are domain errors: ``app`` answers
them)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field

from taash.games import describe_games
from taash.server.errors import BadRequest, Unauthorized
from taash.server.http.deps import SettingsDep
from taash.server.store.deps import StoreDep
from taash.server.tables import waiting, watch, wire
from taash.server.tables.access import Callers, acting_player, bearer, callers, holder_of, seat_of
from taash.server.tables.deps import RoomsDep, TablesDep
from taash.server.tables.seeds import set_seed
from taash.server.tables.shapes import (
    Answer,
    Away,
    Created,
    CreatedSeat,
    Hint,
    Left,
    LobbyRow,
    MyTable,
    SeatLink,
    SeedTaken,
    Started,
)

AWAY_MAX = 200  # the moves a "while you were away" recap lists at most (the latest)


# -- request bodies --------------------------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["human", "bot"]
    name: str | None = Field(None, max_length=200,
                             description="plain text, 1 to 24 characters (as a player's name)")
    level: Literal["random", "easy", "hard", "heuristic"] | None = None


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32, examples=["court-piece"])
    options: dict[str, object] | None = Field(None, examples=[{"sar": "double"}])
    seats: list[SeatSpec] | None = Field(None, max_length=8)
    live: bool = True
    open: bool = False
    bot_delay_ms: int | None = Field(None, ge=0, le=60_000)
    turn_timer_s: float | None = Field(None, gt=0, le=30 * 86400)
    first_seat: int | None = Field(None, ge=0, le=7)
    seed: str | None = Field(None, max_length=1000,
                             description="the creator's seed for the first deal (fair deals)")
    chat_text: bool = Field(False, description="quick chat takes free text too (at most "
                                               "80 characters), not only phrases and emoji")
    pass_and_play: bool = Field(False, description="one player may hold several seats (one "
                                "device passed round); else a player holds one seat")
    wait: bool = Field(False, description="a live table with friends' seats waits for them "
                       "before its first move (no bot moves, no turn timer runs) until they "
                       "have all come or a player at it starts it: POST "
                       "/api/tables/{id}/start; the table info says whom it waits for")
    spectator_delay: Literal["none", "trick", "deal", "hidden"] | None = Field(
        None, description="how far behind spectators see the table: none, one trick, one "
        "deal, or hidden (nobody watches while it is played); default: deal at a table that "
        "would be rated (docs/spectators.md), else none")


class SeedBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: str = Field(max_length=1000, examples=["9f2c41d0a7"],
                      description="the seat's seed for the next deal: \"\" or 1-64 "
                                  "characters from ! to ~")


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=200, examples=["play:AS"])
    id: str | None = Field(None, max_length=80, description="client id: sent twice, applied once")
    version: int | None = Field(None, ge=0, strict=True,
                                description="the version the client acted on: 409 'stale' if "
                                            "the table has moved on since")


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(None, ge=0, le=7)
    name: str | None = Field(None, max_length=200,
                             description="plain text, 1 to 24 characters (as a player's name)")


class TokensBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[Annotated[str, Field(max_length=100)]] = Field(max_length=200)


class InviteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=7)


def seat_name(names: Callers, raw: str | None, where: str) -> str | None:
    """A seat's name as asked for at a new table or a join: a player's name's rule (plain
    text, 1 to 24 characters), so what a seat shows is as safe as what a player shows."""
    if raw is None:
        return None
    try:
        return names.clean_name(raw)
    except BadRequest as e:
        raise BadRequest(f"{where}: {e.message}") from None


# The API's routes; their answers are typed (tables/shapes.py) but for the core's views and record.
router = APIRouter()





@router.get("/api/games", tags=["server"])
async def games() -> list[dict[str, object]]:
    """The games as the core states them: id, name, seats, teams, the first seat's role,
    the default options (``options``) and each option's kind, default, bounds and words
    (``fields``), from which the page builds its new-table form."""
    return describe_games()

@router.post("/api/tables", status_code=201, tags=["tables"])
async def create(tables: TablesDep, settings: SettingsDep, request: Request, body: CreateTable
) -> Created:
    """A new table; a token and invite url for each human seat."""
    specs = None
    if body.seats is not None:
        names = callers(request)
        specs = [{"type": s.type, "name": seat_name(names, s.name, f"seats[{i}].name"),
                  "level": "easy" if s.level == "heuristic" else s.level}
                 for i, s in enumerate(body.seats)]
    t, tokens = await tables.create(body.game, body.options, specs, body.live,
                                        body.open, body.bot_delay_ms, body.turn_timer_s,
                                        body.first_seat,
                                        player=await acting_player(request, settings),
                                        seed=body.seed, chat_text=body.chat_text,
                                        pass_and_play=body.pass_and_play,
                                        wait=body.wait,
                                        spectator_delay=body.spectator_delay,
                                        address=request.client.host if request.client
                                        else None)
    seats = []
    for s in t.seats:
        item: CreatedSeat = {"seat": s.seat, "type": s.type}
        if s.type == "bot":
            item["level"] = s.level
        if s.seat in tokens:
            item["token"] = tokens[s.seat]
            item["url"] = f"/t/{t.id}?seat={s.seat}&token={tokens[s.seat]}"
        seats.append(item)
    return {"id": t.id, "url": f"/t/{t.id}", "seats": seats}

@router.get("/api/lobby", tags=["tables"])
async def lobby(tables: TablesDep, request: Request) -> list[LobbyRow]:
    """Open tables with a free human seat."""
    return await tables.lobby()

@router.post("/api/tables/{table_id}/join", tags=["tables"])
async def join(tables: TablesDep, settings: SettingsDep, request: Request, table_id: str,
               body: Annotated[JoinBody | None, Body()] = None) -> SeatLink:
    """Claim a free seat of an open table."""
    b = body or JoinBody(seat=None, name=None)
    seat, token = await tables.join(
        table_id, b.seat, seat_name(callers(request), b.name, "name"),
        await acting_player(request, settings))
    return {"id": table_id, "seat": seat, "token": token,
            "url": f"/t/{table_id}?seat={seat}&token={token}"}

@router.post("/api/my-tables", tags=["tables"])
async def my_tables(tables: TablesDep, request: Request, body: TokensBody) -> list[MyTable]:
    """The tables of these seat tokens, with whose turn it is."""
    return await tables.mine(body.tokens)

@router.get("/api/tables/{table_id}", tags=["tables"])
async def public(rooms: RoomsDep, request: Request, table_id: str) -> dict[str, object]:
    """What anyone may see: the core's public view, the version and the table's info; at a
    table whose spectators see it behind (``spectator_delay``), as it was that far back
    (403 while a table that keeps spectators out is played)."""
    room = await rooms.room(table_id)
    return watch.public(room)

@router.get("/api/tables/{table_id}/view", tags=["seats"])
async def seat_view(settings: SettingsDep, request: Request, table_id: str,
                    token: str | None = None, seat: int | None = None) -> dict[str, object]:
    """The seat's view (its own hand, its legal actions) with the version."""
    room, s = await seat_of(request, settings, table_id, token, seat, "read")
    return wire.seat_view(room, s)

@router.post("/api/tables/{table_id}/actions", tags=["seats"])
async def act(settings: SettingsDep, request: Request, table_id: str, body: ActionBody,
              token: str | None = None, seat: int | None = None) -> Answer:
    """Take an action for the token's seat; 409 with the rule if it is illegal."""
    room, s = await seat_of(request, settings, table_id, token, seat)
    return await room.submit(s, body.action, body.id, body.version)

@router.post("/api/tables/{table_id}/seed", tags=["seats"])
async def seed(settings: SettingsDep, request: Request, table_id: str, body: SeedBody,
               token: str | None = None, seat: int | None = None) -> SeedTaken:
    """The seat's seed for the next deal (fair deals: the last one sent before it is dealt
    counts); 400 if it is not "" or 1-64 characters from ! to ~."""
    room, s = await seat_of(request, settings, table_id, token, seat)
    return await set_seed(room, s, body.seed)

@router.get("/api/tables/{table_id}/hint", tags=["seats"])
async def hint(settings: SettingsDep, request: Request, table_id: str, token: str | None = None,
               seat: int | None = None) -> Hint:
    """What the easy bot would do for this seat now."""
    from taash.bots import make_bot, trump_hint

    room, s = await seat_of(request, settings, table_id, token, seat, "read")
    view = room.state.view(s)
    action = None
    if view.get("legal_actions"):
        bot = make_bot(room.meta.game, "easy", seed=room.meta.seed ^ room.version)
        action = bot.act(view)  # the easy bot answers in well under a millisecond
    th: list[str] = []
    if view.get("phase") == "trump" and view.get("to_move") == s:
        th = trump_hint(room.meta.game, view.get("hand") or [])
    return {"action": action, "trump_hint": th, "version": room.version}

@router.get("/api/tables/{table_id}/record", tags=["tables"])
async def record(rooms: RoomsDep, settings: SettingsDep, request: Request, table_id: str,
                 token: str | None = None, seat: int | None = None) -> dict[str, object]:
    """taash-record/1 of the match; an unfinished deal without its deck.  Asked for by a
    seat (its token, or ``seat`` with the session's player), as the table is now; by anyone
    else, as spectators see it (``spectator_delay``: 403 while a hidden table is played)."""
    if bearer(request, token) or seat is not None:
        room, _s = await seat_of(request, settings, table_id, token, seat, "read")
        return wire.record(room)
    return watch.record(await rooms.room(table_id))

@router.get("/api/tables/{table_id}/away", tags=["seats"])
async def away(store: StoreDep, settings: SettingsDep, request: Request, table_id: str,
               token: str | None = None, seat: int | None = None) -> Away:
    """The moves made since this seat's own last one (the "while you were away" recap),
    as the public events each brought; the last ``AWAY_MAX`` of them."""
    room, s = await seat_of(request, settings, table_id, token, seat, "read")
    store = store
    since = await store.last_own_move(room.id, s)
    rows = [r for r in await store.load_actions(room.id, since) if r.version <= room.version]
    kept = rows[-AWAY_MAX:]
    return {"id": room.id, "seat": s, "since": since, "version": room.version,
            "more": len(rows) - len(kept),
            "moves": [{"version": r.version, "seat": r.seat, "events": list(r.events)}
                      for r in kept]}







@router.post("/api/tables/{table_id}/rematch", tags=["seats"])
async def rematch(tables: TablesDep, settings: SettingsDep, request: Request, table_id: str,
                  token: str | None = None) -> SeatLink:
    """The rematch table (made once) and this seat's token there."""
    tables = tables
    tok = bearer(request, token)
    room, s = await seat_of(request, settings, table_id, tok, None)
    rid, new = await tables.rematch(room, s, None if callers(request).is_personal(tok) else tok)
    if new is None:  # the seat's player asked, with no token: the seat is theirs there
        return {"id": rid, "seat": s, "token": None, "url": f"/t/{rid}?seat={s}"}
    return {"id": rid, "seat": s, "token": new, "url": f"/t/{rid}?seat={s}&token={new}"}

@router.post("/api/tables/{table_id}/claim", tags=["seats"])
async def claim(tables: TablesDep, settings: SettingsDep, request: Request, table_id: str,
                token: str | None = None) -> SeatLink:
    """Claim the seat of an invite token for the session's player, once: the seat is
    theirs, with a new token; the invite link stops working."""
    tok = bearer(request, token)
    holder = await holder_of(request, tok, "play")
    if holder is not None:  # a program claims for the token's player: the invite's
        tok, player = token, holder.player  # token comes as ?token=
    else:
        who = await callers(request).cookie_player(request, settings)
        if who is None:
            raise Unauthorized("claiming an invite needs a session: open the site's page")
        player = who.player
    if not tok:
        raise Unauthorized("the invite's token is needed: Authorization: Bearer TOKEN")
    seat, new = await tables.claim(table_id, tok, player)
    if new is None:  # theirs already
        return {"id": table_id, "seat": seat, "token": None,
                "url": f"/t/{table_id}?seat={seat}"}
    return {"id": table_id, "seat": seat, "token": new,
            "url": f"/t/{table_id}?seat={seat}&token={new}"}

@router.post("/api/tables/{table_id}/start", tags=["seats"])
async def start(settings: SettingsDep, request: Request, table_id: str,
                token: str | None = None, seat: int | None = None) -> Started:
    """Start a table that waits for its invited friends without them (a player at it asks):
    its bots move and its turn timer counts from now, playing for whoever has not come.
    ``started``: whether it was waiting."""
    room, _s = await seat_of(request, settings, table_id, token, seat)
    started = await waiting.start(room)
    return {"id": table_id, "started": started, "waiting": room.meta.waiting_for()}

@router.post("/api/tables/{table_id}/invite", tags=["seats"])
async def invite(tables: TablesDep, settings: SettingsDep, request: Request, table_id: str,
                 body: InviteBody, token: str | None = None) -> SeatLink:
    """A new invite link for a seat no player has taken (the creator's seat asks); its
    old link stops working."""
    room, s = await seat_of(request, settings, table_id, token, None)
    new = await tables.invite(room, s, body.seat)
    return {"id": table_id, "seat": body.seat, "token": new,
            "url": f"/t/{table_id}?seat={body.seat}&token={new}"}

@router.post("/api/tables/{table_id}/leave", tags=["seats"])
async def leave(tables: TablesDep, settings: SettingsDep, request: Request, table_id: str,
                token: str | None = None) -> Left:
    """Give the seat to a bot; the token stops working."""
    tables = tables
    room, s = await seat_of(request, settings, table_id, token, None)
    await tables.leave(room, s)
    return {"id": table_id, "seat": s, "type": "bot", "level": "easy"}
