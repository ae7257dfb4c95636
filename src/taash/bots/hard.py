"""The hard level: sample hidden cards consistent with the view, search each sample.

(First cut: the rules-of-thumb player, until the search lands.)
"""

from __future__ import annotations

from taash.bots.base import Bot
from taash.bots.court import CourtHeuristicBot
from taash.bots.goat import GoatHeuristicBot


def make_hard_bot(game_id: str, seed: int | None, budget_ms: float | None) -> Bot:
    bot: Bot = GoatHeuristicBot(game_id, seed) if game_id == "goat" else CourtHeuristicBot(
        game_id, seed)
    bot.level = "hard"
    return bot
