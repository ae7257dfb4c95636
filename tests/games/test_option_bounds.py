"""RULES.md "Option bounds": a table (the server's, the terminal's) takes options only up to
their bounds, refused with the core's message naming the bound; a record takes any size."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taash.games import game_class
from taash.games.base import OptionError
from taash.record import random_record

BOUNDS: list[tuple[str, str, Callable[[object], object], int]] = [
    ("court-piece", "session_end", lambda n: {"coats": n}, 50),
    ("court-piece", "session_end", lambda n: {"deals": n}, 500),
    ("court-piece-2p", "target", lambda n: n, 100),
    ("goat", "target", lambda n: n, 120)]
IDS = ["coats", "deals", "2p-target", "goat-target"]


@pytest.mark.parametrize(("game", "name", "make", "bound"), BOUNDS, ids=IDS)
def test_each_bound_is_the_last_value_a_table_takes(
        game: str, name: str, make: Callable[[object], object], bound: int) -> None:
    cls = game_class(game)
    for n in (1, bound - 1, bound):
        assert cls.check_options({name: make(n)}, bounded=True)[name] == make(n)
    for n in (bound + 1, 10**15, 10**4000):
        with pytest.raises(OptionError, match=f"option {name}: .*at most {bound}") as e:
            cls.check_options({name: make(n)}, bounded=True)
        assert len(str(e.value)) < 200  # never the huge number itself
        # a record (data, not a table to play) takes any whole number
        assert cls.check_options({name: make(n)})[name] == make(n)
    for bad in (0, -1, True, 2.5, "3"):
        with pytest.raises(OptionError, match="at least 1"):
            cls.check_options({name: make(bad)}, bounded=True)


@given(st.integers())
def test_bounded_targets_are_exactly_one_to_the_bound(n: int) -> None:
    for game, bound in (("court-piece-2p", 100), ("goat", 120)):
        cls = game_class(game)
        try:
            cls.check_options({"target": n}, bounded=True)
            ok = True
        except OptionError:
            ok = False
        assert ok == (1 <= n <= bound)


def test_no_end_and_the_defaults_are_within_the_bounds() -> None:
    assert game_class("court-piece").check_options({"session_end": None}, bounded=True)
    for game in ("court-piece", "court-piece-2p", "goat"):
        cls = game_class(game)
        assert cls.check_options(None, bounded=True) == cls.check_options(None)


def test_a_record_over_the_bounds_still_loads() -> None:
    from taash.record import load

    rec = random_record("court-piece-2p", {"target": 1000}, seed=3, deals=1)
    assert load(rec)["options"]["target"] == 1000
