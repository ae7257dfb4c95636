"""Court Piece (four players and two) card play by rules of thumb, on card bitmasks.

The policy is a pure function of what one seat knows (``Knowledge``), so the easy bot uses it
on a view and the hard bot's playouts use it on sampled deals without any text in the loop.
Card ints are ``suit * 13 + rank`` with rank 0 = 2 .. 12 = A (``taash.games.tricks.PACK``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from taash.bots.base import Json, must_move
from taash.cards import SUITS
from taash.cards import card_list as _cards
from taash.games.tricks import (
    ACTION_TEXT,
    PACK,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_BASE,
    trick_winner,
)

ALL = PACK.all_mask


def low(mask: int) -> int:
    """The lowest card of a non-empty set (lowest suit first, then lowest rank)."""
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: int) -> int:
    """The card of lowest rank in a set, whatever its suit (shortest suit breaks ties)."""
    best = -1
    key = (99, 99)
    for s in range(4):
        m = mask & SUIT_MASK[s]
        if m:
            c = low(m)
            k = (RANK_OF[c], m.bit_count())
            if k < key:
                key, best = k, c
    return best


def trump_order(cards: int) -> list[int]:
    """Suits ordered as the bots and the hint advise: most held first, then by strength.

    >>> [SUITS[s] for s in trump_order(PACK.mask(["AS", "2S", "KH", "QH", "3D"]))]
    ['H', 'S', 'D', 'C']
    """
    def key(s: int) -> tuple[int, int, int]:
        m = cards & SUIT_MASK[s]
        honours = sum(RANK_OF[c] for c in _cards(m))
        return (-m.bit_count(), -honours, s)
    return sorted(range(4), key=key)


def trump_hint(cards: int) -> list[int]:
    """The most-held suits of the first five cards (RULES.md CP-4 advice), best first."""
    order = trump_order(cards)
    top = (cards & SUIT_MASK[order[0]]).bit_count()
    return [s for s in order if (cards & SUIT_MASK[s]).bit_count() == top]


@dataclass(slots=True)
class Knowledge:
    """What a seat knows at its turn in the play phase, as bitmasks.

    ``unseen``: cards not in this hand and not yet played (held by others or out of play);
    ``voids[s]``: a 4-bit mask of the suits seat ``s`` has shown it does not hold."""

    seat: int
    seats: int
    hand: int
    trump: int
    trick: list[int]
    leader: int
    unseen: int
    voids: list[int]
    partner_leads: int  # suits the partner has led this deal (bit per suit)
    # Double sar: the trick's leader won the trick before, so winning this one too collects
    # the pile (CP-7); the leader's side then wants the leader to win, the other side not.
    collect: bool = False
    double: bool = False  # double sar: a trick only counts when collected


# LATER_OPPS[n][seat][pos]: the opponents of ``seat`` who play after it when it plays
# ``pos``-th in a trick of ``n`` seats.
LATER_OPPS = {n: [[[(seat + i) % n for i in range(1, n - pos) if i % 2 == 1]
                   for pos in range(n)] for seat in range(n)] for n in (2, 4)}


def is_master(card: int, unseen: int) -> bool:
    """No unseen card of its suit is higher."""
    s = SUIT_OF[card]
    return not (unseen & SUIT_MASK[s] & ~((2 << card) - 1))


def choose_play(k: Knowledge, legal: int) -> int:
    """The card the rules of thumb play from ``legal`` (a non-empty card mask)."""
    if legal & (legal - 1) == 0:
        return low(legal)
    if not k.trick:
        return _lead(k, legal)
    return _follow(k, legal)


def _lead(k: Knowledge, legal: int) -> int:
    trump = k.trump
    tmask = SUIT_MASK[trump]
    hand = legal
    if k.collect:
        # Double sar, having won the trick before: win this one too and collect the pile.
        # Lead the card that fewest unseen cards can beat (a master, else the best chance).
        def beaters(c: int) -> int:
            above = k.unseen & SUIT_MASK[SUIT_OF[c]] & ~((2 << c) - 1)
            n = above.bit_count()
            if SUIT_OF[c] != trump and k.unseen & tmask:
                n += 1  # a ruff may come
            return n
        return min((high(hand & SUIT_MASK[s]) for s in range(4) if hand & SUIT_MASK[s]),
                   key=lambda c: (beaters(c), -RANK_OF[c]))
    opps = [s for s in range(k.seats) if (s - k.seat) % 2 == 1]
    unseen_trumps = k.unseen & tmask
    my_trumps = hand & tmask
    if k.double:
        # Double sar without the chain: a trick won now collects nothing, so keep the masters
        # (and trumps) for the tricks that collect; lead low from the longest side suit.
        side = hand & ~tmask
        if side:
            s = max((x for x in range(4) if side & SUIT_MASK[x]),
                    key=lambda x: (k.partner_leads >> x & 1, (side & SUIT_MASK[x]).bit_count(),
                                   -x))
            return low(side & SUIT_MASK[s])
    # Draw trumps with the master trump while holding length: opponents' small trumps fall.
    n_mine = my_trumps.bit_count()
    if (n_mine >= 3 and unseen_trumps and is_master(high(my_trumps), k.unseen)
            and n_mine * 2 >= unseen_trumps.bit_count()):
        return high(my_trumps)
    # Cash a master in a side suit that no opponent is known to ruff.
    best = -1
    best_key = (-1, -1)
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASK[s]
        if not m:
            continue
        c = high(m)
        if not is_master(c, k.unseen):
            continue
        ruffable = any(k.voids[o] >> s & 1 and not k.voids[o] >> trump & 1 for o in opps)
        if ruffable and unseen_trumps:
            continue
        key = ((k.unseen & SUIT_MASK[s]).bit_count(), RANK_OF[c])
        if key > best_key:
            best_key, best = key, c
    if best >= 0:
        return best
    # Return the partner's suit, low: the partner has shown strength there.
    for s in range(4):
        if s != trump and k.partner_leads >> s & 1 and hand & SUIT_MASK[s]:
            return low(hand & SUIT_MASK[s])
    side = hand & ~tmask
    if side:
        # Lead low from the longest side suit, keeping trumps for when they count.
        s = max((x for x in range(4) if side & SUIT_MASK[x]),
                key=lambda x: ((side & SUIT_MASK[x]).bit_count(), -x))
        return low(side & SUIT_MASK[s])
    return high(hand) if is_master(high(hand), k.unseen) else low(hand)


def _follow(k: Knowledge, legal: int) -> int:
    trick, trump = k.trick, k.trump
    n = k.seats
    led = SUIT_OF[trick[0]]
    bi = trick_winner(trick, trump)
    b = trick[bi]
    best_seat = (k.leader + bi) % n
    pos = len(trick)
    last = pos == n - 1
    partner_winning = n == 4 and best_seat == (k.seat + 2) % 4
    later_opps = LATER_OPPS[n][k.seat][pos]  # opponents still to play after us
    following = bool(legal & SUIT_MASK[led])
    if k.collect and best_seat == k.leader:
        if (k.leader - k.seat) % 2 == 0:
            return _cheapest(legal, trump)  # the partner is about to collect: leave it be
        # An opponent is about to collect the pile: stop it with whatever wins the trick.
        if following and SUIT_OF[b] == led:
            winners = legal & ~((2 << b) - 1)
        elif not following:
            winners = legal & SUIT_MASK[trump]
            if SUIT_OF[b] == trump:
                winners &= ~((2 << b) - 1)
        else:
            winners = 0
        if winners:
            if last:
                return low(winners)
            masters = [c for c in _cards(winners) if is_master(c, k.unseen)]
            return masters[0] if masters else high(winners)
    if partner_winning and _secure(k, b, led, later_opps, last):
        return _cheapest(legal, trump)
    if following:
        if SUIT_OF[b] != led:  # already trumped: our suit card cannot win
            return low(legal)
        winners = legal & ~((2 << b) - 1)
        if not winners:
            return low(legal)
        if last:
            return low(winners)
        ruff_risk = any(k.voids[o] >> led & 1 and not k.voids[o] >> trump & 1 for o in later_opps)
        masters = [c for c in _cards(winners) if is_master(c, k.unseen)]
        if masters and not (ruff_risk and k.unseen & SUIT_MASK[trump]):
            return masters[0]
        if partner_winning or (n == 4 and pos == 1):
            return low(legal)  # second hand low: the partner still plays
        return low(winners)
    # Void in the led suit: ruff when it wins the trick for us, else throw the least card.
    trumps = legal & SUIT_MASK[trump]
    if trumps and not partner_winning:
        if SUIT_OF[b] == trump:
            trumps &= ~((2 << b) - 1)
        if trumps:
            if not last:
                # An opponent after us who is void too may overruff: go over their trumps.
                over = [c for c in _cards(trumps) if is_master(c, k.unseen)]
                risk = any(k.voids[o] >> led & 1 for o in later_opps)
                if risk and over:
                    return over[0]
            return low(trumps)
    return _cheapest(legal, trump)


def _secure(k: Knowledge, b: int, led: int, later_opps: list[int], last: bool) -> bool:
    """Will the partner's winning card ``b`` most likely hold to the end of the trick?"""
    if last or not later_opps:
        return True
    trump = k.trump
    if SUIT_OF[b] == trump:
        return is_master(b, k.unseen)
    if not is_master(b, k.unseen):
        return False
    return not any(k.voids[o] >> led & 1 and not k.voids[o] >> trump & 1 for o in later_opps)




def _cheapest(legal: int, trump: int) -> int:
    """The least useful card: a low side card from a short suit, a trump only if forced."""
    side = legal & ~SUIT_MASK[trump]
    return lowest_rank(side) if side else low(legal)


# -- reading a view ------------------------------------------------------------------------

def knowledge_from_view(view: Mapping[str, Json]) -> Knowledge:
    """Everything the play policy needs, read from a seat's view."""
    seat = int(view["seat"])
    n = int(view["seats"])
    hand = PACK.mask(view["hand"])
    trump = SUITS.index(view["trump"]) if view.get("trump") else -1
    played = 0
    voids = [0] * n
    partner_leads = 0
    partner = (seat + 2) % 4 if n == 4 else -1
    trick: list[int] = []
    leader = -1
    for h in view.get("history", []):
        verb, _, arg = h["action"].partition(":")
        if verb != "play":
            continue
        c = PACK.index(arg)
        s = h["seat"]
        played |= 1 << c
        if not trick:
            leader = s
            if s == partner:
                partner_leads |= 1 << SUIT_OF[c]
        elif SUIT_OF[c] != SUIT_OF[trick[0]]:
            voids[s] |= 1 << SUIT_OF[trick[0]]
        trick.append(c)
        if len(trick) == n:
            trick = []
    cur = [PACK.index(t["card"]) for t in view.get("trick", [])]
    if cur:
        leader = int(view["trick"][0]["seat"])
    # Double sar: the core says who collects the pile by winning this trick (CP-7, CP-8).
    collector = view.get("collector") or {}
    collect = collector.get("seat") is not None
    double = view.get("options", {}).get("sar") == "double"
    return Knowledge(seat, n, hand, trump, cur, leader, ALL & ~hand & ~played, voids,
                     partner_leads, collect, double)


class CourtHeuristicBot:
    """The ``easy`` (alias ``heuristic``) level for both Court Piece games."""

    level = "easy"

    def __init__(self, game_id: str, seed: int | None = None) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Json]) -> str | None:
        legal: list[str] = view.get("legal_actions") or []
        if not legal or not must_move(view):
            return None
        if view.get("phase") == "trump":
            return call_trump(view)
        k = knowledge_from_view(view)
        legal_mask = PACK.mask(a.partition(":")[2] for a in legal)
        return ACTION_TEXT[choose_play(k, legal_mask)]


def call_trump(view: Mapping[str, Json]) -> str:
    """The most-held suit of the five cards (strongest of the tied ones), among the legal."""
    legal: list[str] = view["legal_actions"]
    for s in trump_order(PACK.mask(view["hand"])):
        a = ACTION_TEXT[TRUMP_BASE + s]
        if a in legal:
            return a
    return legal[0]
