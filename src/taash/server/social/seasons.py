"""Seasons (issue 47): ratings stay, and each calendar month (UTC) ranks the players active in
it, per game; a closed season's podium is kept and shown on its players' profiles.

- **Who is ranked**: a player with at least ``MIN_MATCHES`` rated matches of the game that
  ended in the season, whose rating after the last of them is no longer provisional (the
  all-time leaderboard's rule), by that rating's mu, highest first.  The standings of the
  season under way move with every rated match; a past season's are fixed (a match is written
  when it ends, so nothing ends in a past month later).
- **Podiums**: the first three of a season that has ended, kept once per game and season
  (``season_podiums``), the first time anyone asks for a season or a profile after the month is
  over; every instance closes what it finds not closed, and the database keeps one podium
  (the insert of ``seasons_closed`` decides).  Each process remembers up to which season it
  has closed, so a profile costs no query for it after the first in a month.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import NotRequired

from typing_extensions import TypedDict

from taash.games import GAMES
from taash.ratings import PROVISIONAL_SIGMA, SCALE, Rating
from taash.server.errors import BadRequest
from taash.server.store.db import Store
from taash.server.store.seasons import SeasonStore
from taash.server.tables import wire

MIN_MATCHES = 5  # rated matches in the season to be ranked in it
SEASON = re.compile(r"^(\d{4})-(\d{2})$")


class RatingJson(TypedDict):
    """A rating as the API shows it on profiles, leaderboards and seasons (``shown``: as the
    page does, ``1500?`` while provisional); ``matches``: the rated matches, where counted."""

    rating: int
    deviation: int
    provisional: bool
    shown: str
    matches: NotRequired[int]


def rating_json(r: Rating, matches: int | None = None) -> RatingJson:
    out: RatingJson = {"rating": round(SCALE * r.mu), "deviation": round(SCALE * r.sigma),
                       "provisional": r.provisional, "shown": r.shown()}
    if matches is not None:
        out["matches"] = matches
    return out


class SeasonRowJson(TypedDict):
    rank: int
    player: str
    name: str
    rating: int
    deviation: int
    provisional: bool
    shown: str
    matches: int  # rated matches in the season


class SeasonJson(TypedDict):
    """A game's season: its standings (``rows``), whether it has ended (``closed``), its
    first instant and the first instant after it (ISO, UTC), and the seasons before and after
    it (``next`` is null for the season under way)."""

    game: str
    season: str
    start: str
    end: str
    closed: bool
    min_matches: int
    previous: str
    next: str | None
    rows: list[SeasonRowJson]


class PodiumJson(TypedDict):
    game: str
    season: str
    rank: int
    rating: int
    shown: str


def season_of(t: float) -> str:
    """The season (``YYYY-MM``, UTC) of an instant."""
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m")


def parse(season: str) -> tuple[int, int]:
    m = SEASON.match(season)
    if m is None or not 1 <= int(m[2]) <= 12 or int(m[1]) < 1970:
        raise BadRequest(f"a season is a month, YYYY-MM (as 2026-11), not {season!r}")
    return int(m[1]), int(m[2])


def shift(season: str, months: int) -> str:
    year, month = parse(season)
    n = year * 12 + month - 1 + months
    return f"{n // 12:04d}-{n % 12 + 1:02d}"


def bounds(season: str) -> tuple[float, float]:
    """The season's first instant and the first instant after it, as Unix times."""
    year, month = parse(season)
    start = datetime(year, month, 1, tzinfo=UTC)
    ny, nm = parse(shift(season, 1))
    return start.timestamp(), datetime(ny, nm, 1, tzinfo=UTC).timestamp()


class Seasons:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = SeasonStore(store)
        self.clock = clock
        self.closed_to: dict[str, str] = {}  # game: the last season known closed

    async def standings(self, game: str, season: str | None, limit: int) -> SeasonJson:
        if game not in GAMES:
            raise BadRequest(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        now = season_of(self.clock())
        season = now if season is None else season
        start, end = bounds(season)
        if season > now:
            raise BadRequest(f"season {season} has not begun (this season is {now})")
        await self.close_due(game)
        rows = await self.store.standings(game, start, end, PROVISIONAL_SIGMA, MIN_MATCHES,
                                          limit)
        return {"game": game, "season": season, "start": wire.iso(start),
                "end": wire.iso(end), "closed": season < now, "min_matches": MIN_MATCHES,
                "previous": shift(season, -1), "next": None if season == now else shift(season, 1),
                "rows": [{"rank": i + 1, "player": r.player_id, "name": r.name,
                          **rating_json(r.rating), "matches": r.matches}
                         for i, r in enumerate(rows)]}

    async def close_due(self, game: str) -> None:
        """Close every season of ``game`` that has ended and is not closed yet, up to last
        month: each month with a rated match of the game (a month without one has no podium;
        the next such month is found by one query, however far away)."""
        last = shift(season_of(self.clock()), -1)
        if self.closed_to.get(game) == last:
            return
        done = await self.store.closed(game)
        first = await self.store.first_rated(game)
        while first is not None and (season := season_of(first)) <= last:
            start, end = bounds(season)
            if season not in done:
                podium = await self.store.standings(game, start, end, PROVISIONAL_SIGMA,
                                                    MIN_MATCHES, 3)
                await self.store.close(game, season, podium, self.clock())
            first = await self.store.first_rated(game, after=end)
        self.closed_to[game] = last

    async def podiums(self, player_id: str) -> list[PodiumJson]:
        """The player's places on the podiums of the seasons that have ended, latest first."""
        for game in GAMES:
            await self.close_due(game)
        return [{"game": p.game, "season": p.season, "rank": p.rank,
                 "rating": round(SCALE * p.rating.mu), "shown": p.rating.shown()}
                for p in await self.store.podiums_of(player_id)]
