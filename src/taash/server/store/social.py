"""The store's queries for ratings, match history and stats (the tables of migration 0010), and
the records of matches played offline that players brought home (0016).

Kept apart from ``store.py``; it works through the same engine and the same SQLite writer lock.
A finished match is written once: its ``match_results`` rows are keyed by (player, table), so a
second try (another instance, a retry) finds them there and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, desc, exists, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from taash.ratings import NEW, Rating
from taash.server.store.db import Store
from taash.server.store.schema import (
    game_tables,
    match_results,
    offline_records,
    player_stats,
    players,
    ratings,
    seats,
)
from taash.server.store.season_schema import season_podiums
from taash.stats import GameStats


@dataclass(frozen=True)
class ResultRow:
    player_id: str
    seat: int
    result: int  # 1 won, 0 drawn, -1 lost
    entry: Mapping[str, object]  # options, partners, opponents


@dataclass(frozen=True)
class RatingRow:
    game: str
    rating: Rating
    matches: int


@dataclass(frozen=True)
class Profile:
    name: str
    created: float
    country: str | None
    ratings: list[RatingRow]
    stats: list[GameStats]
    recent: list[dict[str, object]]


class SocialStore:
    """Ratings, history and stats of players, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def finish_match(self, table_id: str, game: str, ended: float,
                           rows: Sequence[ResultRow],
                           rate: Callable[[dict[str, Rating]], dict[str, Rating]] | None,
                           add_stats: Callable[[str, GameStats | None], GameStats]) -> bool:
        """Write a finished match once: each player's history line, their new rating (``rate``
        maps the players' ratings before to after; None: not rated) and stats.  False if it
        was written before."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await self._finish(conn, table_id, game, ended, rows, rate, add_stats)
        except IntegrityError:  # written before: the transaction changed nothing
            return False
        return True

    async def add_offline(self, new_id: str, digest: str, game: str, record: str,
                          row: ResultRow, uploaded: float,
                          add_stats: Callable[[str, GameStats | None], GameStats]) -> str | None:
        """Keep a record played offline and write its history line and stats (never a rating),
        in one transaction, as ``new_id``; or, if this player brought this very record
        (``digest``) before, change nothing and return the id it was kept as.  None: it was
        kept as ``new_id`` now."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(offline_records.insert().values(
                    id=new_id, player_id=row.player_id, digest=digest, game=game,
                    seat=row.seat, record=record, uploaded=uploaded))
                await self._finish(conn, new_id, game, uploaded, [row], None, add_stats)
        except IntegrityError:  # kept before (or by a request racing this one)
            async with self.store.engine.connect() as conn:
                kept = (await conn.execute(select(offline_records.c.id).where(and_(
                    offline_records.c.player_id == row.player_id,
                    offline_records.c.digest == digest)))).scalar()
            if kept is None:
                raise
            return str(kept)
        return None

    async def offline_record(self, record_id: str) -> str | None:
        """A kept offline record's JSON text as it was sent; None if there is none (or its
        player's account was deleted)."""
        async with self.store.engine.connect() as conn:
            text = (await conn.execute(select(offline_records.c.record)
                                       .where(offline_records.c.id == record_id))).scalar()
        return None if text is None else str(text)

    async def offline_records_of(self, player_id: str) -> list[tuple[str, str, int, float, str]]:
        """(id, game, seat, uploaded, record's JSON text) of each offline record the player
        brought home, the earliest first."""
        q = (select(offline_records.c.id, offline_records.c.game, offline_records.c.seat,
                    offline_records.c.uploaded, offline_records.c.record)
             .where(offline_records.c.player_id == player_id)
             .order_by(offline_records.c.uploaded))
        async with self.store.engine.connect() as conn:
            return [(r.id, r.game, r.seat, r.uploaded, r.record) for r in await conn.execute(q)]

    async def _finish(self, conn: AsyncConnection, table_id: str, game: str, ended: float,
                      rows: Sequence[ResultRow],
                      rate: Callable[[dict[str, Rating]], dict[str, Rating]] | None,
                      add_stats: Callable[[str, GameStats | None], GameStats]) -> None:
        ids = [r.player_id for r in rows]
        await conn.execute(match_results.insert(), [
            {"player_id": r.player_id, "table_id": table_id, "game": game, "seat": r.seat,
             "result": r.result, "ended": ended, "entry": json.dumps(r.entry), "mu": None,
             "sigma": None} for r in rows])
        if rate is not None:
            have = {r.player_id: r for r in await conn.execute(
                select(ratings).where(and_(ratings.c.game == game, ratings.c.player_id.in_(ids)))
                .with_for_update())}
            before = {p: Rating(have[p].mu, have[p].sigma) if p in have else NEW for p in ids}
            for p, r in rate(before).items():
                matches = have[p].matches + 1 if p in have else 1
                await self._put_rating(conn, p, game, r, matches, ended, p in have)
                await conn.execute(update(match_results).where(and_(
                    match_results.c.player_id == p, match_results.c.table_id == table_id))
                    .values(mu=r.mu, sigma=r.sigma))
        kept = {r.player_id: r.stats for r in await conn.execute(
            select(player_stats).where(and_(player_stats.c.game == game,
                                            player_stats.c.player_id.in_(ids)))
            .with_for_update())}
        for p in ids:
            old = GameStats.of_state(json.loads(kept[p])) if p in kept else None
            text = json.dumps(add_stats(p, old).state())
            if p in kept:
                await conn.execute(update(player_stats).where(and_(
                    player_stats.c.player_id == p, player_stats.c.game == game))
                    .values(stats=text))
            else:
                await conn.execute(player_stats.insert().values(player_id=p, game=game,
                                                                stats=text))

    @staticmethod
    async def _put_rating(conn: AsyncConnection, player_id: str, game: str, r: Rating,
                          matches: int, now: float, exists: bool) -> None:
        values = {"mu": r.mu, "sigma": r.sigma, "matches": matches, "updated": now}
        if exists:
            await conn.execute(update(ratings).where(and_(
                ratings.c.player_id == player_id, ratings.c.game == game)).values(**values))
        else:
            await conn.execute(ratings.insert().values(player_id=player_id, game=game,
                                                       **values))

    async def player(self, player_id: str) -> tuple[str, float] | None:
        """A player's name and when they first came; None if unknown or deleted."""
        async with self.store.engine.connect() as conn:
            return await self._player(conn, player_id)

    @staticmethod
    async def _player(conn: AsyncConnection, player_id: str) -> tuple[str, float] | None:
        r = (await conn.execute(select(players.c.name, players.c.created).where(and_(
            players.c.id == player_id, players.c.deleted.is_(None))))).first()
        return None if r is None else (r.name, r.created)

    async def profile(self, player_id: str, recent: int) -> Profile | None:
        """A player's name, first visit, ratings, stats and ``recent`` latest matches, in one
        connection; None if unknown or deleted."""
        async with self.store.engine.connect() as conn:
            found = await self._player(conn, player_id)
            if found is None:
                return None
            rs = await conn.execute(select(ratings).where(ratings.c.player_id == player_id)
                                    .order_by(ratings.c.game))
            rating_rows = [RatingRow(r.game, Rating(r.mu, r.sigma), r.matches) for r in rs]
            ss = await conn.execute(select(player_stats.c.stats)
                                    .where(player_stats.c.player_id == player_id)
                                    .order_by(player_stats.c.game))
            stats = [GameStats.of_state(json.loads(r.stats)) for r in ss]
            lines = await self._history(conn, player_id, None, recent)
            country = (await conn.execute(select(players.c.country)
                                          .where(players.c.id == player_id))).scalar()
        return Profile(found[0], found[1], country, rating_rows, stats, lines)

    async def set_country(self, player_id: str, country: str | None) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(country=country))

    async def history(self, player_id: str, before: float | None,
                      limit: int) -> list[dict[str, object]] | None:
        """The player's finished matches ended before ``before`` (None: all), newest first;
        None if the player is unknown or deleted."""
        async with self.store.engine.connect() as conn:
            if await self._player(conn, player_id) is None:
                return None
            return await self._history(conn, player_id, before, limit)

    @staticmethod
    async def _history(conn: AsyncConnection, player_id: str, before: float | None,
                       limit: int) -> list[dict[str, object]]:
        q = select(match_results).where(match_results.c.player_id == player_id)
        if before is not None:
            q = q.where(match_results.c.ended < before)
        rows = await conn.execute(q.order_by(desc(match_results.c.ended)).limit(limit))
        out = [{"table": r.table_id, "game": r.game, "seat": r.seat, "result": r.result,
                "ended": r.ended, "mu": r.mu, "sigma": r.sigma, **json.loads(r.entry)}
               for r in rows]
        # the people's names as they are now: a deleted player is "deleted player", unlinked
        people = [x for line in out for k in ("partners", "opponents")
                  for x in line[k] if isinstance(x, dict) and x.get("player")]
        if people:
            ids = {str(x["player"]) for x in people}
            now = {r.id: (r.name, r.deleted) for r in await conn.execute(
                select(players.c.id, players.c.name, players.c.deleted)
                .where(players.c.id.in_(ids)))}
            for x in people:
                name, deleted = now.get(str(x["player"]), (x.get("name"), None))
                x["name"] = name
                if deleted is not None:
                    x["player"] = None
        return out

    async def forget(self, player_id: str) -> None:
        """A deleted account: its ratings, stats, history lines, offline records and places
        on seasons' podiums go."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            for table in (ratings, player_stats, match_results, offline_records, season_podiums):
                await conn.execute(delete(table).where(table.c.player_id == player_id))

    async def leaderboard(self, game: str, max_sigma: float,
                          limit: int) -> list[tuple[str, str, Rating, int]]:
        """(player id, name, rating, matches) of the players of ``game`` whose rating is no
        longer provisional, the highest mu first."""
        q = (select(ratings, players.c.name).join(players, players.c.id == ratings.c.player_id)
             .where(and_(ratings.c.game == game, ratings.c.sigma <= max_sigma,
                         players.c.deleted.is_(None)))
             .order_by(desc(ratings.c.mu)).limit(limit))
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(q)
        return [(r.player_id, r.name, Rating(r.mu, r.sigma), r.matches) for r in rows]

    async def unwritten(self, limit: int) -> list[str]:
        """Finished tables with a player's seat and no history line yet (their write was lost
        to a stop, or they ended before this existed), the earliest ended first."""
        written = exists().where(match_results.c.table_id == game_tables.c.id)
        q = (select(game_tables.c.id, game_tables.c.updated)
             .join(seats, seats.c.table_id == game_tables.c.id)
             .where(and_(game_tables.c.over.is_(True), seats.c.player_id.is_not(None),
                         ~written))
             .group_by(game_tables.c.id, game_tables.c.updated)
             .order_by(game_tables.c.updated).limit(limit))
        async with self.store.engine.connect() as conn:
            return [str(r.id) for r in await conn.execute(q)]
