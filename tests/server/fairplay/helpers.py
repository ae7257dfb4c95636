"""Fair play's tests: a moderator made as the host's command makes one, a case opened by the
detector's weighing of a player's (or a partnership's) scanned deals, rated matches written as
a match's end writes them."""

from __future__ import annotations

import copy
from typing import Any

from taash.ratings import Rating, rate
from taash.server.fairplay.service import Moderators
from taash.server.store.fairplay import FairPlayStore, ScanRow
from taash.server.store.fairplay_pairs import PairScanRow, pair_key
from taash.server.store.social import ResultRow
from taash.stats import GameStats, side_of
from tests.server.events.helpers import Player, Site

GAME = "court-piece-2p"


def as_table(rec: dict[str, Any], table: str, players: dict[int, str]) -> dict[str, Any]:
    """An arena record as a table's record (``wire.record``): its id, and each seat a player
    holds a human seat with their id (the others stay bots)."""
    out = copy.deepcopy(rec)
    out["table"] = table
    out["seats"] = [{"type": "human", "level": None, "name": s["name"], "player": players[i]}
                    if i in players else {**s, "player": None}
                    for i, s in enumerate(out["seats"])]
    return out


async def moderator(s: Site) -> Player:
    p = await s.player()
    assert await Moderators(s.services.store).grant(p.id)
    return p


async def flagged(s: Site, player_id: str, deals: int = 20, hits: int = 20) -> str:
    """Scans of ``deals`` deals with one opportunity each (``hits`` of them hit), weighed: the
    case the weighing opens (the detector's reference decides)."""
    rows = [ScanRow(player_id, f"tbl{player_id[:6]}{d}", GAME, 1000.0 + d, 1, 5,
                    [(0, 10, GAME, "follow", d < hits)]) for d in range(deals)]
    store = FairPlayStore(s.services.store)
    for r in rows:
        await store.scanned(r.table_id, [r])
    case = await s.services.fairplay.weigh(player_id)
    assert case is not None
    return case


async def flagged_pair(s: Site, a: str, b: str, deals: int = 20, hits: int = 20) -> str:
    """A partnership's scans of ``deals`` four-player deals (single sar) with one partner-fit
    opportunity each (``hits`` of them hit), weighed: the case the weighing opens."""
    one, two = pair_key(a, b)
    store = FairPlayStore(s.services.store)
    for d in range(deals):
        t = f"tp{one[:5]}{two[:5]}{d}"
        await store.scanned(t, [], [PairScanRow(one, two, t, "court-piece", 1000.0 + d, 1, 9,
                                                [(0, 10, "court-piece/single", "follow",
                                                  d < hits)])])
    case = await s.services.fairplay.weigh_pair(a, b)
    assert case is not None
    return case


async def rated_match(s: Site, table: str, seats: list[str | Rating], winner: int | None,
                      ended: float, game: str = GAME) -> None:
    """A rated match's results, written as the server writes a finished match's."""
    rows = [ResultRow(p, i, 0 if winner is None else 1 if side_of(game, i) == winner else -1,
                      {"options": {}, "partners": [], "opponents": []})
            for i, p in enumerate(seats) if isinstance(p, str)]

    def new(before: dict[str, Rating]) -> dict[str, Rating]:
        now = [x if isinstance(x, Rating) else before[x] for x in seats]
        after = rate(game, now, [isinstance(x, Rating) for x in seats], winner)
        return {x: after[i] for i, x in enumerate(seats) if isinstance(x, str)}

    def stats(_p: str, old: GameStats | None) -> GameStats:
        return old or GameStats(game)

    assert await s.services.social.store.finish_match(table, game, ended, rows, new, stats)


def ratings_of(profile: dict[str, Any]) -> dict[str, Any]:
    return profile["ratings"].get(GAME)  # type: ignore[no-any-return]
