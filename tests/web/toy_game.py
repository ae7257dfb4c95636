"""``python -m tests.web.toy_game serve …``: taash with a fourth game added to the core's
catalogue and nothing else changed, as a game added to ``taash/games/`` would be.  The toy plays
as two-player Court Piece; what differs is what the page must learn from the core alone: its
id, name, seats and options (a count with its own bound, a choice, a flag that needs the
choice)."""

from __future__ import annotations

from typing import ClassVar

from taash.cli import main
from taash.games import GAMES
from taash.games.base import Check, Json
from taash.games.court_piece_2p import CourtPiece2P
from taash.games.options import Choice, Count, Flag, Option, bounds, checks, defaults


class ToyPiece(CourtPiece2P):
    game_id: ClassVar[str] = "toy-piece"
    name: ClassVar[str] = "Toy Piece"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Count("target", 3, "Points to win the toy", maximum=7, key="toy_target"),
        Choice("deck", "short", ("short", "long"), "Deck", ("Short deck", "Long deck"),
               key="toy_deck"),
        Flag("bonus", False, "Bonus (long deck only)", needs={"deck": "long"}, key="toy_bonus"),
    )
    DEFAULTS: ClassVar[dict[str, Json]] = defaults(OPTIONS)
    CHECKS: ClassVar[dict[str, Check]] = checks(OPTIONS)
    BOUNDS: ClassVar[dict[str, Check]] = bounds(OPTIONS)

    __slots__ = ()


if __name__ == "__main__":
    # added here only, never on import: pytest collects this module (doctests), and a game
    # added to its worker's catalogue would show up in every other test's
    GAMES[ToyPiece.game_id] = ToyPiece
    main()
