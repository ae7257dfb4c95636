"""Glicko-2 (taash.puzzles.glicko): Glickman's worked example, and attempts moving the player's
and the puzzle's ratings the right way."""

from __future__ import annotations

import pytest

from taash.puzzles.glicko import Rating, attempt, update


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (2012): 1500/200/0.06 beats 1400/30, loses to 1550/100
    # and 1700/300, tau 0.5 -> 1464.06 / 151.52 / 0.05999 (the paper rounds mu' to -0.2069)
    r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                         (Rating(1700, 300), 0.0)], tau=0.5)
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=1e-5)


def test_solving_moves_the_player_up_and_the_puzzle_down() -> None:
    player, puzzle = Rating(1500, 200, 0.06), Rating(1600, 150, 0.06)
    p2, z2 = attempt(player, puzzle, solved=True)
    assert p2.rating > player.rating
    assert z2.rating < puzzle.rating
    assert p2.rd < player.rd and z2.rd < puzzle.rd  # each attempt tells something


def test_failing_moves_the_player_down_and_the_puzzle_up() -> None:
    player, puzzle = Rating(1500, 200, 0.06), Rating(1400, 150, 0.06)
    p2, z2 = attempt(player, puzzle, solved=False)
    assert p2.rating < player.rating
    assert z2.rating > puzzle.rating


def test_a_surprise_moves_more_than_an_expected_result() -> None:
    player = Rating(1500, 100, 0.06)
    easy, hard = Rating(1200, 100, 0.06), Rating(1800, 100, 0.06)
    up_easy = attempt(player, easy, True)[0].rating - player.rating
    up_hard = attempt(player, hard, True)[0].rating - player.rating
    assert 0 < up_easy < up_hard


def test_a_period_without_games_only_widens_the_deviation() -> None:
    r = update(Rating(1500, 50, 0.06), [])
    assert r.rating == 1500 and r.volatility == 0.06
    assert r.rd == pytest.approx((50**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_ratings_round_trip_as_json_and_bad_ones_are_refused() -> None:
    r = Rating(1523.456789, 80.123, 0.0612345)
    assert Rating.from_json(r.as_json()).rating == pytest.approx(r.rating, abs=0.01)
    for bad in (None, [], {"rating": 1500}, {"rating": "x", "rd": 1, "volatility": 0.06},
                {"rating": 1500, "rd": 0, "volatility": 0.06}):
        with pytest.raises(ValueError):
            Rating.from_json(bad)
