"""The puzzles domain's service (issue 49, docs/puzzles.md "On the server"): the next puzzle
near a player's rating, a puzzle by id, the daily puzzle, attempts that rate players and
puzzles (Glicko-2, ``taash.puzzles.glicko``: a solve is the player's win over the puzzle), the
streak, and a player's puzzles (ratings, counts, history).

Who is rated: a player who has signed in (a passkey or a confirmed e-mail address); a guest
plays every puzzle, their attempts kept (so the next puzzle is one they have not tried) but
rating nobody.  A puzzle counts once per player: the first attempt is kept and rates; another
attempt at it is answered (right or wrong, the solution) and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from taash.games import GAMES
from taash.puzzles import glicko
from taash.puzzles.glicko import Rating
from taash.server.errors import BadRequest, NotFound
from taash.server.puzzles.position import answer_of, judge, shown
from taash.server.puzzles.shapes import (
    AttemptJson,
    DailyJson,
    GameRating,
    HistoryLine,
    PlayerPuzzles,
    PuzzleJson,
    RatingJson,
    StreakJson,
)
from taash.server.puzzles.source import Entry, PuzzleSource
from taash.server.store.db import Store
from taash.server.store.puzzles import Attempt, PuzzleStore, Streak
from taash.server.tables.wire import iso

STREAK_FROM = 1200.0  # a streak's first puzzle is picked near this rating...
STREAK_STEP = 50.0  # ...and each next one this much higher
RECENT = 10  # attempts a profile shows


@dataclass(frozen=True)
class Caller:
    """Who asks: their player id, and whether they are rated (signed in, not a guest)."""

    player_id: str
    rated: bool


def rating_json(r: Rating) -> RatingJson:
    return {"rating": round(r.rating, 2), "rd": round(r.rd, 2),
            "volatility": round(r.volatility, 6)}


def line_of(a: Attempt) -> HistoryLine:
    return {"id": a.puzzle_id, "game": a.game, "solved": a.solved, "at": iso(a.at),
            "rated": a.rated, "rating_before": a.player_before, "rating_after": a.player_after,
            "url": f"/puzzles/{a.puzzle_id}"}


class Puzzles:
    def __init__(self, store: Store, source: PuzzleSource | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = PuzzleStore(store)
        self.source = source if source is not None else PuzzleSource.of(store)
        self.clock = clock

    @staticmethod
    def game(game: str) -> str:
        if game not in GAMES:
            raise BadRequest(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        return game

    async def entry(self, puzzle_id: str) -> Entry:
        found = await self.source.get(puzzle_id)
        if found is None:
            raise NotFound(f"no puzzle {puzzle_id!r}")
        return found

    async def puzzle(self, who: Caller, entry: Entry) -> PuzzleJson:
        """The puzzle as ``who`` is shown it (its position; no solution)."""
        rating = await self.store.puzzle_rating(entry.id) or entry.rating
        tried = await self.store.attempt_of(who.player_id, entry.id)
        return {**shown(entry), "rating": rating_json(rating),
                "attempted": {"solved": tried.solved, "at": iso(tried.at)} if tried else None,
                "rated": who.rated and tried is None}

    async def _pick(self, who: Caller, game: str, near: float) -> Entry:
        entry = await self.source.pick(game, near, await self.store.attempted(who.player_id, game),
                                       await self.store.ratings(game))
        if entry is None:
            raise NotFound(f"this server has no puzzles of {game}")
        return entry

    async def next(self, who: Caller, game: str) -> PuzzleJson:
        """A puzzle of ``game`` near the player's rating (a guest's: a new rating's), not one
        they have tried while one is left."""
        game = self.game(game)
        me = await self.store.player(who.player_id, game)
        near = me.rating.rating if me is not None and who.rated else glicko.BASE
        return await self.puzzle(who, await self._pick(who, game, near))

    async def one(self, who: Caller, puzzle_id: str) -> PuzzleJson:
        return await self.puzzle(who, await self.entry(puzzle_id))

    def today(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).date().isoformat()

    async def daily(self, who: Caller, game: str, day: str | None = None) -> DailyJson:
        """The daily puzzle of ``game`` on ``day`` (YYYY-MM-DD, UTC; default today): the same
        for everyone, from the date alone; a later date's is not out yet."""
        game = self.game(game)
        today = self.today()
        day = day or today
        try:
            day = date.fromisoformat(day).isoformat()
        except ValueError:
            raise BadRequest(f"date {day!r}: a date is YYYY-MM-DD") from None
        if day > today:
            raise BadRequest(f"the daily puzzle of {day} is not out yet (today is {today}, "
                             "UTC)")
        entry = await self.source.daily(game, day)
        if entry is None:
            raise NotFound(f"this server has no puzzles of {game}")
        return {**await self.puzzle(who, entry), "date": day}

    async def attempt(self, who: Caller, puzzle_id: str, action: str) -> AttemptJson:
        """The player's move at a puzzle: judged, kept (the first time), rated (the first time,
        signed in), answered with the solution and the best line; in a streak at its puzzle,
        the streak goes on or ends."""
        entry = await self.entry(puzzle_id)
        played, solved = judge(entry, action)

        def rate(me: Rating, it: Rating) -> tuple[Rating, Rating]:
            return glicko.attempt(me, it, solved)

        kept, first = await self.store.attempt(who.player_id, entry.id, entry.game, played,
                                               solved, self.clock(), entry.rating,
                                               rate if who.rated else None)
        counted = first and kept.rated
        solution, line, value, themes = answer_of(entry)
        return {"id": entry.id, "game": entry.game, "action": played, "solved": solved,
                "counted": first, "rated": counted, "solution": solution,
                "continuation": line, "value": value, "themes": themes,
                "player": {"before": kept.player_before, "after": kept.player_after}
                if counted and kept.player_before is not None
                and kept.player_after is not None else None,
                "puzzle": {"before": kept.puzzle_before, "after": kept.puzzle_after}
                if counted and kept.puzzle_before is not None
                and kept.puzzle_after is not None else None,
                "streak": await self._streak_step(who, entry, solved)}

    # -- streaks ---------------------------------------------------------------------------
    async def _best(self, who: Caller, game: str) -> int:
        me = await self.store.player(who.player_id, game)
        return me.best_streak if me is not None else 0

    async def streak_start(self, who: Caller, game: str) -> StreakJson:
        """A new streak of ``game`` (one being played ends, its run not kept as best)."""
        game = self.game(game)
        now = self.clock()
        first = await self._pick(who, game, STREAK_FROM)
        await self.store.set_streak(Streak(who.player_id, game, 0, first.id, now), now)
        return {"game": game, "run": 0, "best": await self._best(who, game), "over": False,
                "puzzle": await self.puzzle(who, first)}

    async def streak(self, who: Caller) -> StreakJson | None:
        """The streak being played, with the puzzle it asks now (None: none)."""
        st = await self.store.streak(who.player_id)
        if st is None:
            return None
        return {"game": st.game, "run": st.run, "best": await self._best(who, st.game),
                "over": False, "puzzle": await self.puzzle(who, await self.entry(st.puzzle_id))}

    async def _streak_step(self, who: Caller, entry: Entry, solved: bool) -> StreakJson | None:
        st = await self.store.streak(who.player_id)
        if st is None or st.puzzle_id != entry.id:
            return None
        now = self.clock()
        run = st.run + 1 if solved else st.run
        nxt = await self._pick(who, st.game, STREAK_FROM + STREAK_STEP * run) if solved else None
        if nxt is None or nxt.id == entry.id:  # missed (or no other puzzle left): it ends
            best = await self.store.end_streak(who.player_id, st.game, run, now)
            return {"game": st.game, "run": run, "best": best, "over": True, "puzzle": None}
        await self.store.set_streak(Streak(who.player_id, st.game, run, nxt.id, st.started), now)
        return {"game": st.game, "run": run, "best": max(run, await self._best(who, st.game)),
                "over": False, "puzzle": await self.puzzle(who, nxt)}

    # -- a player's puzzles ----------------------------------------------------------------
    async def history(self, player_id: str, limit: int) -> list[HistoryLine]:
        return [line_of(a) for a in await self.store.history(player_id, limit)]

    async def of_player(self, player_id: str, limit: int = RECENT) -> PlayerPuzzles:
        """A player's puzzle ratings per game (where rated), counts, best streaks and latest
        attempts (NotFound: no such player)."""
        if await self.store.store.player(player_id) is None:
            raise NotFound(f"no player {player_id!r}")
        rated = await self.store.rated_games(player_id)
        games: list[GameRating] = [
            {"game": p.game, "rating": rating_json(p.rating) if p.game in rated else None,
             "attempts": p.attempts, "solved": p.solved, "best_streak": p.best_streak}
            for p in await self.store.players_of(player_id)]
        return {"player": player_id, "games": games,
                "recent": await self.history(player_id, limit)}
