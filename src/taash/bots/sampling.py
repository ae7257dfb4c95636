"""Deals consistent with what one seat knows, rebuilt as real core states (determinization).

A sample assigns every card the seat has not seen to a place it could be (a hand that has not
shown a void in its suit, the stock, the cards out of play), builds a whole deck that deals
those places, and replays the view's history through the core's public API (``deal`` then
``apply_id``).  The result is an ordinary state at the same moment as the view, which search
then clones and plays out on the fast path.  Nothing here sees the real state.

Court Piece's samples are here; Goat's are taash.bots.sampling_goat's (``GoatSampler``, also
importable from here).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from taash.bots.base import Json
from taash.bots.sampling_goat import GoatSampler as GoatSampler  # its old home
from taash.cards import SUITS, card_list
from taash.games import game_class
from taash.games.tricks import CODES as CP_CODES
from taash.games.tricks import PACK as CP_PACK
from taash.games.tricks import SUIT_OF as CP_SUIT
from taash.games.tricks import TRUMP_BASE, TrickMatch


def fill(cards: list[int], suit_of: tuple[int, ...], caps: list[int], banned: list[int],
         rng: random.Random, tries: int = 30) -> list[list[int]] | None:
    """Share ``cards`` among places of the given capacities, none getting a suit in its
    ``banned`` suit mask; None if no share was found.  The most constrained cards go first,
    and each goes to an allowed place with chance in proportion to its free room, which is
    uniform over the shares when nothing is banned."""
    if sum(caps) != len(cards):
        return None
    nplaces = len(caps)
    allowed = [[p for p in range(nplaces) if not banned[p] >> s & 1] for s in range(4)]
    for _ in range(tries):
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[suit_of[c]]))
        room = caps[:]
        out: list[list[int]] = [[] for _ in caps]
        ok = True
        for c in order:
            places = allowed[suit_of[c]]
            total = 0
            for p in places:
                total += room[p]
            if total == 0:
                ok = False
                break
            r = rng.randrange(total)
            for p in places:
                r -= room[p]
                if r < 0:
                    break
            out[p].append(c)
            room[p] -= 1
        if ok:
            return out
    return None


# -- Court Piece (four players and two) -----------------------------------------------------

@dataclass(slots=True)
class CourtInfo:
    """A Court Piece view, read once into ints for fast sampling."""

    game: str
    seat: int
    seats: int
    options: dict[str, Json]
    dealer: int
    caller: int
    trump: int
    phase: str
    hand: int
    history: list[tuple[int, int]]
    played: list[int]  # cards each seat has played this deal
    voids: list[int]
    hand_counts: list[int]
    trick: list[int]
    leader: int


def court_info(view: Mapping[str, Json]) -> CourtInfo:
    seat = int(view["seat"])
    n = int(view["seats"])
    hist: list[tuple[int, int]] = []
    played = [0] * n
    voids = [0] * n
    trick: list[int] = []
    for h in view.get("history", []):
        verb, _, arg = h["action"].partition(":")
        s = int(h["seat"])
        if verb == "trump":
            hist.append((s, TRUMP_BASE + SUITS.index(arg)))
            continue
        c = CP_PACK.index(arg)
        hist.append((s, c))
        played[s] |= 1 << c
        if len(trick) == n:
            trick = []
        if trick and CP_SUIT[c] != CP_SUIT[trick[0]]:
            voids[s] |= 1 << CP_SUIT[trick[0]]
        trick.append(c)
    if len(trick) == n:
        trick = []
    leader = int(view["trick"][0]["seat"]) if view.get("trick") else int(view.get("to_move", -1))
    return CourtInfo(
        game=str(view["game"]), seat=seat, seats=n, options=dict(view["options"]),
        dealer=int(view["dealer"]), caller=int(view["caller"]),
        trump=SUITS.index(view["trump"]) if view.get("trump") else -1,
        phase=str(view["phase"]), hand=CP_PACK.mask(view["hand"]), history=hist,
        played=played, voids=voids, hand_counts=[int(x) for x in view["hand_counts"]],
        trick=trick, leader=leader)


class CourtSampler:
    """Samples of a Court Piece deal consistent with one seat's view."""

    def __init__(self, view: Mapping[str, Json]) -> None:
        self.info = info = court_info(view)
        self.cls = game_class(info.game)
        self.first_seat = info.caller if info.seats == 2 else info.dealer
        # Which deck positions each seat is dealt (CP-3, TW-3), as the core deals them.
        self.slots = self.cls.new_match(info.options, deal=False,
                                        first_seat=self.first_seat).deal_slots()
        seen = info.hand
        for p in info.played:
            seen |= p
        self.unknown = card_list(CP_PACK.all_mask & ~seen)
        others = [s for s in range(info.seats) if s != info.seat]
        self.others = others
        self.caps = [info.hand_counts[s] for s in others]
        self.banned = [info.voids[s] for s in others]
        rest = len(self.unknown) - sum(self.caps)
        if rest:  # the cards still to be dealt (trump phase) or out of play (2p)
            self.caps.append(rest)
            self.banned.append(0)

    def hands(self, rng: random.Random) -> list[int] | None:
        """The current hand of every seat in one sample (the last entry: the cards no seat
        holds now, i.e. still to be dealt or out of play), or None if none was found."""
        info = self.info
        share = fill(self.unknown, CP_SUIT, self.caps, self.banned, rng)
        if share is None:
            share = fill(self.unknown, CP_SUIT, self.caps, [0] * len(self.caps), rng)
            if share is None:
                return None
        out = [0] * (info.seats + 1)
        out[info.seat] = info.hand
        for i, s in enumerate(self.others):
            for c in share[i]:
                out[s] |= 1 << c
        if len(share) > len(self.others):
            for c in share[-1]:
                out[info.seats] |= 1 << c
        return out

    def sample(self, rng: random.Random) -> TrickMatch | None:
        """A state at the view's moment whose hidden cards are drawn at random; None if the
        view's constraints could not be met."""
        hands = self.hands(rng)
        return None if hands is None else self.state_for(hands, rng)

    def state_for(self, hands: list[int], rng: random.Random) -> TrickMatch:
        """The state at the view's moment in which the seats hold ``hands``."""
        return self.build(hands, rng)

    def build(self, hands: list[int], rng: random.Random) -> TrickMatch:
        """Deal a deck giving each seat its played cards plus ``hands`` and replay."""
        deck = self.deck_for(hands, rng)
        # (A fresh match each time: the core cannot clone a match before its first deal.)
        st = cast(TrickMatch, self.cls.new_match(self.info.options, deal=False,
                                                 first_seat=self.first_seat))
        st.deal([CP_CODES[c] for c in deck])
        for s, a in self.info.history:
            st.apply_id(s, a)
        return st

    def sample_deck(self, rng: random.Random, fixed: dict[int, int] | None = None
                    ) -> list[int] | None:
        """A whole deck (card ints, top first) consistent with the view, or None.  ``fixed``
        (deck position to card) orders the seat's own cards as it really received them."""
        hands = self.hands(rng)
        if hands is None:
            return None
        deck = self.deck_for(hands, rng)
        for p, c in (fixed or {}).items():
            deck[p] = c
        return deck

    def own_positions(self) -> list[int]:
        """The deck positions dealt to the seat so far."""
        seat = self.info.seat
        if self.info.phase == "trump":
            return list(self.slots.positions(seat, True)) if seat == self.info.caller else []
        return list(self.slots.positions(seat))

    def deck_for(self, hands: list[int], rng: random.Random) -> list[int]:
        """A deck that deals each seat its played cards plus ``hands`` (CP-3, TW-3)."""
        info = self.info
        slots = self.slots
        whole = [hands[s] | info.played[s] for s in range(info.seats)]
        deck: list[int] = [-1] * CP_PACK.size
        before_call = info.phase == "trump"  # only the packets before the call are dealt yet
        for s, cards in enumerate(whole):
            for p, c in zip(slots.positions(s, before_call), card_list(cards), strict=True):
                deck[p] = c
        # The cards no seat holds now (``hands[n]``): still to be dealt, or out of play (2p).
        rest = card_list(hands[info.seats])
        if before_call:
            rng.shuffle(rest)
            places = [p for p in range(CP_PACK.size) if deck[p] < 0]
        else:
            places = list(slots.out_of_play)
        for p, c in zip(places, rest, strict=True):
            deck[p] = c
        return deck
