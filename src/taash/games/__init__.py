"""The rules core: one class per game, all following ``taash.games.base.MatchState``.

>>> m = new_match("court-piece-2p", seed=3, first_seat=0)
>>> m.outcome() is None, m.deal_slots().positions(0, before_call_only=True)
(True, (0, 1, 2, 3, 4))
"""

from __future__ import annotations

from taash.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS
from taash.games.base import (
    DealSlots,
    GameClass,
    IllegalAction,
    Json,
    MalformedAction,
    MatchState,
    OptionError,
    Outcome,
    Packet,
    RecordError,
)
from taash.games.court_piece import Collector, CourtPiece, collect_step
from taash.games.court_piece_2p import CourtPiece2P
from taash.games.goat import Goat
from taash.games.options import describe_options
from taash.games.tricks import trick_winner

CLASSES: dict[str, GameClass] = {"court-piece": CourtPiece, "court-piece-2p": CourtPiece2P,
                                 "goat": Goat}  # typed: mypy checks each class is a GameClass
GAMES = CLASSES  # the name the record, the server and the benches have long used


def game_class(game_id: object) -> GameClass:
    """The match class of a game id, typed by the GameClass protocol; RecordError naming the
    known ids if unknown."""
    if not isinstance(game_id, str) or game_id not in CLASSES:
        raise RecordError(f"unknown game {game_id!r} (games: {', '.join(CLASSES)})")
    return CLASSES[game_id]


get_game = game_class  # the older name; both are typed by GameClass


def describe_game(game: GameClass) -> dict[str, Json]:
    """What the page and other clients need to know of a game before a table exists: its id
    and English name, its seats and teams, which seat the first one is (a dealer or a caller),
    its options (with their defaults, bounds and words) and the defaults alone (``options``,
    the shape this endpoint has always had); and what the page would otherwise branch on a
    game id for: its pack's ``ranks`` low to high (the hand's order), ``shows_trump_card``
    with ``trump_card_from`` (the deck positions, start and stop, the shown card is drawn from:
    GT-4, taash-shuffle/1), ``plays_card_sets`` and ``deal_unit``."""
    stock = game.new_match(seed=0, first_seat=0).deal_slots().stock \
        if game.shows_trump_card else ()
    return {"id": game.game_id, "name": game.name, "seats": game.num_seats,
            "teams": [list(t) for t in game.teams], "first_seat": game.seat_word,
            "options": game.check_options(None), "fields": describe_options(game.OPTIONS),
            "ranks": game.pack().ranks, "shows_trump_card": game.shows_trump_card,
            "trump_card_from": [stock[0], stock[-1] + 1] if stock else None,
            "plays_card_sets": game.plays_card_sets, "deal_unit": game.deal_unit}


def describe_games() -> list[dict[str, Json]]:
    """Every game's ``describe_game``: what ``GET /api/games`` serves."""
    return [describe_game(cls) for cls in CLASSES.values()]


def new_match(game_id: str, options: object = None, *, seed: int | None = None,
              first_seat: int | None = None) -> MatchState:
    """A new match of any game, its decks shuffled from ``seed``; ``first_seat`` is the first
    dealer (Court Piece, Goat) or caller (two-player Court Piece)."""
    return game_class(game_id).new_match(options, seed=seed, first_seat=first_seat)


__all__ = ["CLASSES", "GAMES", "SUITS", "SUIT_NAMES", "SUIT_SYMBOLS", "Collector", "CourtPiece",
           "CourtPiece2P", "DealSlots", "GameClass", "Goat", "IllegalAction", "MalformedAction",
           "MatchState", "OptionError", "Outcome", "Packet", "RecordError", "collect_step",
           "describe_game", "describe_games", "game_class", "get_game", "new_match", "trick_winner"]
