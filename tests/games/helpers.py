"""Shared helpers for the rules tests: random play and decks built to order."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from taash.games import get_game

CARD_RE = re.compile(r"^(?:[2-9TJQKA])[SHDC]$")


def random_states(game: str, options: Any, seed: int, max_steps: int = 2000,
                  deals: int = 3) -> Iterator[Any]:
    """Yield the state before every action of a random match (a few deals), then the end."""
    cls = get_game(game)
    rng = random.Random(seed)
    state = cls.new_match(options, rng=rng, deal=False)
    steps = 0
    for _ in range(deals):
        if not state.needs_deal():
            break
        state.deal_from(rng)
        while not state.needs_deal() and not state.is_over() and steps < max_steps:
            yield state
            choices = [(s, a) for s in state.actors() for a in state.legal_ids(s)]
            seat, a = rng.choice(choices)
            state.apply(seat, state.action_text(a))
            steps += 1
    yield state


def cards_in(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    out: set[str] = set()
    if isinstance(obj, str):
        if CARD_RE.match(obj):
            out.add(obj)
        elif ":" in obj:
            for piece in obj.partition(":")[2].split(","):
                if CARD_RE.match(piece):
                    out.add(piece)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    return out


def cp_deck(hands: dict[int, list[str]], dealer: int, seats: int = 4) -> list[str]:
    """A Court Piece deck that deals ``hands`` (seat -> 13 codes, dealt in the order given:
    the first five before the trump call) with ``dealer`` dealing; unspecified seats and
    positions get the remaining cards."""
    from taash.games.tricks import PACK

    caller = (dealer + 1) % seats if seats == 4 else dealer  # 2p: ``dealer`` means caller
    if seats == 4:
        slots = {(caller + i) % 4: [*range(5 * i, 5 * i + 5), *range(20 + 4 * i, 24 + 4 * i),
                                    *range(36 + 4 * i, 40 + 4 * i)] for i in range(4)}
    else:
        slots = {caller: list(range(0, 5)) + list(range(10, 18)),
                 1 - caller: list(range(5, 10)) + list(range(18, 26))}
    deck: list[str | None] = [None] * 52
    used = set()
    for seat, codes in hands.items():
        for pos, code in zip(slots[seat], codes, strict=False):
            deck[pos] = code
            used.add(code)
    rest = [c for c in PACK.full_deck() if c not in used]
    for i in range(52):
        if deck[i] is None:
            deck[i] = rest.pop()
    return [c for c in deck if c is not None]
