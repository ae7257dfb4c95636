"""The social domain's routes: ``/api/me/friends`` and ``/api/me/challenges`` (the
cookie's player), public profiles, match history and leaderboards."""

from __future__ import annotations

import time

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from taash.server.accounts.me import signed_in  # me imports the hub, which holds Friends
from taash.server.errors import BadRequest, NotFound
from taash.server.http.deps import SettingsDep
from taash.server.social.deps import FriendsDep, SocialDep
from taash.server.social.featured import FeaturedTable, featured
from taash.server.social.friends import (
    ChallengeAnswer,
    ChallengeJson,
    Challenges,
    FriendsList,
    FriendState,
)
from taash.server.social.profiles import HISTORY_PAGE, History, LeaderRow, ProfileJson
from taash.server.social.seasons import SeasonJson
from taash.server.social.uploads import UploadJson, kept_record, upload


class FriendBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(None, description="the friend's code (or what their link ends "
                             "with)")
    player: str | None = Field(None, description="or the player's id (their profile's "
                               "\"Add friend\")")


class ChallengeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: str | None = Field(None, description="the friend's player id (they sit in seat 1)")
    seats: dict[int, str] | None = Field(
        None, description="or friends by seat: seat number to player id (you sit in seat 0; "
        "at four-player games seat 2 is your partner, 1 and 3 your opponents)",
        examples=[{"2": "partner-id", "1": "opponent-id"}])
    bots: str | None = Field(None, description="the bot level of the seats no friend takes "
                             "(easy unless given)")
    game: str
    options: dict[str, object] | None = None  # the game's options, checked by the core
    live: bool = False


class RecordBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: object = Field(..., description="the match's taash-record/1 (docs/RECORD.md), "
                           "finished")
    seat: object = Field(..., description="your seat in it", examples=[0])


# ``/api/me/friends``, ``/api/me/challenges`` and ``/api/me/records`` (cookie).
router = APIRouter()

@router.get("/api/me/friends", tags=["friends"])
async def list_friends(friends: FriendsDep, settings: SettingsDep, request: Request,
                       response: Response) -> FriendsList:
    """The player's friend code and link, friends (online, last seen), requests sent
    (``asked``) and received (``asking``), and blocked players."""
    response.headers["Cache-Control"] = "no-store"
    who = await signed_in(request, settings)
    return await friends.listing(who.player)


@router.post("/api/me/friends", tags=["friends"])
async def add_friend(friends: FriendsDep, settings: SettingsDep, request: Request, body: FriendBody
) -> FriendState:
    """Ask the player of that friend code (or of that id) to be friends (``"asked"``); if
    they had asked you, you are friends now (``"friends"``)."""
    who = await signed_in(request, settings)
    if (body.code is None) == (body.player is None):
        raise BadRequest("give the friend's `code` or their `player` id")
    if body.player is not None:
        return await friends.ask_player(who.player, body.player)
    return await friends.add(who.player, body.code)


@router.post("/api/me/friends/{player_id}/accept", tags=["friends"])
async def accept_friend(friends: FriendsDep, settings: SettingsDep, request: Request, player_id: str
) -> FriendState:
    """Accept that player's request: you are friends."""
    who = await signed_in(request, settings)
    return await friends.accept(who.player, player_id)


@router.delete("/api/me/friends/{player_id}", tags=["friends"])
async def remove_friend(friends: FriendsDep, settings: SettingsDep, request: Request, player_id: str
) -> FriendState:
    """End a friendship, withdraw or decline a request, or lift a block."""
    who = await signed_in(request, settings)
    await friends.store.remove(who.player.id, player_id)
    return {"player": player_id, "state": None}


@router.post("/api/me/friends/{player_id}/block", tags=["friends"])
async def block_player(friends: FriendsDep, social: SocialDep, settings: SettingsDep,
                       request: Request, player_id: str) -> FriendState:
    """Block a player: no friendship, no request, no challenge between you, and they
    cannot join your open tables."""
    who = await signed_in(request, settings)
    if player_id == who.player.id:
        raise BadRequest("you cannot block yourself")
    if await social.store.player(player_id) is None:
        raise NotFound(f"no player {player_id!r}")
    await friends.store.block(who.player.id, player_id, time.time())
    return {"player": player_id, "state": "blocked"}


@router.get("/api/me/challenges", tags=["friends"])
async def list_challenges(friends: FriendsDep, settings: SettingsDep, request: Request,
                          response: Response) -> Challenges:
    """Open challenges, received and sent, the newest first."""
    response.headers["Cache-Control"] = "no-store"
    who = await signed_in(request, settings)
    return await friends.challenges(who.player)


@router.post("/api/me/challenges", tags=["friends"], status_code=201)
async def make_challenge(friends: FriendsDep, settings: SettingsDep, request: Request,
                         body: ChallengeBody) -> ChallengeJson:
    """Challenge a friend (``to``), or friends by seat (``seats``: up to three at the
    four-player games), to a table, live or play-anytime; the other seats are bots."""
    who = await signed_in(request, settings)
    return await friends.challenge(who.player, body.to, body.game, body.options,
                                            body.live, body.seats, body.bots)


@router.post("/api/me/challenges/{challenge_id}/accept", tags=["friends"])
async def accept_challenge(friends: FriendsDep, settings: SettingsDep, request: Request,
                           challenge_id: str) -> ChallengeAnswer:
    """Accept a challenge.  When every invited friend has, the table is made: your seat,
    its token and its link; until then ``table`` is null and ``waiting`` names those who
    have not answered."""
    who = await signed_in(request, settings)
    return await friends.answer(who.player, challenge_id, True)


@router.post("/api/me/challenges/{challenge_id}/decline", tags=["friends"])
async def decline_challenge(friends: FriendsDep, settings: SettingsDep, request: Request,
                            challenge_id: str) -> ChallengeAnswer:
    """Decline a challenge received (it ends for every friend it invited), or withdraw
    one sent."""
    who = await signed_in(request, settings)
    return await friends.answer(who.player, challenge_id, False)


@router.post("/api/me/records", tags=["players"], status_code=201)
async def upload_record(social: SocialDep, settings: SettingsDep, request: Request,
                        response: Response, body: RecordBody) -> UploadJson:
    """Bring home a match played offline: its record is checked as ``taash record verify``
    checks it and, if it is a finished match, joins your history and stats, marked offline and
    unrated (201).  The same record again changes nothing (200, the same answer).  A record
    refused: 400, code ``record_refused``, with the command's words and ``exit`` code."""
    who = await signed_in(request, settings)
    answer, new = await upload(social.store, who.player.id, body.record, body.seat)
    if not new:
        response.status_code = 200
    return answer


@router.get("/api/records/{record_id}", tags=["players"])
async def offline_record(social: SocialDep, request: Request, record_id: str
) -> dict[str, object]:
    """A match played offline and brought home, its taash-record/1 as it was uploaded (the
    ``record`` of its history line)."""
    return await kept_record(social.store, record_id)


# Public profiles, match history and leaderboards (nothing private: no e-mail, no
# sessions, no seats' tokens).


@router.get("/api/players/{player_id}", tags=["players"])
async def player_profile(social: SocialDep, request: Request, player_id: str) -> ProfileJson:
    """A player's public profile: name, country (and its flag) if they gave one, member
    since, ratings, stats, recent matches."""
    return await social.profile(player_id)


@router.get("/api/players/{player_id}/history", tags=["players"])
async def player_history(
        social: SocialDep, request: Request, player_id: str,
        before: float | None = Query(None, description="the `next` of the page before"),
        limit: int = Query(HISTORY_PAGE, ge=1, le=100)) -> History:
    """A player's finished matches, newest first, a page at a time (``next``: pass it as
    ``before`` for the next page; null on the last)."""
    return await social.history(player_id, before, limit)


@router.get("/api/featured", tags=["players"])
async def featured_tables(social: SocialDep, request: Request,
                          limit: int = Query(6, ge=1, le=20)) -> list[FeaturedTable]:
    """The live tables with the highest-rated players that anyone may watch (moved at in
    the last ten minutes, not hidden from spectators), tournament finals first (``final``),
    then best first: open one's ``url`` to watch it as its ``spectator_delay`` lets
    spectators."""
    finals = frozenset(await social.finals()) if social.finals is not None else frozenset()
    return await featured(social.store, time.time(), limit, finals)


@router.get("/api/seasons/{game}", tags=["players"])
async def season(social: SocialDep, request: Request, game: str,
                 season: str | None = Query(None, description="YYYY-MM (UTC); this month's "
                                            "when left out"),
                 limit: int = Query(50, ge=1, le=200)) -> SeasonJson:
    """A month's standings of the game: the players with at least ``min_matches`` rated
    matches in it whose rating is no longer provisional, by their rating after the last one.
    A season that has ended is ``closed``; its first three are kept on their profiles
    (``podiums``)."""
    return await social.seasons.standings(game, season, limit)


@router.get("/api/leaderboard/{game}", tags=["players"])
async def leaderboard(social: SocialDep, request: Request, game: str,
                      limit: int = Query(50, ge=1, le=200)) -> list[LeaderRow]:
    """The game's rated players whose rating is no longer provisional, best first."""
    return await social.leaderboard(game, limit)
