"""The best actions of the seat to move with every card open, and the kind of a position.

Four-player single sar is solved by DDS (``taash.review.dds``, every trick played: whist's
count), card play and trump call alike; everything else by the own exact solver
(``taash.review.solver``) within a budget of positions searched (``nodes``; the same answer on
any machine), a wall-clock limit, or both.  A position the solver cannot settle within them
(the early tricks of double sar and of Goat) has no answer (None): the detector leaves it out
and the cheating policies fall back to their honest choice there.
"""

from __future__ import annotations

import math
from typing import cast

from taash.games import CourtPiece, CourtPiece2P, Goat, MatchState
from taash.games.tricks import SUIT_OF
from taash.games.tricks_play import CALL, PLAY, TrickPlay
from taash.review import dds, solver

#: the kinds of position the detector counts apart
KINDS = ("call", "opening_lead", "lead", "follow", "discard")
TOTAL_TRICKS = 13
#: positions the exact solver searches in a millisecond of one reference core, per game
#: (bench/fairplay_nodes.py): a budget in milliseconds becomes a budget in positions searched,
#: the same on any machine, as the hard bot's budget is counted in work (taash.bots.pimc)
NODES_PER_MS = {CourtPiece.game_id: 200.0, CourtPiece2P.game_id: 200.0, Goat.game_id: 130.0}
#: the detector's and the arena's budget per position, in milliseconds of the reference core
SOLVE_MS = 500.0


def node_budget(game: str, ms: float) -> int:
    """The positions the solver may search for a budget of ``ms`` reference milliseconds."""
    return max(1024, round(ms * NODES_PER_MS.get(game, 200.0)))


def side_of(state: MatchState | TrickPlay, seat: int) -> int:
    """The side a seat plays for: itself in a two-player game, else its team."""
    return seat if state.num_seats == 2 else seat & 1


def _single_sar(state: object) -> bool:
    return isinstance(state, CourtPiece) and not state.double


def open_values(state: MatchState, seat: int, time_limit: float = math.inf,
                nodes: int | None = None) -> dict[int, int] | None:
    """For each legal action of ``seat`` (the seat to move), the best result its side can
    still reach after it with every card open (tricks, or Goat card points); None where the
    solver could not settle every legal action within ``nodes`` positions searched (for the
    position as a whole) or ``time_limit`` seconds."""
    legal = state.legal_ids(seat)
    if isinstance(state, TrickPlay) and state.phase == CALL:
        return _call_values(state, seat, legal, time_limit, nodes)
    vals: dict[int, int] | None = None
    if _single_sar(state) and dds.available():
        try:
            vals = dds.action_values(state.clone())
        except (RuntimeError, ValueError):
            vals = None
    if vals is None:
        vals = solver.action_values(state.clone(), time_limit=time_limit, nodes=nodes)
    return vals if all(a in vals for a in legal) else None


def _call_values(state: TrickPlay, seat: int, legal: list[int],
                 time_limit: float, nodes: int | None) -> dict[int, int] | None:
    """The trump call: each suit called, then the deal solved from the first lead, counted
    for the caller's side (``nodes`` shared by the suits)."""
    me = side_of(state, seat)
    out: dict[int, int] = {}
    left = nodes
    for a in legal:
        c = state.clone()
        c.apply_id(seat, a)
        if not (c.phase == PLAY and c.to_move >= 0):
            return None
        if _single_sar(c) and dds.available():
            try:
                first = dds.action_values(cast(MatchState, c.clone()))
            except (RuntimeError, ValueError):
                return None
            best = max(first.values())
            out[a] = best if side_of(c, c.to_move) == me else TOTAL_TRICKS - best
            continue
        if left is not None and left <= 0:
            return None
        s = solver.solve(cast(MatchState, c.clone()), time_limit=time_limit, team=me,
                         nodes=left)
        if not s.exact:
            return None
        if left is not None:
            left -= s.nodes
        out[a] = s.value
    return out


def best_actions(values: dict[int, int], legal: list[int]) -> set[int]:
    """The legal actions reaching the best value."""
    top = max(values[a] for a in legal)
    return {a for a in legal if values[a] == top}


def position_kind(state: MatchState, seat: int, action: str) -> str:
    """call, opening_lead (the deal's first card), lead, follow (following suit with a
    choice) or discard (not following: a ruff or a throw; Goat's face-down pass)."""
    verb = action.partition(":")[0]
    if verb == "trump":
        return "call"
    if isinstance(state, TrickPlay):
        if not state.trick:
            return "opening_lead" if state.tricks_played == 0 else "lead"
        card = state.action_id(seat, action)
        return "follow" if SUIT_OF[card] == SUIT_OF[state.trick[0]] else "discard"
    # Goat (GT-7..GT-9): a lead, a beat, or a pass (cards given face down)
    if verb == "lead":
        return "opening_lead" if not state.view(seat).get("history") else "lead"
    if verb == "pass":
        return "discard"
    return "follow"
