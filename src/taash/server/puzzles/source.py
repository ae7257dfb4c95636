"""Where the server's puzzles come from: a ``PuzzleSource`` over one or more providers, each a
collection of puzzles in the set format (docs/puzzles.md, "The format").

The shipped set (``taash/puzzles/set.json.gz``) is the first provider, read once, on the first
request that needs it (in a worker thread: a server that serves no puzzle never reads it).
Another provider (puzzles mined from this server's finished deals, kept in a store table) is
one more entry in ``PROVIDERS``, made from the server's store: it answers the same questions
(``get``, ``entries``, ``daily``).  The daily puzzle is drawn only from providers that say
``daily``: a fixed set, so that the puzzle of a past date never changes.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from starlette.concurrency import run_in_threadpool

from taash.games import GAMES
from taash.puzzles.glicko import Rating
from taash.puzzles.store import read_set
from taash.server.store.db import Store
from taash.server.store.mined_puzzles import MinedPuzzles

NEAREST = 12  # a puzzle is picked at random among this many nearest the rating asked for
BAND = 25.0  # ratings this close to each other are equally near
WINDOW = 4  # and a pick is at most this many bands farther than the nearest puzzle


@dataclass(frozen=True)
class Entry:
    """One puzzle: its id and game, its rating where it starts (the set's, else new) and its
    object in the set format (the record prefix, the solution: never served before an
    attempt)."""

    id: str
    game: str
    rating: Rating
    data: Mapping[str, object]


class Provider(Protocol):
    """A collection of puzzles.  ``daily``: a fixed collection the daily puzzle is drawn
    from."""

    daily: bool

    async def get(self, puzzle_id: str) -> Entry | None: ...

    async def entries(self, game: str) -> Sequence[Entry]: ...


def entry_of(data: Mapping[str, object]) -> Entry:
    """A set's puzzle as an entry: its rating where the set gives one, else a new one."""
    try:
        rating = Rating.from_json(data.get("rating"))
    except ValueError:
        rating = Rating()
    return Entry(str(data["id"]), str(data["game"]), rating, data)


class PuzzleSet:
    """A puzzle set read once, when first asked (``read``: the shipped set by default)."""

    daily = True

    def __init__(self, read: Callable[[], Sequence[Mapping[str, object]]] = read_set) -> None:
        self._read = read
        self._by_id: dict[str, Entry] | None = None
        self._by_game: dict[str, list[Entry]] = {}
        self._lock = asyncio.Lock()

    async def _load(self) -> dict[str, Entry]:
        if self._by_id is None:
            async with self._lock:
                if self._by_id is None:
                    puzzles = await run_in_threadpool(self._read)
                    by_id: dict[str, Entry] = {}
                    for data in puzzles:
                        e = entry_of(data)
                        by_id.setdefault(e.id, e)
                    for e in sorted(by_id.values(), key=lambda e: e.id):
                        self._by_game.setdefault(e.game, []).append(e)
                    self._by_id = by_id
        return self._by_id

    async def get(self, puzzle_id: str) -> Entry | None:
        return (await self._load()).get(puzzle_id)

    async def entries(self, game: str) -> Sequence[Entry]:
        await self._load()
        return self._by_game.get(game, [])


def shipped(store: Store) -> Provider:
    return PuzzleSet()


class MinedProvider:
    """The puzzles this server mined from its own finished deals (``store.mined_puzzles``,
    found by ``server.puzzles_mining``), read from the store per game and again at most every
    ``refresh_s`` seconds (a new one is served within a minute; a busy page does not read the
    table at each request).  Never the daily puzzle's collection: it grows, and a past date's
    puzzle must not change."""

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


#: the providers of the server's puzzles, each made from the server's store, in the order an id
#: is looked for: the shipped set, then the puzzles mined from this server's finished deals
PROVIDERS: list[Callable[[Store], Provider]] = [shipped, MinedProvider]


class PuzzleSource:
    """Every provider's puzzles as one collection."""

    def __init__(self, providers: Sequence[Provider], rng: random.Random | None = None) -> None:
        self.providers = list(providers)
        self.rng = rng or random.Random()

    @classmethod
    def of(cls, store: Store) -> PuzzleSource:
        """The server's source: every provider of ``PROVIDERS``."""
        return cls([make(store) for make in PROVIDERS])

    async def get(self, puzzle_id: str) -> Entry | None:
        """The puzzle of that id (None: no provider has it)."""
        for p in self.providers:
            found = await p.get(puzzle_id)
            if found is not None:
                return found
        return None

    async def entries(self, game: str) -> list[Entry]:
        out: list[Entry] = []
        seen: set[str] = set()
        for p in self.providers:
            for e in await p.entries(game):
                if e.id not in seen:
                    seen.add(e.id)
                    out.append(e)
        return out

    async def pick(self, game: str, near_rating: float, exclude: Collection[str],
                   ratings: Mapping[str, float] | None = None) -> Entry | None:
        """A puzzle of ``game`` rated near ``near_rating``, none of ``exclude`` unless every
        puzzle of the game is in it (then any); chosen at random among the ``NEAREST``
        nearest, none more than ``WINDOW`` bands (of ``BAND`` points) farther than the nearest
        (puzzles within a band of each other count as equally near, so that a set whose
        puzzles all start at 1500 is not played in the order of its ids).
        ``ratings``: the puzzles' ratings now, where they moved from their source's (the
        store's); None: no puzzle of the game."""
        every = await self.entries(game)
        left = [e for e in every if e.id not in exclude] or every
        if not left:
            return None
        now = ratings or {}
        shuffled = {e.id: self.rng.random() for e in left}

        def distance(e: Entry) -> tuple[int, float]:
            return int(abs(now.get(e.id, e.rating.rating) - near_rating) // BAND), shuffled[e.id]

        ordered = sorted(left, key=distance)
        reach = distance(ordered[0])[0] + WINDOW  # none much farther than the nearest
        return self.rng.choice([e for e in ordered[:NEAREST] if distance(e)[0] <= reach])

    async def daily(self, game: str, date: str) -> Entry | None:
        """The daily puzzle of ``game`` on ``date`` (YYYY-MM-DD, UTC): the same for everyone,
        drawn from the date alone among the fixed providers' puzzles (sorted by id)."""
        fixed: list[Entry] = []
        for p in self.providers:
            if p.daily:
                fixed += await p.entries(game)
        if not fixed:
            return None
        fixed.sort(key=lambda e: e.id)
        digest = hashlib.sha256(f"taash-daily/{game}/{date}".encode()).digest()
        return fixed[int.from_bytes(digest[:8], "big") % len(fixed)]

    async def games(self, known: Sequence[str]) -> list[str]:
        """Those of ``known`` games that have puzzles."""
        return [g for g in known if await self.entries(g)]
