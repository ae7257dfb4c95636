"""A board's best result from the first card, as a worker process computes it (docs/events.md,
"your deal review against the best result"): pure, no I/O but the solvers.

The entrant's side's best result with every hand open and best play on both sides, from the
first card after the board's trump call (``opening``; none in Goat), in the game's unit (tricks
in Court Piece, card points in Goat).  Single sar by DDS where it is installed, exact at once;
everything else by taash's solver within the budget.  What the search proves is kept whether it
settles or not: ``lower`` is a result the side can force (a line the solver found and proved),
``upper`` one it cannot beat; ``proven`` only when the two meet.  Nothing here ever calls a
bound "the best".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from time import perf_counter

from taash.games.base import MatchState
from taash.games.tricks_play import TrickPlay
from taash.review import dds
from taash.review.solver import bounds, clear_tables
from taash.server.events.boards import ENTRANT, at_first_card, side_of

#: the search's budget in this many slices: the first halves the range (all two-player boards
#: settle in it), each later one is a test closing in from one end (bench/RESULTS.md)
PROBES = 12


@dataclass(frozen=True)
class BestFigure:
    """What the solver proved about a board's best result for the entrant's side: ``lower <=
    best <= upper``, ``proven`` when they meet; ``solver`` "dds" or "taash"; ``seconds`` it
    took, ``nodes`` the positions it searched (0 for DDS); ``most`` the top of the range it
    began with (an ``upper`` that high proves nothing)."""

    lower: int
    upper: int
    proven: bool
    solver: str
    seconds: float
    nodes: int
    most: int


def _by_dds(state: MatchState) -> tuple[int, int] | None:
    """The entrant's side's tricks in single sar by DDS (every trick played, as whist counts;
    the deal stops at 7, so a side's best is at most 7), and that 7; None where it is not
    single sar or DDS is not there."""
    if not (dds.applies(state) and dds.available() and isinstance(state, TrickPlay)):
        return None
    try:
        raw = dds.action_values(state.clone())
    except (RuntimeError, ValueError):
        return None
    if not raw:
        return None
    mine = max(raw.values())  # the side to move's tricks
    tricks = state.hands[state.to_move].bit_count()  # the deal's: none played yet
    game = state.game_id
    ours = mine if side_of(game, state.to_move) == side_of(game, ENTRANT) else tricks - mine
    return min(ours, state.win_target), state.win_target


def board_best(game: str, options: Mapping[str, object], event_id: str, board: int,
               secret: str, opening: Sequence[str], budget: float) -> BestFigure:
    """The board's best result from its first card (after ``opening``), searched for at most
    ``budget`` seconds (what a worker process runs)."""
    state = at_first_card(game, options, event_id, board, secret, opening)
    t0 = perf_counter()
    by_dds = _by_dds(state)
    if by_dds is not None:
        ours, most = by_dds
        return BestFigure(ours, ours, True, "dds", perf_counter() - t0, 0, most)
    try:
        b = bounds(state, time_limit=budget, team=side_of(game, ENTRANT), probes=PROBES)
    finally:
        clear_tables()  # a worker keeps no search's tables between boards
    return BestFigure(b.lower, b.upper, b.exact, "taash", perf_counter() - t0, b.nodes,
                      b.most)
