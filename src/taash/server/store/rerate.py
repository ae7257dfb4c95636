"""A player's rated results taken out of the ratings (fair play's ban from rated play,
docs/fairplay.md): the matches become unrated for everyone who played them, and every rating of
the game is replayed (``taash.ratings.replay``) from the rated history left, in one transaction.
The queries of ``SocialStore`` on the same tables (match_results, ratings, seats)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy import and_, delete, select, update

from taash.ratings import RatedMatch, Rating, Replayed, bot_rating
from taash.server.store.db import Store
from taash.server.store.schema import match_results, ratings, seats
from taash.server.store.social import SocialStore
from taash.stats import side_of


async def rated_games(store: Store, player_id: str) -> list[str]:
    """The games in which the player has a rated result."""
    async with store.engine.connect() as conn:
        return sorted(str(r.game) for r in await conn.execute(
            select(match_results.c.game).where(and_(
                match_results.c.player_id == player_id, match_results.c.mu.is_not(None)))
            .distinct()))


async def rerate(store: Store, game: str, without: str,
                 replay: Callable[[str, Sequence[RatedMatch]], Replayed]) -> int:
    """Take ``without``'s rated matches of ``game`` out of its ratings: those matches
    become unrated for everyone who played them, and every player's rating is replayed
    (``replay``) from the game's rated history without them, in the order the matches
    ended, in one transaction.  How many matches were taken out."""
    async with store._writing(), store.engine.begin() as conn:
        # the game's ratings held while they are rewritten (PostgreSQL: FOR UPDATE)
        held = {r.player_id: r for r in await conn.execute(
            select(ratings).where(ratings.c.game == game).with_for_update())}
        rows = list(await conn.execute(
            select(match_results.c.table_id, match_results.c.player_id,
                   match_results.c.seat, match_results.c.result, match_results.c.ended)
            .where(and_(match_results.c.game == game, match_results.c.mu.is_not(None)))))
        tables: dict[str, list[tuple[str, int, int, float]]] = {}
        for row in rows:
            tables.setdefault(row.table_id, []).append((row.player_id, row.seat,
                                                        row.result, row.ended))
        dropped = sorted(t for t, people in tables.items()
                         if any(p == without for p, _, _, _ in people))
        kept = sorted((t for t in tables if t not in set(dropped)),
                      key=lambda t: (tables[t][0][3], t))
        seated: dict[str, dict[int, tuple[str, str | None]]] = {}
        for s in await conn.execute(
                select(seats.c.table_id, seats.c.seat, seats.c.type, seats.c.level)
                .where(seats.c.table_id.in_(kept))):
            seated.setdefault(s.table_id, {})[s.seat] = (s.type, s.level)
        history = [m for t in kept
                   if (m := _rated_match(game, t, tables[t], seated.get(t, {})))
                   is not None]
        done = replay(game, history)
        for t in dropped:
            await conn.execute(update(match_results).where(match_results.c.table_id == t)
                               .values(mu=None, sigma=None))
        for (p, t), after in done.after.items():
            await conn.execute(update(match_results).where(and_(
                match_results.c.player_id == p, match_results.c.table_id == t))
                .values(mu=after.mu, sigma=after.sigma))
        last = {p: e for t in kept for p, _, _, e in tables[t]}
        for p in held:
            if p not in done.ratings:
                await conn.execute(delete(ratings).where(and_(
                    ratings.c.player_id == p, ratings.c.game == game)))
        for p, now in done.ratings.items():
            await SocialStore._put_rating(conn, p, game, now, done.matches[p], last[p], p in held)
    return len(dropped)


def _rated_match(game: str, table: str, people: list[tuple[str, int, int, float]],
                 seated: dict[int, tuple[str, str | None]]) -> RatedMatch | None:
    """A written rated match as ``replay`` takes it: the players' seats from their results,
    the bots' from the table's seats (their levels' fixed ratings), the winner from a
    player's result.  None where a seat can no longer be told (a player's account deleted
    since: their results are gone)."""
    by_seat: dict[int, str | Rating] = {seat: p for p, seat, _, _ in people}
    n = max([*seated, *by_seat]) + 1
    for s in range(n):
        if s in by_seat:
            continue
        kind, level = seated.get(s, ("", None))
        fixed = bot_rating(game, level or "") if kind == "bot" else None
        if fixed is None:
            return None
        by_seat[s] = fixed
    _, seat, result, _ = people[0]
    side = side_of(game, seat)
    others = {side_of(game, s) for s in range(n)} - {side}
    winner = None if result == 0 else side if result == 1 else min(others)
    return RatedMatch(table, tuple(by_seat[s] for s in range(n)), winner)
