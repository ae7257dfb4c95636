"""A table's match: how it is built from its stored row, copied and stepped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taash.games import new_match
from taash.games.base import Json, MatchState
from taash.server.store import TableRow


@dataclass
class Step:
    """One accepted action: the version it made, its events, the match after it."""

    version: int
    events: Sequence[Mapping[str, Json]]
    state: MatchState


def build_match(t: TableRow) -> MatchState:
    """The table's match before its first action (its seed and first seat)."""
    return new_match(t.game, t.options, seed=t.seed, first_seat=t.first_seat)


def fork(state: MatchState) -> MatchState:
    """An independent copy of a match that still deals its next deals (its rng copied)."""
    return state.clone(keep_rng=True)


def turn_of(state: MatchState) -> int | None:
    """The seat whose turn it is (Goat: not the optional molodka holders)."""
    return state.turn()
