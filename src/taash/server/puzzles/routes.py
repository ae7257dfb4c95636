"""The puzzles domain's routes (docs/API.md, "Puzzles"): the next puzzle, a puzzle by id, the
daily puzzle, an attempt, the streak, the player's own puzzles and a player's on their profile.
Every route but a profile's acts for the session cookie's player (without one: 401; the page
gives every visitor one, a guest's at first)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from taash.server.accounts.me import signed_in
from taash.server.http.deps import SettingsDep
from taash.server.puzzles.deps import PuzzlesDep
from taash.server.puzzles.service import Caller
from taash.server.puzzles.shapes import (
    AttemptJson,
    DailyJson,
    PlayerPuzzles,
    PuzzleJson,
    StreakJson,
)
from taash.server.store.deps import StoreDep

router = APIRouter()

Game = Annotated[str, Query(max_length=32, description="the game's id (GET /api/games)")]


class AttemptBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(..., min_length=1, max_length=64, examples=["play:KD"],
                        description="the move, as at a table (Goat's cards in any order)")


class StreakBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(..., max_length=32, description="the game's id (GET /api/games)")


class MyPuzzles(PlayerPuzzles):
    """The player's own puzzles, and whether their attempts are rated (signed in)."""

    rated: bool


async def caller(request: Request, settings: SettingsDep, store: StoreDep) -> Caller:
    """The session's player, rated when signed in (a passkey or a confirmed e-mail)."""
    who = await signed_in(request, settings)
    p = who.player
    return Caller(p.id, bool(p.email) or bool(await store.passkeys_of(p.id)))


@router.get("/api/puzzles/next", tags=["puzzles"])
async def next_puzzle(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                      request: Request, response: Response, game: Game) -> PuzzleJson:
    """A puzzle of ``game`` near the player's puzzle rating, one they have not tried while any
    is left: the position only (every hand open, as the puzzle is made), no solution."""
    response.headers["Cache-Control"] = "no-store"
    return await puzzles.next(await caller(request, settings, store), game)


@router.get("/api/puzzles/daily", tags=["puzzles"])
async def daily_puzzle(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                       request: Request, response: Response, game: Game,
                       date: str | None = Query(None, max_length=10, examples=["2026-12-07"],
                                                description="YYYY-MM-DD (UTC); today's if "
                                                "none; not a later date")) -> DailyJson:
    """The daily puzzle of ``game``: the same for everyone on a UTC date, drawn from the date
    alone."""
    response.headers["Cache-Control"] = "no-store"
    return await puzzles.daily(await caller(request, settings, store), game, date)


@router.get("/api/puzzles/streak", tags=["puzzles"])
async def get_streak(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                     request: Request, response: Response) -> StreakJson | None:
    """The streak being played and the puzzle it asks now; null when none is."""
    response.headers["Cache-Control"] = "no-store"
    return await puzzles.streak(await caller(request, settings, store))


@router.post("/api/puzzles/streak", tags=["puzzles"])
async def start_streak(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                       request: Request, body: StreakBody) -> StreakJson:
    """Start a streak of ``game``: puzzles of rising difficulty until the first miss (a
    streak being played is dropped).  Each is answered by an attempt, whose answer says how
    the streak goes on."""
    return await puzzles.streak_start(await caller(request, settings, store), body.game)


@router.get("/api/puzzles/{puzzle_id}", tags=["puzzles"])
async def get_puzzle(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                     request: Request, response: Response, puzzle_id: str) -> PuzzleJson:
    """A puzzle by its id (as ``next`` gives it: no solution)."""
    response.headers["Cache-Control"] = "no-store"
    return await puzzles.one(await caller(request, settings, store), puzzle_id)


@router.post("/api/puzzles/{puzzle_id}/attempts", tags=["puzzles"])
async def attempt(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                  request: Request, puzzle_id: str, body: AttemptBody) -> AttemptJson:
    """The player's move at the puzzle: right or wrong, and now the solution and the best
    line.  The first attempt at a puzzle is kept and, signed in, rates the player and the
    puzzle; a later one changes nothing.  A move the rules refuse here: 409 with its rule; a
    malformed one: 400."""
    return await puzzles.attempt(await caller(request, settings, store), puzzle_id, body.action)


@router.get("/api/me/puzzles", tags=["puzzles"])
async def my_puzzles(puzzles: PuzzlesDep, settings: SettingsDep, store: StoreDep,
                     request: Request, response: Response,
                     limit: int = Query(20, ge=1, le=100)) -> MyPuzzles:
    """The player's puzzle ratings per game, counts, best streaks and latest attempts."""
    response.headers["Cache-Control"] = "no-store"
    who = await caller(request, settings, store)
    return {**await puzzles.of_player(who.player_id, limit), "rated": who.rated}


@router.get("/api/players/{player_id}/puzzles", tags=["puzzles"])
async def player_puzzles(puzzles: PuzzlesDep, player_id: str,
                         limit: int = Query(10, ge=1, le=100)) -> PlayerPuzzles:
    """A player's puzzles on their profile: ratings per game (null where never rated),
    counts, best streaks and latest attempts."""
    return await puzzles.of_player(player_id, limit)

