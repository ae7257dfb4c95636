"""Featured tables (issue 47): the live tables with the highest-rated players that anyone
may watch, for the home page (``GET /api/featured``).

A table is a candidate while it is live, not over, not hidden from spectators
(``spectator_delay``) and moved at in the last ``RECENT_S`` seconds; its rating is the mean of
its players' ratings in its game (a player not rated yet counts as new: 1500), bots left out
(a table of bots only, or of no signed player, is not featured).  Spectators see it as its
delay lets them (``tables.watch``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from typing_extensions import TypedDict

from taash.ratings import NEW, SCALE, Rating, bot_rating
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.store.social import SocialStore

RECENT_S = 600.0  # a table nobody moved at for this long is not featured
CANDIDATES = 200  # the latest live tables looked at


class FeaturedSeat(TypedDict):
    seat: int
    type: str
    name: str | None
    level: str | None
    player: str | None
    rating: int | None  # the player's (or the bot level's) rating; None: a seat with nobody


class FeaturedTable(TypedDict):
    id: str
    game: str
    options: dict[str, object]
    url: str
    rating: int  # the mean of its players' ratings
    spectator_delay: str
    updated: str
    seats: list[FeaturedSeat]
    final: bool  # a tournament's final, being played: featured first


def _seat(game: str, s: dict[str, object]) -> tuple[FeaturedSeat, Rating | None]:
    mu, sigma = s["mu"], s["sigma"]
    r: Rating | None = None
    if s["type"] == "bot":
        r = bot_rating(game, str(s["level"] or ""))
    elif s["player"] is not None:
        r = (Rating(mu, sigma) if isinstance(mu, float) and isinstance(sigma, float)
             else NEW)
    seat = s["seat"]
    assert isinstance(seat, int)
    name, level, player = s["name"], s["level"], s["player"]
    return {"seat": seat, "type": str(s["type"]),
            "name": name if isinstance(name, str) else None,
            "level": level if isinstance(level, str) else None,
            "player": player if isinstance(player, str) else None,
            "rating": None if r is None else round(SCALE * r.mu)}, r


async def featured(store: SocialStore, now: float, limit: int,
                   finals: frozenset[str] = frozenset()) -> list[FeaturedTable]:
    """The ``limit`` featured tables: tournament finals being played (``finals``) first, then
    the highest rated (the latest moved first among equals)."""
    out: list[tuple[float, float, FeaturedTable]] = []
    for t, seats in await store.live_tables(now - RECENT_S, CANDIDATES):
        game = str(t["game"])
        shown: list[FeaturedSeat] = []
        people: list[float] = []
        for s in seats:
            seat, r = _seat(game, s)
            shown.append(seat)
            if s["type"] == "human" and r is not None:
                people.append(r.mu)
        if not people:
            continue
        mean = sum(people) / len(people)
        updated = t["updated"]
        options = t["options"]
        assert isinstance(updated, float) and isinstance(options, dict)
        out.append((mean, updated, {
            "id": str(t["id"]), "game": game, "options": options, "url": f"/t/{t['id']}",
            "rating": round(SCALE * mean), "spectator_delay": str(t["spectator_delay"]),
            "updated": iso(updated), "seats": shown, "final": str(t["id"]) in finals}))
    out.sort(key=lambda x: (not x[2]["final"], -x[0], -x[1]))
    return [f for _, _, f in out[:limit]]
