"""Goat's match state and its dealing (RULES.md GT-2..GT-5): the state every part of a match
reads, shuffling and dealing the deck, the shown trump card, the slots a deck fills, the start
of each trick (which seats hold a molodka as it starts) and a cheap copy for search.  Who may
act, legal action ids and applying them are ``taash.games.goat_play.GoatPlay``'s.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Self

from taash.cards import CardError, Pack, parse_card
from taash.games.base import DealSlots, Json, MatchBase, Packet, RecordError, check_deck
from taash.games.goat_rules import (
    CODES,
    DEALT,
    MOLODKA_HANDS,
    OVER,
    PACK,
    PLAY,
    STOCK,
    SUIT_OF,
    WAIT,
)
from taash.games.types import GoatDeal


def _copy_rng(rng: random.Random | None) -> random.Random | None:
    if rng is None:
        return None
    new = random.Random()
    new.setstate(rng.getstate())
    return new


# random.shuffle's swaps of a 36-card deck, last card first: (i, i + 1, bit length of i + 1)
_SWAPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(35, 0, -1))


def _shuffled(rng: random.Random) -> tuple[list[int], int]:
    """A deck shuffled with ``rng`` and the shown trump card drawn from its stock: exactly
    ``rng.shuffle(deck)`` then ``rng.choice(deck[16:])`` (a ``random.Random`` draws each swap
    with ``getrandbits``, as those do, but without a Python call per card; any other rng is
    asked itself)."""
    cards = list(range(36))
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return cards, rng.choice(cards[DEALT:])
    bits = rng.getrandbits
    for i, n, k in _SWAPS:  # random.Random._randbelow(n): k bits, again until below n
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]
    j = bits(5)  # choice() of the stock's 20 cards
    while j >= 20:
        j = bits(5)
    return cards, cards[DEALT + j]


class GoatDealing(MatchBase):
    """A Goat match's state, its dealing and the start of each trick (``GoatPlay`` adds who
    may act and the fast path; ``Goat`` text, views and records).  The attributes search may
    read are listed on ``GoatPlay``."""

    __slots__ = (
        "options", "rng", "first_seat", "phase", "dealer", "deck", "trump", "trump_card",
        "hands", "stock_pos", "first_leader", "game_leader", "lead_seat", "k", "plays", "top",
        "top_seat", "molodka_done", "played", "to_move", "taken", "tricks", "last_trick",
        "next_dealer", "next_leader", "defeat", "prev_eggs", "_over", "_loser", "_log", "_past",
        "_results", "_molodkas",
    )

    def __init__(self, options: dict[str, Json], first_dealer: int,
                 rng: random.Random | None = None) -> None:
        self.options = options
        self.rng = rng
        self.first_seat = first_dealer
        self.phase = WAIT
        self.next_dealer = first_dealer
        self.next_leader = -1
        self.defeat = [0, 0]
        self.prev_eggs = False
        self._over = False
        self._loser: int | None = None
        self._log: list[tuple[int, int]] = []
        self._past: tuple[tuple[list[int], int, tuple[tuple[int, int], ...]], ...] = ()
        self._results: tuple[GoatDeal, ...] = ()
        self.deck: list[int] = []
        self.hands = [0, 0, 0, 0]
        self.plays: list[tuple[int, int, int]] = []
        self.taken = [0, 0]
        self.tricks = [0, 0]
        self.last_trick: tuple[int, list[tuple[int, int, int]]] | None = None
        self.dealer = self.trump = self.trump_card = self.to_move = -1
        self.stock_pos = self.k = self.top = self.played = 0
        self.first_leader = self.game_leader = self.lead_seat = self.top_seat = -1
        self.molodka_done = False
        self._molodkas = 0
        if rng is not None:
            self.deal_from(rng)

    @classmethod
    def pack(cls) -> Pack:
        return PACK

    def over_rule(self) -> str:
        return "GT-12"

    # -- dealing -----------------------------------------------------------------------------
    def needs_deal(self) -> bool:
        return self.phase == WAIT

    def deal_from(self, rng: random.Random) -> None:
        """Deal the next game from a deck shuffled with ``rng``, the shown trump card drawn
        uniformly from the stock (GT-4)."""
        self._start(*_shuffled(rng))

    def deal(self, deck: Sequence[str], trump_card: str | None = None) -> None:
        """Start the next game from a deck order and the shown trump card (GT-3, GT-4)."""
        cards = check_deck(PACK, list(deck))
        if not isinstance(trump_card, str):
            raise RecordError("trump_card: a Goat deal needs the shown trump card")
        with contextlib.suppress(CardError):  # if it does not parse, check_trump_card says so
            trump_card = parse_card(trump_card)
        self._start(cards, self.check_trump_card(cards, trump_card))

    @staticmethod
    def check_trump_card(deck: Sequence[int] | Sequence[str], trump_card: str,
                         where: str = "trump_card") -> int:
        """GT-4: the card index of the shown trump card, which must be a card of the stock of
        ``deck`` (card indexes or codes, top first); RecordError naming ``where`` if not.

        >>> deck = PACK.full_deck()
        >>> GoatDealing.check_trump_card(deck, "AC")
        35
        >>> GoatDealing.check_trump_card(deck, "6S")
        Traceback (most recent call last):
        taash.games.base.RecordError: trump_card: 6S is not in the stock (deck[16:36])
        """
        try:
            tc = PACK.index(trump_card)
        except ValueError as e:
            raise RecordError(f"{where}: {e}") from None
        stock = deck[STOCK.start:STOCK.stop]
        if (CODES[tc] if stock and isinstance(stock[0], str) else tc) not in stock:
            raise RecordError(f"{where}: {trump_card} is not in the stock "
                              f"(deck[{STOCK.start}:{STOCK.stop}])")
        return tc

    def deal_slots(self) -> DealSlots:
        """GT-3, GT-4: ``deck[i]`` to seat ``dealer + 1 + i`` for the first 16, then the
        stock; the trump card's position once the game is dealt.  Between games: the next."""
        playing = self.phase == PLAY
        d = self.dealer if playing else self.next_dealer
        return DealSlots(tuple(Packet((d + 1 + i) % 4, i, i + 1) for i in range(DEALT)),
                         stock=tuple(STOCK), hand_size=4,
                         trump_card=self.deck.index(self.trump_card) if playing else None)

    def _start(self, cards: list[int], tc: int) -> None:
        if self.phase != WAIT:
            raise RecordError("a game is already in progress" if self.phase != OVER
                              else "the match is over")
        self.deck = cards
        self.trump_card = tc
        self.trump = SUIT_OF[tc]
        d = self.dealer = self.next_dealer
        hands = self.hands = [0, 0, 0, 0]  # deck[i] to seat d + 1 + i (GT-3)
        for i in range(4):
            hands[(d + 1 + i) % 4] = 1 << cards[i] | 1 << cards[i + 4] | 1 << cards[i + 8] | \
                1 << cards[i + 12]
        self.stock_pos = DEALT
        leader = (d + 1) % 4 if self.next_leader < 0 else self.next_leader  # GT-5
        self.game_leader = leader
        self.taken = [0, 0]
        self.tricks = [0, 0]
        self.last_trick = None
        self._log = []
        self.phase = PLAY
        self._new_trick(leader)

    def _new_trick(self, leader: int) -> None:
        self.first_leader = self.lead_seat = self.to_move = leader
        self.k = 0
        self.plays = []
        self.top = 0
        self.top_seat = -1
        self.molodka_done = False
        self.played = 0
        # seats holding a molodka (GT-8) as the trick starts: a hand only loses cards until
        # the trick ends (a molodka's return ends every other molodka), so this holds for it
        h0, h1, h2, h3 = self.hands
        mols = MOLODKA_HANDS
        if h0 in mols or h1 in mols or h2 in mols or h3 in mols:
            self._molodkas = (h0 in mols) | (h1 in mols) << 1 | (h2 in mols) << 2 | \
                (h3 in mols) << 3
        else:
            self._molodkas = 0

    def clone(self, keep_rng: bool = False) -> Self:
        """A cheap independent copy.  Without ``keep_rng`` the clone has no rng and stops at
        the game's end (what search wants); with it, it deals on exactly as this match would."""
        new = object.__new__(type(self))
        for name in GoatDealing.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = _copy_rng(self.rng) if keep_rng else None
        new.hands = self.hands[:]
        new.plays = self.plays[:]
        new.taken = self.taken[:]
        new.tricks = self.tricks[:]
        new.defeat = self.defeat[:]
        new._log = self._log[:]
        return new
