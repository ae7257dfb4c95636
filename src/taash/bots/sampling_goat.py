"""Goat deals consistent with what one seat knows (determinization; see taash.bots.sampling):
the history says who won each trick, hence who drew which stock card and when, and every card
a seat played must have reached it before it was played.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from taash.bots.base import Json
from taash.bots.goat import VERB_IDS
from taash.cards import card_list
from taash.games.goat import CODES as GOAT_CODES
from taash.games.goat import MOLODKA, SHIFT, Goat
from taash.games.goat import PACK as GOAT_PACK
from taash.games.goat import trick_winner as goat_trick_winner


@dataclass(slots=True)
class GoatPlay:
    """One action of the game's history as the seat saw it; ``cards`` is 0 when face down."""

    seat: int
    verb: int
    cards: int
    count: int
    time: int  # index in the history


class GoatSampler:
    """Samples of a Goat game consistent with one seat's view.

    The history shows who won each trick, hence who drew which stock card and when.  Each
    seat's cards are placed in its deck slots (four dealt, then those drawn) so that every
    card it played had arrived before it was played; the shown trump card, being in the stock
    (GT-4), only ever goes to a drawn slot or stays in the stock."""

    def __init__(self, view: Mapping[str, Json]) -> None:
        self.seat = seat = int(view["seat"])
        self.options = dict(view["options"])
        # The deal's layout only places cards, so the sample may use any dealer: take the one
        # whose left-hand player is this game's leader (GT-5 makes it the last game's winner).
        deals = view.get("deals") or [{}]
        leader = deals[-1].get("leader")
        self.dealer = d = (int(view["dealer"]) + 1 if leader is None else int(leader)) - 1 & 3
        self.trump_card = GOAT_PACK.index(view["trump_card"])
        self.hand = GOAT_PACK.mask(view["hand"])
        self.hand_counts = [int(x) for x in view["hand_counts"]]
        plays = [GoatPlay(int(h["seat"]), VERB_IDS[h["verb"]],
                          GOAT_PACK.mask(h["cards"]) if "cards" in h else 0, int(h["count"]), i)
                 for i, h in enumerate(view.get("history", []))]
        self.plays = plays
        layout = Goat.new_match(self.options, deal=False, first_dealer=d).deal_slots()
        # Slots: (arrival time, deck position) per seat; the dealt ones arrive first (GT-3).
        slots: list[list[tuple[int, int]]] = [[], [], [], []]
        for packet in layout.packets:
            for i in range(packet.start, packet.stop):
                slots[packet.seat].append((-1, i))
        stock = layout.stock  # drawn in this order (GT-9)
        self.stock_places = frozenset(stock)  # where the shown trump card may lie (GT-4)
        kept = [True] * len(plays)  # False: sent back to its owner's hand by a molodka (GT-8)
        returned_at: dict[int, int] = {}  # face-up card -> when a molodka sent it back
        trick: list[int] = []
        drawn = 0
        counts = [layout.hand_size] * 4
        for i, p in enumerate(plays):
            if p.verb == MOLODKA:
                for j in trick:
                    kept[j] = False
                    counts[plays[j].seat] += plays[j].count
                    for c in card_list(plays[j].cards):
                        returned_at[c] = i
                trick = []
            trick.append(i)
            counts[p.seat] -= p.count
            if len(trick) == 4:
                w = goat_trick_winner([(plays[j].seat, plays[j].verb, plays[j].cards)
                                       for j in trick])
                # GT-9: the hands drawn back up from the stock, one card at a time from the
                # trick's winner on.
                for _ in range(layout.hand_size - counts[w]):
                    for k in range(4):
                        if drawn < len(stock):
                            slots[(w + k) % 4].append((i, stock[drawn]))
                            counts[(w + k) % 4] += 1
                            drawn += 1
                trick = []
        self.returned_at = returned_at
        # When each card the seat has seen played was first played (it was in hand by then).
        first: dict[int, int] = {}
        for p in plays:
            for c in card_list(p.cards):
                first.setdefault(c, p.time)
        self.first_time = first
        self.kept = kept
        self.slots = slots
        self.stock_left = stock[drawn:]  # still in the stock, in drawing order
        # Cards known to be with a seat although not shown where: its face-up cards sent
        # back by a molodka that it has not played face up since.
        self.known: list[int] = [0, 0, 0, 0]
        seen = self.hand
        for i, p in enumerate(plays):
            seen |= p.cards
            if p.cards and p.seat != seat:
                if kept[i]:
                    self.known[p.seat] &= ~p.cards
                else:
                    self.known[p.seat] |= p.cards
        self.seen = seen
        self.unknown = card_list(GOAT_PACK.all_mask & ~seen)
        # Cards known to be in a seat's hand now although never shown (``hold``).
        self.held: list[int] = [0, 0, 0, 0]
        # How many hidden cards each other seat has had: its hand now and its kept passes.
        self.hidden = [0, 0, 0, 0]
        for s in range(4):
            if s != seat:
                self.hidden[s] = self.hand_counts[s] + sum(
                    p.count for i, p in enumerate(plays)
                    if p.seat == s and not p.cards and kept[i])

    def hold(self, seat: int, hand: int) -> None:
        """Sample only deals in which ``seat`` holds ``hand`` now (its real cards: the
        arena's colluders and the fair-play detector, never a seat at a table)."""
        new = hand & ~self.seen
        self.held[seat] |= new
        self.unknown = [c for c in self.unknown if not new >> c & 1]

    def sample(self, rng: random.Random) -> Goat | None:
        """A state at the view's moment with the hidden cards drawn at random, or None."""
        got = self.sample_deck(rng)
        return None if got is None else self._replay(*got)

    def own_positions(self) -> list[int]:
        """The deck positions dealt to the seat so far (dealt and drawn)."""
        return [p for _, p in self.slots[self.seat]]

    def sample_deck(self, rng: random.Random, fixed: dict[int, int] | None = None
                    ) -> tuple[list[int], list[int]] | None:
        """A whole deck (card ints) and, per history entry, the action id it stands for in
        that deck (face-down passes get their sampled cards); None if none was found.
        ``fixed`` (deck position to card) orders the seat's own cards as really received."""
        for _ in range(30):
            got = self._try(rng)
            if got is not None:
                deck, cards_of = got
                for p, c in (fixed or {}).items():
                    deck[p] = c
                return deck, [p.verb << SHIFT | m for p, m in zip(self.plays, cards_of,
                                                                   strict=True)]
        return None

    def _try(self, rng: random.Random) -> tuple[list[int], list[int]] | None:
        seat = self.seat
        never = 1 << 30
        first = self.first_time
        unknown = self.unknown[:]
        rng.shuffle(unknown)
        deck = [-1] * GOAT_PACK.size
        cards_of = [p.cards for p in self.plays]  # face-down plays get their sampled cards
        i = 0
        for s in range(4):
            # Items to place in the seat's slots: (deadline, card); a card played at time t
            # (or first shown at t, if a molodka sent it back) arrived before t.
            items: list[tuple[int, int]] = []
            mine = 0
            for j, p in enumerate(self.plays):
                if p.seat == s and self.kept[j]:
                    mine |= p.cards
            if s == seat:
                items = [(first.get(c, never), c) for c in card_list(mine | self.hand)]
            else:
                extras = card_list(self.known[s])
                n = self.hidden[s] - len(extras) - self.held[s].bit_count()
                unk = unknown[i:i + n]
                i += n
                items = [(first[c], c) for c in card_list(mine)]
                for j, p in enumerate(self.plays):
                    if p.seat != s or p.cards or not self.kept[j]:
                        continue
                    m = 0
                    for _ in range(p.count):  # a face-down pass: unseen cards, or cards
                        # sent back to this seat before it
                        ok = [x for x in extras if self.returned_at[x] < p.time]
                        total = len(unk) + len(ok)
                        if not total:
                            return None
                        r = rng.randrange(total)
                        if r < len(unk):
                            c = unk.pop(r)
                        else:
                            c = ok[r - len(unk)]
                            extras.remove(c)
                        m |= 1 << c
                        items.append((min(p.time, first.get(c, never)), c))
                    cards_of[j] = m
                items += [(never, c) for c in unk] + [(first[c], c) for c in extras]
                items += [(never, c) for c in card_list(self.held[s])]
            items.sort(key=lambda x: x[0])
            free = self.slots[s][:]
            if len(free) != len(items):
                return None
            for t, c in items:
                for k, (arrived, where) in enumerate(free):
                    if arrived < t and (c != self.trump_card or where in self.stock_places):
                        deck[where] = c
                        del free[k]
                        break
                else:
                    return None
        for where, c in zip(self.stock_left, unknown[i:], strict=True):
            deck[where] = c
        return deck, cards_of

    def _replay(self, deck: list[int], ids: list[int]) -> Goat:
        st = Goat.new_match(self.options, deal=False, first_dealer=self.dealer)
        st.deal([GOAT_CODES[c] for c in deck], GOAT_CODES[self.trump_card])
        for p, a in zip(self.plays, ids, strict=True):
            st.apply_id(p.seat, a)
        return st
