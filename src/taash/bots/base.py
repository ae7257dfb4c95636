"""What every bot shares: the protocol, the error for a bad game or level, and the random bot.

A bot sees exactly what one seat sees (``state.view(seat)``), never the state itself, so the
same bot can sit at a server table, in a terminal or in the arena without being able to cheat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from taash.games import CourtPiece, CourtPiece2P, Goat
from taash.games.base import Json as Json  # a view's JSON values: the core's one alias

GAME_IDS = (CourtPiece.game_id, CourtPiece2P.game_id, Goat.game_id)  # the games bots here play


class BotError(ValueError):
    """An unknown game or level, said in one line (the CLI prints it and exits 2)."""


class Bot(Protocol):
    """One seat's player.  ``act`` returns one of ``view["legal_actions"]``, or None only when
    the seat is not the one to move and chooses not to act (Goat: an optional molodka)."""

    game_id: str
    level: str

    def act(self, view: Mapping[str, Json]) -> str | None: ...


def must_move(view: Mapping[str, Json]) -> bool:
    """Whether this seat is the one to move (so it may not decline)."""
    return bool(view.get("to_move") == view.get("seat"))


class RandomBot:
    """Uniformly random among the legal actions; an out-of-turn seat (Goat's molodka holder)
    acts or declines with equal chance, so the arena sees molodkas at every moment."""

    level = "random"

    def __init__(self, game_id: str, seed: int | None = None) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Json]) -> str | None:
        legal: list[str] = view.get("legal_actions") or []
        if not legal:
            return None
        if not must_move(view) and self.rng.random() < 0.5:
            return None
        return self.rng.choice(legal)
