"""Scoring against the field, pure (docs/events.md): each board is matchpointed among everyone
who finished it, 2 per entrant beaten and 1 per tie, as a percentage of the most there was
(2 per other entrant); the standings order entrants by their percentage over the boards.

>>> matchpoints([7, 5, 5, 3])
[100.0, 50.0, 50.0, 0.0]
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

ALONE = Fraction(50)  # a board only one entrant has finished: neither beaten nor beating anyone


def matchpoints(scores: Sequence[int]) -> list[float]:
    """Each score's percentage against the others (higher scores are better); O(n log n)."""
    return [float(p) for p in exact_matchpoints(scores)]


def exact_matchpoints(scores: Sequence[int]) -> list[Fraction]:
    """``matchpoints`` as exact fractions: summed over boards, two entrants with the same
    results in another order tie exactly (floats summed in another order may not)."""
    n = len(scores)
    if n == 1:
        return [ALONE]
    ranked = sorted(scores)
    top = 2 * (n - 1)
    out = []
    for s in scores:
        below = bisect_left(ranked, s)
        ties = bisect_right(ranked, s) - below - 1
        out.append(Fraction(100 * (2 * below + ties), top))
    return out


@dataclass(frozen=True)
class Standing:
    """One entrant's line: the mean percentage of the boards they finished, and their rank
    (entrants level on both share it, the next rank counting them all: 1, 2, 2, 4)."""

    player: str
    percent: float
    boards: int  # boards finished
    finished: bool  # every board of the event
    rank: int = 0


def board_percentages(scores: Mapping[str, int]) -> dict[str, float]:
    """A board's percentage per player, from each player's score on it."""
    players = list(scores)
    return dict(zip(players, matchpoints([scores[p] for p in players]), strict=True))


def standings(boards: Sequence[Mapping[str, int]], num_boards: int) -> list[Standing]:
    """Everyone who finished a board, those who finished the event first, each part by
    percentage (highest first; ties by player id, so the order is stable, sharing a rank).

    >>> [(s.player, s.percent, s.rank) for s in standings([{"a": 7, "b": 5}, {"a": 3, "b": 4}], 2)]
    [('a', 50.0, 1), ('b', 50.0, 1)]
    """
    total: dict[str, Fraction] = {}
    count: dict[str, int] = {}
    for scores in boards:
        players = list(scores)
        for player, pct in zip(players, exact_matchpoints([scores[p] for p in players]),
                               strict=True):
            total[player] = total.get(player, Fraction(0)) + pct
            count[player] = count.get(player, 0) + 1
    mean = {p: total[p] / count[p] for p in total}
    order = sorted(total, key=lambda p: (count[p] < num_boards, -mean[p], p))
    rows: list[Standing] = []
    for i, p in enumerate(order):
        level = rows and (count[p] >= num_boards) == rows[-1].finished \
            and mean[p] == mean[order[i - 1]]
        rows.append(Standing(p, float(mean[p]), count[p], count[p] >= num_boards,
                             rows[-1].rank if level else i + 1))
    return rows
