"""Ratings per game with openskill's Plackett-Luce model (a Bayesian rating made for teams).

A rating is ``mu`` and ``sigma`` (the uncertainty); shown as ``round(60 * mu)``, which puts a new
player at 1500 with an uncertainty of 500, as lichess starts its players, and with a ``?`` while
``sigma`` is above ``PROVISIONAL_SIGMA`` (about the first fifteen rated matches against equals).

Team games update each player from the team's result: a side is one team (Court Piece, Goat)
or one seat (two-player Court Piece), ranked 1 when it won, 2 when it lost, both 1 on a draw.

Bots have fixed, published ratings (``BOT_RATINGS``), never updated: they sit in a team with
their rating like anyone, so beating ``hard`` is worth more than beating ``random``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from taash.games import CourtPiece, CourtPiece2P, Goat
from taash.stats import side_of

SCALE = 60  # mu 25, sigma 25/3 -> 1500 +- 500 on the page
PROVISIONAL_SIGMA = 5.5
BOT_SIGMA = 1.0

# Bots' mu, from the arena's deal win rates in bench/RESULTS.md (2026-11-30 entries), each gap
# the mu difference at which this model's own predict_win (both sigmas BOT_SIGMA) gives that
# rate (tests/test_ratings.py recomputes them): easy is the anchor at 25 (a new player's mu);
# hard vs easy won 63.3% of Court Piece deals (seeds 1-4), 63.7% two-player, 62.5% Goat; easy
# vs random won 85.2% of Court Piece deals.  No arena figure exists for random in two-player
# Court Piece or Goat: Court Piece's gap is used there too.  A deal win rate understates a match
# win rate (a match is many deals), so these gaps are if anything too small.
BOT_RATINGS: dict[str, dict[str, float]] = {
    CourtPiece.game_id: {"random": 18.67, "easy": 25.0, "hard": 27.06},
    CourtPiece2P.game_id: {"random": 18.67, "easy": 25.0, "hard": 27.12},
    Goat.game_id: {"random": 18.67, "easy": 25.0, "hard": 26.93},
}
# the arena figures the table above was derived from: (game, stronger, weaker, deal win rate)
ARENA_RATES: tuple[tuple[str, str, str, float], ...] = (
    (CourtPiece.game_id, "easy", "random", 0.852),
    (CourtPiece.game_id, "hard", "easy", 0.633),
    (CourtPiece2P.game_id, "hard", "easy", 0.637),
    (Goat.game_id, "hard", "easy", 0.625),
)

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def shown(self) -> str:
        """As the page shows it: ``1500?`` while provisional, else ``1532``."""
        return f"{round(SCALE * self.mu)}{'?' if self.provisional else ''}"


NEW = Rating(MODEL.mu, MODEL.sigma)


def bot_rating(game: str, level: str) -> Rating | None:
    """A bot level's fixed rating in a game; None for a level without one (not rated)."""
    mu = BOT_RATINGS.get(game, {}).get(level)
    return None if mu is None else Rating(mu, BOT_SIGMA)


def rate(game: str, seats: Sequence[Rating], fixed: Sequence[bool],
         winner: int | None) -> list[Rating]:
    """Every seat's rating after a match: ``winner`` the winning side (team or seat, as
    ``side_of``), None on a draw.  Seats marked ``fixed`` (bots) keep theirs."""
    sides = sorted({side_of(game, s) for s in range(len(seats))})
    members = {side: [s for s in range(len(seats)) if side_of(game, s) == side]
               for side in sides}
    teams = [[MODEL.rating(mu=seats[s].mu, sigma=seats[s].sigma) for s in members[side]]
             for side in sides]
    ranks = [1.0 if winner is None or side == winner else 2.0 for side in sides]
    rated = MODEL.rate(teams, ranks=ranks)
    out = list(seats)
    for side, team in zip(sides, rated, strict=True):
        for s, r in zip(members[side], team, strict=True):
            if not fixed[s]:
                out[s] = Rating(r.mu, r.sigma)
    return out


@dataclass(frozen=True)
class RatedMatch:
    """A rated match as the history replays it: per seat a player's id, or a bot's fixed
    rating; ``winner`` the winning side (as ``side_of``), None on a draw."""

    table: str
    seats: tuple[str | Rating, ...]
    winner: int | None


@dataclass
class Replayed:
    """What a replay of a rating history leaves: each player's rating and rated matches, and
    each player's rating after each match (``after[(player, table)]``)."""

    ratings: dict[str, Rating]
    matches: dict[str, int]
    after: dict[tuple[str, str], Rating]


def replay(game: str, history: Sequence[RatedMatch]) -> Replayed:
    """Every player's rating from nothing (``NEW``) through ``history`` in its order, each
    match rated as ``rate`` rates it when it ends: the same history gives the same ratings,
    so a history without some matches (a player banned from rated play) gives the ratings as
    if they had never been played."""
    out = Replayed({}, {}, {})
    for m in history:
        now = [s if isinstance(s, Rating) else out.ratings.get(s, NEW) for s in m.seats]
        fixed = [isinstance(s, Rating) for s in m.seats]
        new = rate(game, now, fixed, m.winner)
        for seat, s in enumerate(m.seats):
            if isinstance(s, str):
                out.ratings[s] = new[seat]
                out.matches[s] = out.matches.get(s, 0) + 1
                out.after[(s, m.table)] = new[seat]
    return out
