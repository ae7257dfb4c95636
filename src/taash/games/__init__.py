"""The rules core: one class per game, all following ``taash.games.base.MatchState``."""

from __future__ import annotations

from typing import Any

from taash.games.base import IllegalAction, MalformedAction, OptionError, RecordError
from taash.games.court_piece import CourtPiece
from taash.games.court_piece_2p import CourtPiece2P
from taash.games.goat import Goat

GAMES: dict[str, Any] = {"court-piece": CourtPiece, "court-piece-2p": CourtPiece2P, "goat": Goat}


def get_game(game_id: object) -> Any:
    """The match class of a game id; RecordError naming the known ids if unknown."""
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise RecordError(f"unknown game {game_id!r} (games: {', '.join(GAMES)})")
    return GAMES[game_id]


def new_match(game_id: str, options: object = None, *, seed: int | None = None,
              first_seat: int | None = None) -> Any:
    """A new match of any game, its decks shuffled from ``seed``."""
    cls = get_game(game_id)
    kw = {"first_caller" if cls.first_seat_key == "first_caller" else "first_dealer": first_seat}
    return cls.new_match(options, seed=seed, **kw)


__all__ = ["GAMES", "CourtPiece", "CourtPiece2P", "Goat", "IllegalAction", "MalformedAction",
           "OptionError", "RecordError", "get_game", "new_match"]
