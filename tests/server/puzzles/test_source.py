"""The puzzle source (server/puzzles/source.py): picking near a rating, leaving out the puzzles
tried while any is left and spreading over puzzles of equal rating; the daily puzzle from the
date alone; a second provider answering beside the shipped set."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from taash.puzzles.glicko import Rating
from taash.server.puzzles.source import Entry, PuzzleSet, PuzzleSource

GAME = "goat"


def made(n: int, rating: float, prefix: str) -> list[dict[str, object]]:
    return [{"id": f"{prefix}{i:03}", "game": GAME, "rating": Rating(rating).as_json()}
            for i in range(n)]


def source(*sets: Sequence[Mapping[str, object]], seed: int = 1) -> PuzzleSource:
    return PuzzleSource([PuzzleSet(lambda s=s: s) for s in sets], rng=random.Random(seed))


async def test_a_pick_is_near_the_rating_and_not_tried_while_any_is_left() -> None:
    src = source(made(40, 1500, "a") + made(5, 1900, "b"))
    for _ in range(20):
        e = await src.pick(GAME, 1900, exclude=set())
        assert e is not None and e.id.startswith("b")
    tried = {f"b{i:03}" for i in range(4)}
    assert {(await src.pick(GAME, 1900, tried)).id for _ in range(10)} == {"b004"}
    # the ratings now (the store's) count over the set's
    moved = {"a007": 1890.0}
    picks = {(await src.pick(GAME, 1900, tried | {"b004"}, moved)).id for _ in range(10)}
    assert picks == {"a007"}
    every = {e["id"] for e in made(40, 1500, "a") + made(5, 1900, "b")}
    assert (await src.pick(GAME, 1500, every)) is not None  # all tried: any
    assert await src.pick("court-piece", 1500, set()) is None


async def test_puzzles_of_one_rating_are_not_served_in_the_order_of_their_ids() -> None:
    src = source(made(200, 1500, "a"))
    seen = {(await src.pick(GAME, 1500, set())).id for _ in range(60)}
    assert len(seen) > 30
    assert max(seen) > "a100"


async def test_the_daily_puzzle_comes_from_the_date_and_the_fixed_providers_alone() -> None:
    fixed = made(50, 1500, "a")
    one, two = source(fixed, seed=1), source(fixed, seed=2)
    days = [f"2027-02-{d:02}" for d in range(1, 21)]
    picked = [(await one.daily(GAME, d)).id for d in days]
    assert picked == [(await two.daily(GAME, d)).id for d in days]
    assert len(set(picked)) > 10

    class Mined:  # a provider that is not fixed: its puzzles never make a daily one
        daily = False

        async def get(self, puzzle_id: str) -> Entry | None:
            return Entry(puzzle_id, GAME, Rating(), {}) if puzzle_id == "m1" else None

        async def entries(self, game: str) -> Sequence[Entry]:
            return [Entry("m1", GAME, Rating(), {})] if game == GAME else []

    both = PuzzleSource([PuzzleSet(lambda: fixed), Mined()])
    assert [(await both.daily(GAME, d)).id for d in days] == picked
    assert (await both.get("m1")) is not None and (await both.get("a001")) is not None
    assert len(await both.entries(GAME)) == 51
