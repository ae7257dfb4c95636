"""The shipped set (taash.puzzles.store, set.json.gz): its shape, and every puzzle checked by
the solver afresh (``taash.puzzles.mine.check``: rebuilt from its record prefix through the
core, one best group, the obvious action costing something).  A seeded sample of 100 per game
in the suite (marked slow: the fast loop leaves it out); the whole set, some minutes, with
TAASH_PUZZLES_FULL=1."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from taash.puzzles.mine import Puzzle, check, retag
from taash.puzzles.store import GAMES, read_set, shipped_path
from taash.puzzles.themes import COURT_THEMES, GOAT_THEMES

SAMPLE = 100


def shipped() -> list[Puzzle]:
    return [Puzzle.from_json(x) for x in read_set()]  # type: ignore[arg-type]


def test_the_shipped_set_is_package_data_and_small() -> None:
    path = shipped_path()
    assert path.is_file()
    assert path.stat().st_size < 2_500_000
    puzzles = shipped()
    ids = [p.id for p in puzzles]
    assert len(ids) == len(set(ids))
    counts = Counter(p.game for p in puzzles)
    assert set(counts) == set(GAMES)
    for p in puzzles:
        allowed = GOAT_THEMES if p.game == GAMES[2] else COURT_THEMES
        assert set(p.themes) <= set(allowed)
        assert p.rating.rating == 1500 and p.rating.rd == 350


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_sample_of_each_game_has_one_solution(game: str) -> None:
    puzzles = [p for p in shipped() if p.game == game]
    sample = random.Random(49).sample(puzzles, min(SAMPLE, len(puzzles)))
    bad = {p.id: why for p in sample if (why := check(p)) is not None}
    assert not bad
    assert [retag(p).themes for p in sample] == [p.themes for p in sample]


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.skipif(os.environ.get("TAASH_PUZZLES_FULL") != "1",
                    reason="the whole set takes minutes: TAASH_PUZZLES_FULL=1 runs it")
def test_every_shipped_puzzle_has_one_solution() -> None:
    bad = {p.id: why for p in shipped() if (why := check(p)) is not None}
    assert not bad
