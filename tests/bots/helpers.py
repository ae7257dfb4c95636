"""Deals played by bots, for tests that look at real positions rather than made-up ones."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from taash.bots import make_bot
from taash.games import get_game


def bot_positions(game: str, options: Any, seed: int, levels: list[str],
                  budget_ms: float = 2) -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """Play one deal with bots of ``levels`` (by seat, cycling) and yield (state, seat,
    view) before each answer; the bot at ``seat`` then acts as it chose."""
    cls = get_game(game)
    rng = random.Random(seed)
    m = cls.new_match(options, deal=False, **{cls.first_seat_key: rng.randrange(cls.num_seats)})
    m.deal_from(rng)
    bots = [make_bot(game, levels[s % len(levels)], seed=seed * 10 + s, budget_ms=budget_ms)
            for s in range(cls.num_seats)]
    while not (m.needs_deal() or m.is_over()):
        # Every seat that may act is asked; the first in the engine's order that answers acts.
        chosen: tuple[int, str] | None = None
        for s in m.actors():
            view = m.view(s)
            yield m, s, view
            a = bots[s].act(view)
            if a is not None and chosen is None:
                chosen = (s, a)
        assert chosen is not None, "the seat to move must act"
        m.apply(*chosen)
