"""Glicko-2 ratings for players and puzzles (Mark Glickman, "Example of the Glicko-2 system",
2012), written from the published steps.

A rating is ``(rating, rd, volatility)`` on the Glicko scale (a new one: 1500, 350, 0.06).
``update(player, games)`` is one rating period: the player's results against opponents whose
ratings are taken as they were at the period's start.  Glickman's worked example, a player
1500/200/0.06 who beats a 1400/30 and loses to a 1550/100 and a 1700/300, with tau 0.5:

>>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                     (Rating(1700, 300), 0.0)])
>>> abs(r.rating - 1464.06) < 0.01, abs(r.rd - 151.52) < 0.01, abs(r.volatility - 0.05999) < 1e-5
(True, True, True)

(The paper gives 1464.06 from mu' rounded to -0.2069; unrounded it is 1464.0507.)

A puzzle attempt is a game between the player and the puzzle (as lichess rates its puzzles):
solving it is a win for the player and a loss for the puzzle, failing it the reverse; each side
is updated as one rating period of one game against the other's rating before the attempt
(``attempt``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's step 2: rating points per unit of mu
BASE = 1500.0
TAU = 0.5  # the system constant: how much volatility may change (Glickman: 0.3 to 1.2)
EPSILON = 1e-6  # the convergence tolerance of the volatility's iteration (step 5)


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` (1500 new), ``rd`` its deviation
    (350 new: the larger, the less is known), ``volatility`` (0.06 new)."""

    rating: float = BASE
    rd: float = 350.0
    volatility: float = 0.06

    def as_json(self) -> dict[str, float]:
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2),
                "volatility": round(self.volatility, 6)}

    @classmethod
    def from_json(cls, data: object) -> Rating:
        """A rating from ``as_json``'s object (ValueError if it is not one)."""
        if not isinstance(data, dict):
            raise ValueError("a rating must be an object with rating, rd and volatility")
        try:
            r = cls(float(data["rating"]), float(data["rd"]), float(data["volatility"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError("a rating must be an object with rating, rd and volatility") \
                from None
        if not (r.rd > 0 and r.volatility > 0 and math.isfinite(r.rating)):
            raise ValueError("a rating's rd and volatility must be positive")
        return r


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period: ``games`` are (opponent, score) with
    score 1 a win, 0.5 a draw, 0 a loss.  No games: only the deviation grows (step 6)."""
    mu = (player.rating - BASE) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    inv_v = 0.0
    total = 0.0
    for opp, score in games:
        mu_j, phi_j = (opp.rating - BASE) / SCALE, opp.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    new_sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(new_mu * SCALE + BASE, new_phi * SCALE, new_sigma)


def attempt(player: Rating, puzzle: Rating, solved: bool,
            tau: float = TAU) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt: solved, the player wins."""
    score = 1.0 if solved else 0.0
    return (update(player, [(puzzle, score)], tau),
            update(puzzle, [(player, 1.0 - score)], tau))


__all__ = ["Rating", "attempt", "update"]
