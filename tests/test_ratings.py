"""Rating updates (taash.ratings) against openskill's own ``rate`` called directly."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from taash.ratings import (
    ARENA_RATES,
    BOT_RATINGS,
    BOT_SIGMA,
    NEW,
    Rating,
    bot_rating,
    rate,
)


def direct(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[list[Rating]]:
    m = PlackettLuce()
    out = m.rate([[m.rating(mu=mu, sigma=s) for mu, s in t] for t in teams], ranks=ranks)
    return [[Rating(r.mu, r.sigma) for r in t] for t in out]


def test_two_player_win() -> None:
    a, b = Rating(25.0, 8.333333333333334), Rating(28.0, 4.0)
    got = rate("court-piece-2p", [a, b], [False, False], winner=0)
    (wa,), (wb,) = direct([[(a.mu, a.sigma)], [(b.mu, b.sigma)]], [1, 2])
    assert got == [wa, wb]
    assert got[0].mu > a.mu and got[1].mu < b.mu


def test_team_game_updates_each_player_from_the_team_result() -> None:
    r = [Rating(25, 8.3), Rating(30, 3), Rating(20, 6), Rating(27, 2)]
    got = rate("court-piece", r, [False] * 4, winner=1)
    # teams: seats 0 and 2, seats 1 and 3; team 1 won
    (t0a, t0b), (t1a, t1b) = direct([[(25, 8.3), (20, 6)], [(30, 3), (27, 2)]], [2, 1])
    assert got == [t0a, t1a, t0b, t1b]
    assert all(got[s].mu < r[s].mu for s in (0, 2)) and all(got[s].mu > r[s].mu for s in (1, 3))


def test_draw_ranks_both_sides_first() -> None:
    r = [Rating(25, 8), Rating(25, 8), Rating(25, 8), Rating(35, 2)]
    got = rate("court-piece", r, [False] * 4, winner=None)
    (a, b), (c, d) = direct([[(25, 8), (25, 8)], [(25, 8), (35, 2)]], [1, 1])
    assert got == [a, c, b, d]


def test_a_bot_keeps_its_fixed_rating() -> None:
    hard = bot_rating("goat", "hard")
    assert hard == Rating(BOT_RATINGS["goat"]["hard"], BOT_SIGMA)
    r = [NEW, hard, NEW, hard]
    got = rate("goat", r, [False, True, False, True], winner=0)
    (a, b), _ = direct([[(NEW.mu, NEW.sigma)] * 2, [(hard.mu, hard.sigma)] * 2], [1, 2])
    assert got == [a, hard, b, hard]
    assert bot_rating("goat", "nobody") is None


def test_shown_and_provisional() -> None:
    assert NEW.shown() == "1500?"
    assert Rating(25.51, 5.0).shown() == "1531"
    assert Rating(25, 5.6).provisional and not Rating(25, 5.5).provisional


@pytest.mark.parametrize(("game", "strong", "weak", "p"), ARENA_RATES)
def test_bot_ratings_reproduce_the_arena(game: str, strong: str, weak: str, p: float) -> None:
    """Each published gap is the one at which the model predicts the arena's win rate."""
    m = PlackettLuce()
    a, b = BOT_RATINGS[game][strong], BOT_RATINGS[game][weak]
    q = m.predict_win([[m.rating(mu=a, sigma=BOT_SIGMA)], [m.rating(mu=b, sigma=BOT_SIGMA)]])
    assert q[0] == pytest.approx(p, abs=0.002)


def test_replay_without_a_players_matches_by_hand() -> None:
    """Four matches of two-player Court Piece; without B's, A and C's ratings are what
    openskill gives for the two matches left, worked one after the other by hand."""
    from taash.ratings import RatedMatch, replay

    hard = bot_rating("court-piece-2p", "hard")
    assert hard is not None
    history = [RatedMatch("t1", ("A", "B"), 0),      # A beats B
               RatedMatch("t2", ("B", "C"), 1),      # C beats B
               RatedMatch("t3", ("A", "C"), None),   # A and C draw
               RatedMatch("t4", ("C", hard), 1)]     # the hard bot beats C
    full = replay("court-piece-2p", history)
    assert full.matches == {"A": 2, "B": 2, "C": 3}
    # replaying the whole history is what rating each match as it ended gives
    a1, b1 = rate("court-piece-2p", [NEW, NEW], [False, False], 0)
    assert full.after[("A", "t1")] == a1 and full.after[("B", "t1")] == b1

    left = replay("court-piece-2p", [m for m in history if "B" not in m.seats])
    n = (NEW.mu, NEW.sigma)
    (a3,), (c3,) = direct([[n], [n]], [1, 1])            # t3: a draw from new
    (c4,), (h4,) = direct([[(c3.mu, c3.sigma)], [(hard.mu, hard.sigma)]], [2, 1])  # t4
    assert left.ratings == {"A": a3, "C": c4}
    assert left.matches == {"A": 1, "C": 2}
    assert h4 != hard  # openskill moves the bot too; the replay keeps its fixed rating
    assert set(left.after) == {("A", "t3"), ("C", "t3"), ("C", "t4")}
    # the same history, the same ratings
    assert replay("court-piece-2p", history) == full
