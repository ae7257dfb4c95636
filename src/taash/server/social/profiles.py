"""What a finished match leaves a player: a history line, stats and (for a rated match) a new
rating; and the public profile, history and leaderboard that show them.

Rated (taash.ratings): every seat is a player's (a human seat bound to a player, each a
different player) or a bot of a level with a published rating.  The players module has no
notion of a guest apart from a signed-in player yet (every visitor is a player from the first
visit; an e-mail or a passkey only keeps them), so every player counts as signed in: the one
place to narrow that is ``rated_seats``.

The hook is ``Social.match_over``, called once by the room that commits a match's last action;
if the server stops between that commit and this write, ``catch_up`` writes it at the next
start (``Hub.sweep``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Literal

from typing_extensions import TypedDict

from taash.games import GAMES
from taash.ratings import PROVISIONAL_SIGMA, Rating, bot_rating, rate, replay
from taash.server.accounts.countries import flag
from taash.server.errors import BadRequest, Moved, NotFound
from taash.server.social.seasons import PodiumJson, RatingJson, Seasons, rating_json
from taash.server.store.rerate import rated_games, rerate
from taash.server.store.rows import SeatRow, TableRow
from taash.server.store.social import ResultRow, SocialStore
from taash.server.tables import wire
from taash.stats import GameStats, add_record, side_of

if TYPE_CHECKING:
    from taash.server.store.db import Store
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

HISTORY_PAGE = 20
RECENT = 10


class LeaderRow(RatingJson):
    rank: int
    player: str
    name: str


class BotSeat(TypedDict):
    type: Literal["bot"]
    level: str | None
    name: str | None


class HumanSeat(TypedDict):
    type: Literal["human"]
    name: str | None
    player: str | None


class ProfileJson(TypedDict):
    """A player's public profile: ``recent``, their last matches as ``history`` lists them."""

    id: str
    name: str
    country: str | None
    flag: str | None
    member_since: str
    ratings: dict[str, RatingJson]
    stats: dict[str, dict[str, object]]
    recent: list[dict[str, object]]
    podiums: list[PodiumJson]


class History(TypedDict):
    """A page of a player's matches (each the store's history row with the API's fields);
    ``next``: the ``before`` of the next page, null at the last."""

    matches: list[dict[str, object]]
    next: float | None


def rated_seats(meta: TableRow) -> list[Rating | None] | None:
    """Per seat, a bot's fixed rating or None (a player, rated from the store); None when the
    match is not rated."""
    out: list[Rating | None] = []
    people: set[str] = set()
    for s in meta.seats:
        if s.type == "bot":
            r = bot_rating(meta.game, s.level or "")
            if r is None:
                return None
            out.append(r)
        elif s.player_id is not None and s.player_id not in people:
            people.add(s.player_id)
            out.append(None)
        else:
            return None
    return out if people else None


def _who(s: SeatRow) -> BotSeat | HumanSeat:
    if s.type == "bot":
        return {"type": "bot", "level": s.level, "name": s.name}
    return {"type": "human", "name": s.name, "player": s.player_id}


def history_lines(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The store's history rows as the API gives them."""
    out: list[dict[str, object]] = []
    for r in rows:
        mu, sigma = r.pop("mu"), r.pop("sigma")
        ended = r["ended"]
        assert isinstance(ended, float | int)
        r["date"] = wire.iso(ended)
        r["result"] = {1: "won", 0: "drawn", -1: "lost"}[int(str(r["result"]))]
        r["rated"] = mu is not None
        if isinstance(mu, float) and isinstance(sigma, float):
            r["rating_after"] = rating_json(Rating(mu, sigma))
        r["offline"] = r.get("offline") is True  # played in the page, brought home (uploads)
        r["record"] = (f"/api/records/{r['table']}" if r["offline"]
                       else f"/api/tables/{r['table']}/record")
        out.append(r)
    return out


class Social:
    """Ratings, history and stats of the hub's players."""

    def __init__(self, store: Store, room: Callable[[str], Awaitable[Room]]) -> None:
        self.store = SocialStore(store)
        self.room = room  # a table's room, loaded if need be
        self.seasons = Seasons(store)
        # the tournament finals being played (the tournaments answer; none unless set)
        self.finals: Callable[[], Awaitable[set[str]]] | None = None
        # which of these players are banned from rated play (fair play answers; none unless
        # set): a match with one of them is not rated
        self.banned: Callable[[Sequence[str]], Awaitable[set[str]]] | None = None

    async def match_over(self, room: Room) -> None:
        """Write the finished match's history lines, stats and ratings (once)."""
        try:
            await self._match_over(room)
        except Exception:  # the match itself is committed; say why its rating is missing
            log.exception("table %s: match results", room.id)

    async def _match_over(self, room: Room) -> None:
        meta, state = room.meta, room.state
        outcome = state.outcome()
        if outcome is None:
            return
        game = meta.game
        record = wire.record(room)
        summary = state.summary()
        rows: list[ResultRow] = []
        seen: set[str] = set()
        for s in meta.seats:
            if s.type != "human" or s.player_id is None or s.player_id in seen:
                continue
            seen.add(s.player_id)
            side = side_of(game, s.seat)
            result = 0 if outcome.draw else 1 if outcome.winner == side else -1
            entry: dict[str, object] = {
                "options": meta.options,
                "partners": [_who(o) for o in meta.seats
                             if o.seat != s.seat and side_of(game, o.seat) == side],
                "opponents": [_who(o) for o in meta.seats if side_of(game, o.seat) != side]}
            rows.append(ResultRow(s.player_id, s.seat, result, entry))
        if not rows:
            return
        fixed = rated_seats(meta)
        if fixed is not None and self.banned is not None and await self.banned(
                [r.player_id for r in rows]):
            fixed = None  # a player banned from rated play: nobody's rating moves
        seat_of = {r.player_id: r.seat for r in rows}

        def new_ratings(before: dict[str, Rating]) -> dict[str, Rating]:
            assert fixed is not None
            now = [f if f is not None else before[str(meta.seats[i].player_id)]
                   for i, f in enumerate(fixed)]
            after = rate(game, now, [f is not None for f in fixed], outcome.winner)
            return {p: after[seat] for p, seat in seat_of.items()}

        def add_stats(player_id: str, old: GameStats | None) -> GameStats:
            stats = {game: old} if old is not None else {}
            add_record(stats, record, seat_of[player_id], summary)
            return stats[game]

        await self.store.finish_match(meta.id, game, meta.updated, rows,
                                      new_ratings if fixed is not None else None, add_stats)

    async def catch_up(self) -> int:
        """Write the finished matches whose results were never written (a stop between a
        match's last commit and its results; matches older than this code), oldest first, so
        ratings follow the order they were played in.  How many were written."""
        done: set[str] = set()
        while True:
            todo = [t for t in await self.store.unwritten(100) if t not in done]
            if not todo:
                return len(done)
            for table_id in todo:
                done.add(table_id)
                try:
                    await self._match_over(await self.room(table_id))
                except Moved:  # another instance owns the table: its results are its owner's
                    continue
                except Exception:
                    log.exception("table %s: match results", table_id)

    async def unrate(self, player_id: str) -> int:
        """A player banned from rated play: their rated matches are taken out of the ratings
        (unrated for everyone who played them) and every rating of those games replayed from
        the rated history without them (``store.rerate``).  How many matches."""
        n = 0
        for game in await rated_games(self.store.store, player_id):
            n += await rerate(self.store.store, game, player_id, replay)
        return n

    async def profile(self, player_id: str) -> ProfileJson:
        p = await self.store.profile(player_id, RECENT)
        if p is None:
            raise NotFound(f"no player {player_id!r}")
        return {"id": player_id, "name": p.name, "country": p.country,
                "flag": flag(p.country) if p.country else None,
                "member_since": wire.iso(p.created),
                "ratings": {r.game: rating_json(r.rating, r.matches) for r in p.ratings},
                "stats": {s.game: s.as_json() for s in p.stats},
                "recent": history_lines(p.recent),
                "podiums": await self.seasons.podiums(player_id)}

    async def history(self, player_id: str, before: float | None,
                      limit: int) -> History:
        rows = await self.store.history(player_id, before, limit + 1)
        if rows is None:
            raise NotFound(f"no player {player_id!r}")
        more = len(rows) > limit
        rows = rows[:limit]
        last = rows[-1]["ended"] if more else None
        assert last is None or isinstance(last, float)  # match_results.ended: a Float column
        return {"matches": history_lines(rows), "next": last}

    async def leaderboard(self, game: str, limit: int) -> list[LeaderRow]:
        if game not in GAMES:
            raise BadRequest(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        rows = await self.store.leaderboard(game, PROVISIONAL_SIGMA, limit)
        return [{"rank": i + 1, "player": pid, "name": name, **rating_json(r, n)}
                for i, (pid, name, r, n) in enumerate(rows)]
