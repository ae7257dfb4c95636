"""The puzzles this server mined from its own finished deals (``store.mined_puzzles``, found by
``server.puzzles_mining``) as a provider of the puzzle source: read from the store per game, and
read again at most every ``refresh_s`` seconds, so a new puzzle is served within a minute and
a busy puzzles page does not read the table at each request.  Never the daily puzzle's
collection (it grows: a past date's puzzle must not change)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from taash.games import GAMES
from taash.server.puzzles.source import Entry, entry_of
from taash.server.store.db import Store
from taash.server.store.mined_puzzles import MinedPuzzles


class MinedProvider:
    daily = False

    def __init__(self, store: Store, refresh_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.mined = MinedPuzzles(store)
        self.refresh_s = refresh_s
        self.clock = clock
        self._games: dict[str, tuple[float, list[Entry]]] = {}

    async def entries(self, game: str) -> Sequence[Entry]:
        kept = self._games.get(game)
        if kept is None or self.clock() - kept[0] >= self.refresh_s:
            kept = (self.clock(), [entry_of(d) for d in await self.mined.of_game(game)])
            self._games[game] = kept
        return kept[1]

    async def get(self, puzzle_id: str) -> Entry | None:
        for game in GAMES:
            for e in await self.entries(game):
                if e.id == puzzle_id:
                    return e
        return None
