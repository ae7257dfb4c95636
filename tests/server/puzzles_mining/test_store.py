"""The store of mined puzzles (store/mined_puzzles.py): each id kept once, a game's puzzles read
back as they were given, the earliest found first."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from taash.puzzles.store import read_set
from taash.server.store.db import Store
from taash.server.store.mined_puzzles import Mined, MinedPuzzles

pytestmark = pytest.mark.slow  # a database migrated and the shipped set read (a second)


async def test_new_ids_are_kept_once_and_read_back_per_game(tmp_path: Path) -> None:
    shipped = read_set()
    cp2 = [p for p in shipped if p["game"] == "court-piece-2p"][:3]
    goat = [p for p in shipped if p["game"] == "goat"][:1]
    store = Store(make_url(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}"))
    await store.migrate()
    try:
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
    finally:
        await store.close()
