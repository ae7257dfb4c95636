"""The store's queries for seasons (migration 0020, docs/social.md "Seasons"): a game's
standings over one season's rated results, and the podiums of closed seasons, kept once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, desc, func, select
from sqlalchemy.exc import IntegrityError

from taash.ratings import Rating
from taash.server.store.db import Store
from taash.server.store.schema import match_results, players
from taash.server.store.season_schema import season_podiums, seasons_closed


@dataclass(frozen=True)
class SeasonRow:
    """A player's place in a season: their rating after their last rated match of the season
    and how many rated matches they played in it."""

    player_id: str
    name: str
    rating: Rating
    matches: int


@dataclass(frozen=True)
class Podium:
    game: str
    season: str
    rank: int
    rating: Rating
    matches: int


class SeasonStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def standings(self, game: str, start: float, end: float, max_sigma: float,
                        min_matches: int, limit: int) -> list[SeasonRow]:
        """The players of ``game`` with at least ``min_matches`` rated matches ended in
        [start, end) whose rating after the last of them is no longer provisional, the highest
        mu first (ties: the player id, so the order is the same on every instance)."""
        r = match_results.c
        last = (select(r.player_id, r.mu, r.sigma,
                       func.row_number().over(partition_by=r.player_id,
                                              order_by=(desc(r.ended), desc(r.table_id)))
                       .label("nth"),
                       func.count().over(partition_by=r.player_id).label("n"))
                .where(and_(r.game == game, r.mu.is_not(None), r.ended >= start, r.ended < end))
                .subquery())
        q = (select(last.c.player_id, players.c.name, last.c.mu, last.c.sigma, last.c.n)
             .join(players, players.c.id == last.c.player_id)
             .where(and_(last.c.nth == 1, last.c.n >= min_matches, last.c.sigma <= max_sigma,
                         players.c.deleted.is_(None)))
             .order_by(desc(last.c.mu), last.c.player_id).limit(limit))
        async with self.store.engine.connect() as conn:
            return [SeasonRow(x.player_id, x.name, Rating(x.mu, x.sigma), int(x.n))
                    for x in await conn.execute(q)]

    async def first_rated(self, game: str, after: float | None = None) -> float | None:
        """When the earliest rated match of ``game`` (ended at ``after`` or later) ended;
        None: none."""
        r = match_results.c
        since = r.ended >= after if after is not None else r.ended.is_not(None)
        async with self.store.engine.connect() as conn:
            first = (await conn.execute(select(func.min(r.ended)).where(
                and_(r.game == game, r.mu.is_not(None), since)))).scalar()
        return None if first is None else float(first)

    async def closed(self, game: str) -> set[str]:
        """The seasons of ``game`` closed so far."""
        async with self.store.engine.connect() as conn:
            return {str(s) for s in (await conn.execute(
                select(seasons_closed.c.season).where(seasons_closed.c.game == game))).scalars()}

    async def close(self, game: str, season: str, podium: Sequence[SeasonRow],
                    now: float) -> bool:
        """Keep a closed season's podium (its first three rows), once: False if another
        instance (or an earlier call) closed it first, and nothing changes."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(seasons_closed.insert().values(game=game, season=season,
                                                                  closed=now))
                if podium:
                    await conn.execute(season_podiums.insert(), [
                        {"game": game, "season": season, "rank": i + 1,
                         "player_id": p.player_id, "mu": p.rating.mu, "sigma": p.rating.sigma,
                         "matches": p.matches} for i, p in enumerate(podium[:3])])
        except IntegrityError:
            return False
        return True

    async def podiums_of(self, player_id: str) -> list[Podium]:
        """The player's places on closed seasons' podiums, the latest season first."""
        p = season_podiums.c
        q = (select(p.game, p.season, p.rank, p.mu, p.sigma, p.matches)
             .where(p.player_id == player_id).order_by(desc(p.season), p.game))
        async with self.store.engine.connect() as conn:
            return [Podium(x.game, x.season, x.rank, Rating(x.mu, x.sigma), x.matches)
                    for x in await conn.execute(q)]
