"""The store's queries for puzzles (migration 0026; docs/puzzles.md "On the server"): players'
and puzzles' Glicko-2 ratings, each player's first attempt at each puzzle, and the streak being
played.

An attempt is one transaction: the attempt's row (one per player and puzzle, its primary key),
and, when it is rated, both ratings read, moved and written back.  A second attempt at the same
puzzle finds the first's row and changes nothing, so a puzzle rates a player once.  On
PostgreSQL the rating rows are read ``FOR UPDATE`` (two players' attempts at one puzzle move
its rating one after the other); on SQLite the store's one writer does the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import and_, delete, desc, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.puzzles.glicko import Rating
from taash.server.store.db import Store
from taash.server.store.puzzle_schema import (
    puzzle_attempts,
    puzzle_players,
    puzzle_ratings,
    puzzle_streaks,
)

#: what moves the ratings of an attempt: (player's, puzzle's) before → after
Rate = Callable[[Rating, Rating], tuple[Rating, Rating]]


@dataclass(frozen=True)
class PuzzlePlayer:
    """A player's puzzles of one game: their rating (a guest's stays new), how many they tried
    and solved, their best streak."""

    player_id: str
    game: str
    rating: Rating
    attempts: int
    solved: int
    best_streak: int


@dataclass(frozen=True)
class Attempt:
    """A player's first attempt at a puzzle; the ratings are None where it was not rated."""

    player_id: str
    puzzle_id: str
    game: str
    action: str
    solved: bool
    at: float
    rated: bool
    player_before: float | None
    player_after: float | None
    puzzle_before: float | None
    puzzle_after: float | None


@dataclass(frozen=True)
class Streak:
    player_id: str
    game: str
    run: int
    puzzle_id: str
    started: float


def _attempt(r: object) -> Attempt:
    m = r._mapping  # type: ignore[attr-defined]
    return Attempt(m["player_id"], m["puzzle_id"], m["game"], m["action"], bool(m["solved"]),
                   float(m["at"]), bool(m["rated"]), m["player_before"], m["player_after"],
                   m["puzzle_before"], m["puzzle_after"])


def _player(r: object) -> PuzzlePlayer:
    m = r._mapping  # type: ignore[attr-defined]
    return PuzzlePlayer(m["player_id"], m["game"], Rating(m["rating"], m["rd"], m["volatility"]),
                        int(m["attempts"]), int(m["solved"]), int(m["best_streak"]))


class PuzzleStore:
    """Puzzle ratings, attempts and streaks, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading ---------------------------------------------------------------------------
    async def player(self, player_id: str, game: str) -> PuzzlePlayer | None:
        p = puzzle_players.c
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(puzzle_players).where(
                and_(p.player_id == player_id, p.game == game)))).first()
        return _player(r) if r is not None else None

    async def players_of(self, player_id: str) -> list[PuzzlePlayer]:
        """The player's rows, one per game they tried puzzles of, by game id."""
        p = puzzle_players.c
        async with self.store.engine.connect() as conn:
            return [_player(r) for r in await conn.execute(
                select(puzzle_players).where(p.player_id == player_id).order_by(p.game))]

    async def ratings(self, game: str) -> dict[str, float]:
        """The rating of each puzzle of ``game`` tried so far, by puzzle id."""
        q = puzzle_ratings.c
        async with self.store.engine.connect() as conn:
            return {r.puzzle_id: float(r.rating) for r in await conn.execute(
                select(q.puzzle_id, q.rating).where(q.game == game))}

    async def puzzle_rating(self, puzzle_id: str) -> Rating | None:
        q = puzzle_ratings.c
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(q.rating, q.rd, q.volatility).where(
                q.puzzle_id == puzzle_id))).first()
        return Rating(r.rating, r.rd, r.volatility) if r is not None else None

    async def attempted(self, player_id: str, game: str) -> set[str]:
        """The puzzles of ``game`` the player has tried."""
        a = puzzle_attempts.c
        async with self.store.engine.connect() as conn:
            return {str(x) for x in (await conn.execute(select(a.puzzle_id).where(
                and_(a.player_id == player_id, a.game == game)))).scalars()}

    async def attempt_of(self, player_id: str, puzzle_id: str) -> Attempt | None:
        a = puzzle_attempts.c
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(puzzle_attempts).where(
                and_(a.player_id == player_id, a.puzzle_id == puzzle_id)))).first()
        return _attempt(r) if r is not None else None

    async def rated_games(self, player_id: str) -> set[str]:
        """The games the player has a rated attempt in."""
        a = puzzle_attempts.c
        async with self.store.engine.connect() as conn:
            return {str(g) for g in (await conn.execute(select(a.game).distinct().where(
                and_(a.player_id == player_id, a.rated.is_(True))))).scalars()}

    async def history(self, player_id: str, limit: int) -> list[Attempt]:
        """The player's attempts, the latest first."""
        a = puzzle_attempts.c
        async with self.store.engine.connect() as conn:
            return [_attempt(r) for r in await conn.execute(
                select(puzzle_attempts).where(a.player_id == player_id)
                .order_by(desc(a.at), a.puzzle_id).limit(limit))]

    # -- an attempt ------------------------------------------------------------------------
    async def attempt(self, player_id: str, puzzle_id: str, game: str, action: str,
                      solved: bool, now: float, puzzle_start: Rating,
                      rate: Rate | None) -> tuple[Attempt, bool]:
        """Keep the player's attempt and, with ``rate`` (None: not rated, a guest), move both
        ratings; the puzzle's starts at ``puzzle_start`` if it has no row yet.  Returns the
        attempt kept and whether it is this one (False: the player had tried this puzzle
        before, and nothing changed)."""
        for _ in range(3):  # a first row of the same player or puzzle written meanwhile
            try:
                async with self.store._writing(), self.store.engine.begin() as conn:
                    a = puzzle_attempts.c
                    old = (await conn.execute(select(puzzle_attempts).where(
                        and_(a.player_id == player_id, a.puzzle_id == puzzle_id)))).first()
                    if old is not None:
                        return _attempt(old), False
                    kept = await self._attempt(conn, player_id, puzzle_id, game, action,
                                               solved, now, puzzle_start, rate)
                    return kept, True
            except IntegrityError:
                continue
        found = await self.attempt_of(player_id, puzzle_id)
        if found is None:
            raise RuntimeError(f"puzzle attempt {player_id}/{puzzle_id} could not be kept")
        return found, False

    async def _attempt(self, conn: AsyncConnection, player_id: str, puzzle_id: str, game: str,
                       action: str, solved: bool, now: float, puzzle_start: Rating,
                       rate: Rate | None) -> Attempt:
        p, q = puzzle_players.c, puzzle_ratings.c
        me_row = (await conn.execute(select(puzzle_players).where(
            and_(p.player_id == player_id, p.game == game)).with_for_update())).first()
        me = _player(me_row).rating if me_row is not None else Rating()
        it_row = (await conn.execute(select(q.rating, q.rd, q.volatility).where(
            q.puzzle_id == puzzle_id).with_for_update())).first()
        it = Rating(it_row.rating, it_row.rd, it_row.volatility) if it_row is not None \
            else puzzle_start
        me_after, it_after = rate(me, it) if rate is not None else (me, it)
        won = int(solved)
        mine = {"rating": me_after.rating, "rd": me_after.rd, "volatility": me_after.volatility,
                "updated": now}
        if me_row is None:
            await conn.execute(puzzle_players.insert().values(
                player_id=player_id, game=game, attempts=1, solved=won, best_streak=0, **mine))
        else:
            await conn.execute(update(puzzle_players).where(
                and_(p.player_id == player_id, p.game == game)).values(
                attempts=p.attempts + 1, solved=p.solved + won, **mine))
        if rate is not None:
            theirs = {"rating": it_after.rating, "rd": it_after.rd,
                      "volatility": it_after.volatility, "updated": now}
            if it_row is None:
                await conn.execute(puzzle_ratings.insert().values(
                    puzzle_id=puzzle_id, game=game, attempts=1, solved=won, **theirs))
            else:
                await conn.execute(update(puzzle_ratings).where(q.puzzle_id == puzzle_id)
                                   .values(attempts=q.attempts + 1, solved=q.solved + won,
                                           **theirs))
        kept = Attempt(player_id, puzzle_id, game, action, solved, now, rate is not None,
                       me.rating if rate else None, me_after.rating if rate else None,
                       it.rating if rate else None, it_after.rating if rate else None)
        await conn.execute(puzzle_attempts.insert().values(**kept.__dict__))
        return kept

    # -- streaks ---------------------------------------------------------------------------
    async def streak(self, player_id: str) -> Streak | None:
        s = puzzle_streaks.c
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(puzzle_streaks).where(
                s.player_id == player_id))).first()
        return Streak(r.player_id, r.game, int(r.run), r.puzzle_id, float(r.started)) \
            if r is not None else None

    async def set_streak(self, st: Streak, now: float) -> None:
        """The player's streak is now ``st`` (a new one replaces the one being played)."""
        s = puzzle_streaks.c
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(puzzle_streaks).where(s.player_id == st.player_id))
            await conn.execute(puzzle_streaks.insert().values(
                player_id=st.player_id, game=st.game, run=st.run, puzzle_id=st.puzzle_id,
                started=st.started, updated=now))

    async def end_streak(self, player_id: str, game: str, run: int, now: float) -> int:
        """The streak is over at ``run`` solved: it is forgotten and the best streak of the
        game kept; returns the best."""
        s, p = puzzle_streaks.c, puzzle_players.c
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(puzzle_streaks).where(s.player_id == player_id))
            row = (await conn.execute(select(puzzle_players).where(
                and_(p.player_id == player_id, p.game == game)).with_for_update())).first()
            if row is None:
                new = Rating()
                await conn.execute(puzzle_players.insert().values(
                    player_id=player_id, game=game, rating=new.rating, rd=new.rd,
                    volatility=new.volatility, attempts=0, solved=0, best_streak=run,
                    updated=now))
                return run
            best = max(int(row.best_streak), run)
            await conn.execute(update(puzzle_players).where(
                and_(p.player_id == player_id, p.game == game)).values(best_streak=best))
            return best
