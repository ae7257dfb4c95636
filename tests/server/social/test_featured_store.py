"""Featured tables (issue 47) from the store, on SQLite and PostgreSQL: the live tables that
spectators may watch, moved at lately, with players, the highest rated first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import delete

from taash.server.config import Settings
from taash.server.social.featured import featured
from taash.server.store.db import SeatRow, Store, TableRow
from taash.server.store.schema import game_tables, ratings, seats
from taash.server.store.social import SocialStore

pytestmark = [pytest.mark.postgres]


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path,
                pg_url: str) -> AsyncIterator[Store]:
    db = f"sqlite:///{tmp_path / 'f.db'}" if request.param == "sqlite" else pg_url
    s = Store(Settings(db_url=db).resolved_db_url())
    await s.migrate()
    async with s.engine.begin() as conn:  # the module's PostgreSQL database is shared
        for table in (game_tables, seats, ratings):
            await conn.execute(delete(table))
    yield s
    await s.close()


async def table(store: Store, tid: str, people: list[str | None], *, live: bool = True,
                over: bool = False, delay: str = "deal", updated: float = 1000.0,
                game: str = "court-piece-2p") -> None:
    """A table of ``people`` (a player id, or None for an easy bot)."""
    await store.create_table(TableRow(
        id=tid, game=game, options={"target": 5}, seed=1, first_seat=0, live=live, open=False,
        bot_delay_ms=0, turn_timer_s=None, created=updated, updated=updated, over=over,
        spectator_delay=delay,
        seats=[SeatRow(seat=i, type="human" if p else "bot", level=None if p else "easy",
                       name=f"P{i}" if p else None, player_id=p, claimed=True)
               for i, p in enumerate(people)]))


async def rate(store: Store, player: str, mu: float, game: str = "court-piece-2p") -> None:
    async with store.engine.begin() as conn:
        await conn.execute(ratings.insert().values(player_id=player, game=game, mu=mu,
                                                   sigma=3.0, matches=10, updated=1.0))


async def test_the_highest_rated_watchable_live_tables_first(store: Store) -> None:
    await rate(store, "strong", 40.0)  # 2400
    await rate(store, "fair", 30.0)  # 1800
    await table(store, "t-strong", ["strong", None])
    await table(store, "t-mixed", ["fair", "newbie"])  # a new player counts as 1500
    await table(store, "t-new", ["newbie", None], updated=1100.0)
    await table(store, "t-new-old", ["newbie2", None], updated=1050.0)
    await table(store, "t-hidden", ["strong", "fair"], delay="hidden")
    await table(store, "t-over", ["strong", "fair"], over=True)
    await table(store, "t-stale", ["strong", "fair"], updated=100.0)
    await table(store, "t-bots", [None, None])
    await table(store, "t-anytime", ["strong", "fair"], live=False)
    got = await featured(SocialStore(store), now=1200.0, limit=10)
    assert [f["id"] for f in got] == ["t-strong", "t-mixed", "t-new", "t-new-old"]
    top = got[0]
    assert top["rating"] == 2400 and top["url"] == "/t/t-strong"
    assert top["spectator_delay"] == "deal" and top["game"] == "court-piece-2p"
    assert [(s["type"], s["name"], s["rating"]) for s in top["seats"]] == [
        ("human", "P0", 2400), ("bot", None, 1500)]
    assert got[1]["rating"] == round((1800 + 1500) / 2)
    assert [f["id"] for f in await featured(SocialStore(store), 1200.0, 2)] == [
        "t-strong", "t-mixed"]
