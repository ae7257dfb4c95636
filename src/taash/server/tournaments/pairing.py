"""Pairing and scoring of tournaments (docs/tournaments.md): pure functions of the results so
far, with no clock, no randomness and no I/O, so the same results always pair the same way.

Scores are kept in half points: a win 2, a draw 1, a loss 0, a bye 2 (a win).

**Swiss** (``swiss_pairing``), Monrad-style with backtracking:

1. Rank the entrants by score (highest first), then by seed (registration order), then by id.
2. With an odd number, the bye goes to the lowest-ranked entrant who has not had one (if all
   have, to the lowest-ranked); the candidates are tried from the bottom up.
3. The rest are paired top down: the highest-ranked unpaired entrant meets the next-ranked
   one they have not met yet; when that leaves someone who can only meet a former opponent,
   the search backtracks and takes the next candidate (depth first, so the first complete
   pairing found is the one closest to 1-2, 3-4, ...).
4. If no pairing without a repeat exists (or the search passes its budget of steps, far more
   than a real field needs), the pairing falls back to the same order greedily, taking the
   first entrant not met yet where there is one and the next-ranked otherwise: every
   entrant is still paired, with as few repeats as that order gives.

**Standings** (``swiss_standings``): score, then Buchholz (the sum of the scores of the
opponents met), then seed.  A bye adds nothing to the Buchholz of the entrant who had it (there
was no opponent); its two half points are in that entrant's score, so they count in the
Buchholz of everyone who met that entrant.

**Arena** (``arena_points``, ``arena_pairs``): a win 2 points, a draw 1, a loss 0; after two
wins in a row an entrant is on a streak and each game counts double (a win 4, a draw 2) until a
game that is not a win ends the streak.  Entrants waiting for a game are paired by their
points, each with the nearest in points who is not the opponent of their last game, by the
same search, whenever a pairing of those waiting can do it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

WIN, DRAW, LOSS = 2, 1, 0  # half points
BYE = WIN
BUDGET = 200_000  # search steps before the greedy fallback


@dataclass(frozen=True)
class Entrant:
    """An entrant as the pairing sees them."""

    id: int
    seed: int  # registration order: lower ranks higher among equal scores
    score: int = 0  # half points
    opponents: frozenset[int] = frozenset()
    byes: int = 0


@dataclass(frozen=True)
class Pairing:
    """One round: pairs in board order (the higher-ranked first in each), the bye, and the
    number of pairs that meet again (0 unless no pairing without a repeat was found)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    repeats: int


def rank_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, e.seed, e.id))


@dataclass
class _Search:
    budget: int
    steps: int = 0
    exhausted: bool = False

    def pair(self, order: list[Entrant]) -> list[tuple[int, int]] | None:
        """A pairing of ``order`` (ranked) without a repeat, or None."""
        used = [False] * len(order)
        out: list[tuple[int, int]] = []

        def go(start: int) -> bool:
            i = start
            while i < len(order) and used[i]:
                i += 1
            if i == len(order):
                return True
            used[i] = True
            me = order[i]
            for j in range(i + 1, len(order)):
                if used[j] or order[j].id in me.opponents:
                    continue
                self.steps += 1
                if self.steps > self.budget:
                    self.exhausted = True
                    break
                used[j] = True
                out.append((me.id, order[j].id))
                if go(i + 1):
                    return True
                out.pop()
                used[j] = False
            used[i] = False
            return False

        return out if go(0) else None


def _bye_candidates(order: list[Entrant]) -> list[Entrant]:
    """Who may have the bye, the first choice first: the lowest-ranked without a bye yet."""
    fewest = min(e.byes for e in order)
    return [e for e in reversed(order) if e.byes == fewest]


def _greedy(order: list[Entrant]) -> tuple[list[tuple[int, int]], int]:
    left = list(order)
    out: list[tuple[int, int]] = []
    repeats = 0
    while left:
        me = left.pop(0)
        k = next((k for k, o in enumerate(left) if o.id not in me.opponents), None)
        if k is None:
            k, repeats = 0, repeats + 1
        out.append((me.id, left.pop(k).id))
    return out, repeats


def swiss_pairing(entrants: Iterable[Entrant], budget: int = BUDGET) -> Pairing:
    """The next round's pairing (see the module's text).  Raises ValueError on fewer than two
    entrants or two with one id."""
    order = rank_order(entrants)
    if len({e.id for e in order}) != len(order):
        raise ValueError("two entrants have one id")
    if len(order) < 2:
        raise ValueError("a round needs two entrants at least")
    search = _Search(budget)
    choices: list[Entrant | None] = (list(_bye_candidates(order)) if len(order) % 2
                                     else [None])
    for bye in choices:
        rest = [e for e in order if e is not bye]
        found = search.pair(rest)
        if found is not None:
            return Pairing(tuple(found), None if bye is None else bye.id, 0)
        if search.exhausted:
            break
    bye = choices[0]
    pairs, repeats = _greedy([e for e in order if e is not bye])
    return Pairing(tuple(pairs), None if bye is None else bye.id, repeats)


@dataclass(frozen=True)
class Game:
    """A finished game of a round, from the first entrant's side: ``result`` 2 a won, 1 a
    draw, 0 b won; ``b`` None: a bye for a."""

    round: int
    a: int
    b: int | None
    result: int | None  # None: not over yet (counts for nothing)


@dataclass
class Standing:
    id: int
    seed: int
    rank: int = 0
    score: int = 0  # half points
    buchholz: int = 0  # half points
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


def scores(seeds: Mapping[int, int], games: Iterable[Game]) -> dict[int, Standing]:
    """Each entrant's score, games and opponents (no ranks, no Buchholz yet)."""
    out = {i: Standing(i, s) for i, s in seeds.items()}
    for g in games:
        a = out[g.a]
        if g.b is None:
            a.score += BYE
            a.byes += 1
            continue
        b = out[g.b]
        a.opponents.append(g.b)
        b.opponents.append(g.a)
        if g.result is None:
            continue
        a.score += g.result
        b.score += WIN - g.result
        a.played += 1
        b.played += 1
        for s, r in ((a, g.result), (b, WIN - g.result)):
            if r == WIN:
                s.wins += 1
            elif r == DRAW:
                s.draws += 1
            else:
                s.losses += 1
    return out


def swiss_standings(seeds: Mapping[int, int], games: Iterable[Game]) -> list[Standing]:
    """The standings: score, Buchholz, then seed; equal score and Buchholz share a rank."""
    table = scores(seeds, games)
    for s in table.values():
        s.buchholz = sum(table[o].score for o in s.opponents)
    ordered = sorted(table.values(), key=lambda s: (-s.score, -s.buchholz, s.seed, s.id))
    for n, s in enumerate(ordered):
        prev = ordered[n - 1] if n else None
        s.rank = (prev.rank if prev is not None and (prev.score, prev.buchholz)
                  == (s.score, s.buchholz) else n + 1)
    return ordered


def entrants_for_pairing(seeds: Mapping[int, int], games: Iterable[Game]) -> list[Entrant]:
    """The entrants as ``swiss_pairing`` takes them, from the games so far."""
    return [Entrant(s.id, s.seed, s.score, frozenset(s.opponents), s.byes)
            for s in scores(seeds, games).values()]


# -- arena ------------------------------------------------------------------------------------

def arena_points(results: Sequence[int]) -> list[int]:
    """The points of each of an entrant's games in order (``results`` in half points: 2 won,
    1 drawn, 0 lost): 2, 1 or 0, doubled while on a streak (after two wins in a row, until a
    game that is not a win).

    >>> arena_points([2, 2, 2, 2, 1, 2, 0])
    [2, 2, 4, 4, 2, 2, 0]
    """
    out: list[int] = []
    run = 0  # wins in a row before this game
    for r in results:
        out.append(r * (2 if run >= 2 else 1))
        run = run + 1 if r == WIN else 0
    return out


def on_streak(results: Sequence[int]) -> bool:
    """Whether the entrant's next game counts double (their last two games were wins)."""
    return len(results) >= 2 and results[-1] == WIN and results[-2] == WIN


@dataclass(frozen=True)
class Waiting:
    """An arena entrant waiting for a game."""

    id: int
    points: int
    seed: int
    last_opponent: int | None = None


def arena_pairs(waiting: Iterable[Waiting]) -> list[tuple[int, int]]:
    """Pairs of waiting entrants: ranked by points (then seed), each meets the nearest-ranked
    entrant who was not their last opponent, the Swiss search's way (backtracking, so two
    entrants who just met are kept apart whenever any pairing does it); if none does, the
    greedy order (the highest-ranked meets the next-ranked not just met, or the next-ranked).
    With an odd number the lowest-ranked waits for the next game to end.

    >>> arena_pairs([Waiting(1, 4, 1), Waiting(2, 2, 2), Waiting(3, 0, 3, 4),
    ...              Waiting(4, 0, 4, 3)])
    [(1, 3), (2, 4)]
    """
    ranked = sorted(waiting, key=lambda w: (-w.points, w.seed, w.id))
    if len(ranked) % 2:
        ranked.pop()  # waits
    last = {w.id: w.last_opponent for w in ranked}
    # "met": each one's last opponent, either way round
    order = [Entrant(w.id, w.seed, w.points,
                     frozenset(o.id for o in ranked
                               if o.id == w.last_opponent or last[o.id] == w.id))
             for w in ranked]
    found = _Search(BUDGET).pair(order)
    if found is not None:
        return found
    left = list(ranked)
    out: list[tuple[int, int]] = []
    while len(left) >= 2:
        me = left.pop(0)
        k = next((k for k, o in enumerate(left)
                  if o.id != me.last_opponent and o.last_opponent != me.id), 0)
        out.append((me.id, left.pop(k).id))
    return out
