"""Bots for every game: one interface, three levels.

A bot is given one seat's view (``state.view(seat)``: what that seat may see, with the public
history) and answers one of ``view["legal_actions"]``::

    >>> from taash.games import new_match
    >>> m = new_match("court-piece", seed=7, first_seat=0)
    >>> bot = make_bot("court-piece", "easy", seed=1)
    >>> seat = m.actors()[0]
    >>> bot.act(m.view(seat)) in m.legal_actions(seat)
    True

``act`` returns None only when the seat is not the one to move and declines to act (Goat: an
optional out-of-turn molodka).  Given a seed a bot is reproducible.

Levels: ``random``; ``easy`` (alias ``heuristic``): rules of thumb; ``hard``: sampling the
hidden cards consistently with the view and searching each sample.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from taash.bots.base import GAME_IDS, Bot, BotError, RandomBot
from taash.bots.court import CourtHeuristicBot
from taash.bots.court import trump_hint as _court_hint
from taash.bots.goat import GoatHeuristicBot
from taash.bots.hard import make_hard_bot
from taash.cards import SUITS, CardError
from taash.games import CourtPiece, CourtPiece2P, Goat, game_class
from taash.games.tricks import PACK as CP_PACK

LEVELS = ("random", "easy", "hard")
ALIASES = {"heuristic": "easy"}
#: each game's rules of thumb (``easy``), given the game id and a seed
HEURISTIC: dict[str, Callable[[str, int | None], Bot]] = {
    CourtPiece.game_id: CourtHeuristicBot, CourtPiece2P.game_id: CourtHeuristicBot,
    Goat.game_id: GoatHeuristicBot}


def level_name(level: str) -> str:
    """The canonical level of a level or alias; BotError naming the levels if unknown."""
    name = ALIASES.get(level, level)
    if name not in LEVELS:
        raise BotError(f"unknown level {level!r} (levels: {', '.join(LEVELS)}, heuristic)")
    return name


def make_bot(game_id: str, level: str, seed: int | None = None,
             budget_ms: float | None = None) -> Bot:
    """A bot of ``level`` for ``game_id``; ``budget_ms`` caps the hard bot's time per move."""
    if game_id not in GAME_IDS:
        raise BotError(f"unknown game {game_id!r} (games: {', '.join(GAME_IDS)})")
    name = level_name(level)
    if name == "random":
        return RandomBot(game_id, seed)
    if name == "hard":
        return make_hard_bot(game_id, seed, budget_ms)
    return HEURISTIC[game_id](game_id, seed)


def trump_hint(game_id: str, hand_codes: Sequence[str]) -> list[str]:
    """The suits the bots would call from these cards (a Court Piece caller's first five):
    the most-held suits, strongest first.  Goat has no call, so its hint is empty.

    >>> trump_hint("court-piece", ["AS", "2S", "KH", "QH", "3D"])
    ['H', 'S']
    """
    if game_id not in GAME_IDS:
        raise BotError(f"unknown game {game_id!r} (games: {', '.join(GAME_IDS)})")
    if game_class(game_id).shows_trump_card:  # trump is shown, never called
        return []
    try:
        mask = CP_PACK.mask(hand_codes)
    except CardError as e:
        raise BotError(str(e)) from None
    return [SUITS[s] for s in _court_hint(mask)]


__all__ = ["ALIASES", "LEVELS", "Bot", "BotError", "level_name", "make_bot", "trump_hint"]
