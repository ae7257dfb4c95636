"""Goat (Kozel) play by rules of thumb, on card bitmasks and the core's action ids.

Points decide a Goat game, so the rules of thumb weigh cards by points: beat with the least
points, pass the cheapest cards face down, give points to a partner whose trick is safe, lead
masters (cards no unseen card of their suit can beat) and keep trumps for tricks worth them.
Card ints are ``suit * 9 + order`` (6 7 8 9 J Q K T A: the core's ``RANK_OF``); action ids
are ``verb << SHIFT | cards`` (``taash.games.goat``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from taash.bots.base import Json, must_move
from taash.cards import SUITS, card_list
from taash.games.goat import (
    BEAT,
    CARDS,
    LEAD,
    MOLODKA,
    PACK,
    PASS,
    POINTS,
    RANK_OF,
    SHIFT,
    SUIT_MASK,
    SUIT_OF,
    VERBS,
    Goat,
)
from taash.games.goat import action_text as action_text

# A verb's id from its name in a view ("beat" -> BEAT), read off the core's own table.
VERB_IDS = {v: i for i, v in enumerate(VERBS) if v}
ALL = PACK.all_mask


def pts(mask: int) -> int:
    return sum(POINTS[c] for c in card_list(mask))


def is_master(card: int, unseen: int) -> bool:
    return not (unseen & SUIT_MASK[SUIT_OF[card]] & ~((2 << card) - 1))


@dataclass(slots=True)
class GoatKnowledge:
    """What a seat knows at a decision, as bitmasks; ``unseen`` are cards it has not seen
    (in other hands, the stock, or passed face down by others)."""

    seat: int
    hand: int
    trump: int
    unseen: int
    plays: list[tuple[int, int, int]]  # this trick: (seat, verb, cards or 0 if face down)
    top: int
    top_seat: int
    k: int
    stock: int


def card_value(c: int, trump: int) -> int:
    """How much a card is worth keeping: points, plus strength for trumps and masters."""
    v = POINTS[c] + RANK_OF[c]
    if SUIT_OF[c] == trump:
        v += 12
    return v


def cheapest_pass(k: GoatKnowledge, options: list[int]) -> int:
    """The pass giving away the fewest points and least strength."""
    return min(options, key=lambda a: (pts(a & CARDS), sum(card_value(c, k.trump)
                                                         for c in card_list(a & CARDS))))


def choose(k: GoatKnowledge, legal: list[int]) -> int:
    """One action id from ``legal`` (non-empty; the seat is the one to move)."""
    if len(legal) == 1:
        return legal[0]
    if not k.plays:
        return _lead(k, legal)
    molodka = [a for a in legal if a >> SHIFT == MOLODKA]
    if molodka and k.top_seat % 2 != k.seat % 2:
        return molodka[0]
    return _answer(k, legal)


def _lead(k: GoatKnowledge, legal: list[int]) -> int:
    hand, trump = k.hand, k.trump
    four = [a for a in legal if (a & CARDS).bit_count() == 4]
    if four:
        return four[0]  # a led molodka: everyone must answer four cards
    best, best_key = -1, (-1, -1)
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASK[s]
        masters = 0
        for c in reversed(card_list(m)):
            if is_master(c, k.unseen & ~masters):
                masters |= 1 << c
            else:
                break
        # Masters of a side suit are beaten only by trumps; lead them all at once.
        if masters:
            key = (pts(masters), masters.bit_count())
            if key > best_key:
                best_key, best = key, LEAD << SHIFT | masters
    if best >= 0:
        return best
    side = hand & ~SUIT_MASK[trump]
    pool = side if side else hand
    c = min(card_list(pool), key=lambda x: (POINTS[x], RANK_OF[x]))
    return LEAD << SHIFT | 1 << c


def _answer(k: GoatKnowledge, legal: list[int]) -> int:
    passes = [a for a in legal if a >> SHIFT == PASS]
    beats = [a for a in legal if a >> SHIFT == BEAT]
    last = len(k.plays) == 3
    partner_top = k.top_seat % 2 == k.seat % 2
    if partner_top:
        if last or _safe(k.top, k):
            # The trick is ours: give the partner points we could lose later.
            return max(passes, key=lambda a: _smear_key(a & CARDS, k))
        # The partner's cards may yet be beaten: take over with cards nobody can beat.
        sure = [a for a in beats if _safe(a & CARDS, k)]
        if sure:
            return min(sure, key=lambda a: _beat_cost(a & CARDS, k, True))
        return cheapest_pass(k, passes)
    if not beats:
        return cheapest_pass(k, passes)
    # Beat whenever an opponent is on top: every card in the trick, passes included, goes to
    # whoever is on top at the end, so a trick let go is points and the lead given away.
    # Beat with what costs least: few trumps, and no points an opponent could overbeat.
    return min(beats, key=lambda a: _beat_cost(a & CARDS, k, last or _safe(a & CARDS, k)))


def _beat_cost(cards: int, k: GoatKnowledge, safe: bool) -> int:
    """What a beat spends: trumps used up, and the points at risk if it can be overbeaten."""
    cost = 0
    for c in card_list(cards):
        if SUIT_OF[c] == k.trump:
            cost += 8 + RANK_OF[c]
        else:
            cost += RANK_OF[c] // 2
        if not safe:
            cost += POINTS[c]
    return cost


def _safe(cards: int, k: GoatKnowledge) -> bool:
    """Can no unseen card beat any of ``cards`` (so the trick will most likely hold)?"""
    tm = SUIT_MASK[k.trump]
    for c in card_list(cards):
        if not is_master(c, k.unseen):
            return False
        if SUIT_OF[c] != k.trump and k.unseen & tm:
            return False
    return True


def _smear_key(cards: int, k: GoatKnowledge) -> tuple[int, int]:
    """Prefer passing points that are not masters and not trumps."""
    bad = 0
    for c in card_list(cards):
        if SUIT_OF[c] == k.trump or is_master(c, k.unseen):
            bad += 20 + POINTS[c]
    return (pts(cards) - bad, -bad)


def want_molodka(k: GoatKnowledge) -> bool:
    """Play a molodka out of turn when opponents hold the trick (or are about to lead it)."""
    if not k.plays:
        return True
    return k.top_seat % 2 != k.seat % 2


# -- reading a view ------------------------------------------------------------------------

def parse_action(text: str) -> int:
    verb, _, arg = text.partition(":")
    return VERB_IDS[verb] << SHIFT | PACK.mask(arg.split(","))


def knowledge_from_view(view: Mapping[str, Json]) -> GoatKnowledge:
    seat = int(view["seat"])
    hand = PACK.mask(view["hand"])
    seen = hand
    for h in view.get("history", []):
        if "cards" in h:
            seen |= PACK.mask(h["cards"])
    plays = [(int(p["seat"]), VERB_IDS[p["verb"]], PACK.mask(p["cards"]) if "cards" in p else 0)
             for p in view.get("trick", [])]
    top = PACK.mask(view.get("top") or [])
    top_seat = view.get("top_seat")
    unseen = ALL & ~seen  # the shown trump card too, until it turns up: it is in play
    return GoatKnowledge(seat, hand, SUITS.index(view["trump"]), unseen, plays, top,
                         -1 if top_seat is None else int(top_seat), int(view.get("k") or 0),
                         int(view.get("stock") or 0))


class GoatHeuristicBot:
    """The ``easy`` (alias ``heuristic``) level for Goat."""

    level = "easy"

    def __init__(self, game_id: str = Goat.game_id, seed: int | None = None) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Json]) -> str | None:
        legal_text: list[str] = view.get("legal_actions") or []
        if not legal_text:
            return None
        k = knowledge_from_view(view)
        legal = [parse_action(a) for a in legal_text]
        if not must_move(view):
            mol = [a for a in legal if a >> SHIFT == MOLODKA]
            return action_text(mol[0]) if mol and want_molodka(k) else None
        return action_text(choose(k, legal))
