"""The store of mined puzzles and the miner's queue (store/mined_puzzles.py, mining_queue.py),
on SQLite and PostgreSQL: each id kept once, a game's puzzles read back as they were given (the
earliest found first); the players whose consent is on; a match queued once, off the queue in
the commit that keeps its puzzles; a table a person left, marked once and asked once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import delete, update

from taash.puzzles.store import read_set
from taash.server.config import Settings
from taash.server.store.db import PlayerRow, SessionRow, Store
from taash.server.store.mined_puzzles import Mined, MinedPuzzles
from taash.server.store.mining_queue import MiningQueue
from taash.server.store.mining_schema import mined_puzzles, mining_left, mining_queue
from taash.server.store.schema import players, sessions

pytestmark = [pytest.mark.postgres, pytest.mark.slow]  # a database migrated per backend


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path,
                pg_url: str) -> AsyncIterator[Store]:
    db = f"sqlite:///{tmp_path / 'p.db'}" if request.param == "sqlite" else pg_url
    s = Store(Settings(db_url=db).resolved_db_url())
    await s.migrate()
    async with s.engine.begin() as conn:  # the module's PostgreSQL database is shared
        for table in (mined_puzzles, mining_queue, mining_left, sessions, players):
            await conn.execute(delete(table))
    yield s
    await s.close()


async def test_new_ids_are_kept_once_and_read_back_per_game(store: Store) -> None:
    shipped = read_set()
    cp2 = [p for p in shipped if p["game"] == "court-piece-2p"][:3]
    goat = [p for p in shipped if p["game"] == "goat"][:1]
    mined = MinedPuzzles(store)
    assert await mined.add([Mined(cp2[1], "t1", 2.0), Mined(goat[0], "t1", 2.0)]) == 2
    # one new, one kept already, one twice in the same call
    assert await mined.add([Mined(cp2[0], "t2", 1.0), Mined(cp2[1], "t2", 3.0),
                            Mined(cp2[2], "t2", 4.0), Mined(cp2[2], "t2", 4.0)]) == 2
    assert await mined.of_game("court-piece-2p") == [cp2[0], cp2[1], cp2[2]]
    assert await mined.of_game("goat") == goat
    assert await mined.of_game("court-piece") == []
    assert await mined.counts() == {"court-piece-2p": 3, "goat": 1}
    assert await mined.source(str(cp2[1]["id"])) == "t1"  # the first table it was found at
    assert await mined.add([]) == 0


async def test_the_queue_and_the_players_consent(store: Store) -> None:
    for pid, on in (("p-on", True), ("p-off", False), ("p-gone", True)):
        await store.create_player(PlayerRow(pid, pid, "en", 1.0),
                                  SessionRow(f"s-{pid}", pid, 1.0, 1.0, 9.0, None), f"h-{pid}")
        await store.update_player(pid, puzzle_consent=on)
    async with store.engine.begin() as conn:
        await conn.execute(update(players).where(players.c.id == "p-gone").values(deleted=2.0))
    q = MiningQueue(store)
    assert await q.consenting(["p-on", "p-off", "p-gone", "nobody"]) == {"p-on"}
    assert await q.consenting([]) == set()
    assert (await store.player("p-on")).puzzle_consent is True  # type: ignore[union-attr]
    # a match is queued once; mined: its puzzles kept and it leaves the queue in one commit
    assert await q.enqueue("t1", "goat", 5.0, "{}", ["p-on"])
    assert not await q.enqueue("t1", "goat", 6.0, "{}", ["p-on"])
    assert await q.enqueue("t0", "goat", 4.0, "{}", [])
    assert [(m.table_id, m.players, m.tries) for m in await q.queued(10)] == [
        ("t0", [], 0), ("t1", ["p-on"], 0)]
    assert await q.waiting() == 2
    await q.tried("t0")
    assert (await q.queued(1))[0].tries == 1
    puzzle = next(p for p in read_set() if p["game"] == "goat")
    assert await q.mined("t1", [Mined(puzzle, "t1", 7.0)]) == 1
    assert await q.mined("t0", [Mined(puzzle, "t0", 8.0)]) == 0  # kept already
    assert await q.queued(10) == [] and await q.waiting() == 0
    assert await MinedPuzzles(store).counts() == {"goat": 1}
    # a table a person left: marked once (twice is no error), asked once
    await q.seat_left("t9", 1.0)
    await q.seat_left("t9", 2.0)
    assert await q.was_left("t9") and not await q.was_left("t9")
