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

ALONE = 50.0  # a board only one entrant has finished: neither beaten nor beating anyone


def matchpoints(scores: Sequence[int]) -> list[float]:
    """Each score's percentage against the others (higher scores are better); O(n log n)."""
    n = len(scores)
    if n == 1:
        return [ALONE]
    ranked = sorted(scores)
    top = 2 * (n - 1)
    out = []
    for s in scores:
        below = bisect_left(ranked, s)
        ties = bisect_right(ranked, s) - below - 1
        out.append(100.0 * (2 * below + ties) / top)
    return out


@dataclass(frozen=True)
class Standing:
    """One entrant's line: the mean percentage of the boards they finished."""

    player: str
    percent: float
    boards: int  # boards finished
    finished: bool  # every board of the event


def board_percentages(scores: Mapping[str, int]) -> dict[str, float]:
    """A board's percentage per player, from each player's score on it."""
    players = list(scores)
    return dict(zip(players, matchpoints([scores[p] for p in players]), strict=True))


def standings(boards: Sequence[Mapping[str, int]], num_boards: int) -> list[Standing]:
    """Everyone who finished a board, those who finished the event first, each part by
    percentage (highest first; ties by player id, so the order is stable).

    >>> [(s.player, s.percent) for s in standings([{"a": 7, "b": 5}, {"a": 3, "b": 4}], 2)]
    [('a', 50.0), ('b', 50.0)]
    """
    total: dict[str, float] = {}
    count: dict[str, int] = {}
    for scores in boards:
        for player, pct in board_percentages(scores).items():
            total[player] = total.get(player, 0.0) + pct
            count[player] = count.get(player, 0) + 1
    rows = [Standing(p, total[p] / count[p], count[p], count[p] >= num_boards) for p in total]
    rows.sort(key=lambda s: (not s.finished, -s.percent, s.player))
    return rows
