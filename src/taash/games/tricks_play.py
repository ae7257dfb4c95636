"""Trick play shared by both Court Piece games, its state and fast path: dealing, the trump
call, following suit and deciding a trick (CP-3..CP-5, TW-3, TW-4).  The games supply the deal
layout, the legal trump calls, what a won trick counts for and how a deal is scored (the hooks);
nothing here is copied between them.  Text, events, views and records: ``tricks.TrickMatch``.

Action ids: ``0..51`` play that card, ``52 + s`` call suit ``s`` (S H D C) trump.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar, Self

from taash.cards import SUITS, Pack, card_list
from taash.games.base import DealSlots, Json, MatchBase, Outcome, Packet, RecordError, check_deck
from taash.games.types import CourtPhase

PACK = Pack("23456789TJQKA")
TRUMP_BASE = 52
SUIT_OF = PACK.suit_of
RANK_OF = PACK.rank_of
SUIT_MASK = PACK.suit_masks
ACE = frozenset(12 + 13 * s for s in range(4))
CODES = tuple(PACK.code(c) for c in range(52))
ACTION_TEXT = tuple("play:" + c for c in CODES) + tuple("trump:" + s for s in SUITS)

CALL, PLAY, WAIT, OVER = 0, 1, 2, 3
PHASE_NAMES: tuple[CourtPhase, ...] = ("trump", "play", "waiting", "over")


def suit_counts(mask: int) -> list[int]:
    return [(mask & SUIT_MASK[s]).bit_count() for s in range(4)]


def most_held(mask: int) -> list[int]:
    """The suits of which ``mask`` holds the most (all tied suits)."""
    counts = suit_counts(mask)
    top = max(counts)
    return [s for s in range(4) if counts[s] == top]


def beats(card: int, best: int, trump: int) -> bool:
    """CP-5, TW-4: whether ``card`` takes the trick from ``best``, the card winning it so far
    (a higher card of its suit, or a trump over a card that is not one).  The one comparison
    ``trick_winner``, the solver and the bots make; ``apply_id`` keeps it inline for speed and
    the core's tests hold the two together.

    >>> T = PACK.index
    >>> beats(T("AH"), T("KH"), 0), beats(T("2S"), T("AH"), 0), beats(T("AD"), T("2H"), 0)
    (True, True, False)
    """
    sc, sb = SUIT_OF[card], SUIT_OF[best]
    return (sc == sb and card > best) or (sc == trump and sb != trump)


def playable(hand: int, trick: Sequence[int]) -> int:
    """CP-5, TW-4: the cards of ``hand`` (a mask) that may be played to ``trick`` (the cards
    played to it so far): those of the led suit if it holds any, else all of them.

    >>> T = PACK.index
    >>> h = 1 << T("2H") | 1 << T("AS")
    >>> playable(h, [T("KH")]) == 1 << T("2H"), playable(h, [T("KD")]) == h, playable(h, []) == h
    (True, True, True)
    """
    if trick:
        follow = hand & SUIT_MASK[SUIT_OF[trick[0]]]
        if follow:
            return follow
    return hand


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """CP-5, TW-4: the index in ``cards`` (a trick so far, in playing order) of the card
    winning it: the highest trump, else the highest card of the led suit.  (``apply_id`` keeps
    the same comparison inline, card by card, for speed.)

    >>> T = PACK.index
    >>> trick_winner([T("9H"), T("KH"), T("2S"), T("AH")], 0)  # spades trump
    2
    """
    bi = 0
    b = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if beats(c, b, trump):
            bi, b = i, c
    return bi


class TrickPlay(MatchBase):
    """A Court Piece match's state and fast path; ``TrickMatch`` adds text, views and
    records, and each game the rules that differ (the hooks).

    Search may read these attributes directly on its fast path (never write them): ``hands``
    (card masks per seat), ``trick`` (cards of the current trick, from ``leader``), ``leader``,
    ``to_move``, ``trump`` (-1 before the call), ``won`` (tricks per side), ``pile``,
    ``chain``, ``tricks_played``, ``dealer``, ``caller``, ``phase``.
    """

    game_id: ClassVar[str] = ""
    num_seats: ClassVar[int] = 4
    first_seat_key: ClassVar[str] = "first_dealer"
    win_target: ClassVar[int] = 7
    play_rule: ClassVar[str] = "CP-5"
    call_rule: ClassVar[str] = "CP-4"

    __slots__ = (
        "options", "rng", "first_seat", "phase", "dealer", "caller", "hands", "trump",
        "to_move", "leader", "trick", "best", "best_seat", "tricks_played", "won", "pile",
        "chain", "deck", "last_trick", "final_trick", "_log", "_past", "_results",
    )

    def __init__(self, options: dict[str, Json], first_seat: int,
                 rng: random.Random | None = None) -> None:
        self.options = options
        self.rng = rng
        self.first_seat = first_seat
        self.phase = WAIT
        self._past: tuple[tuple[list[int], tuple[tuple[int, int], ...]], ...] = ()
        self._results: tuple[Mapping[str, Json], ...] = ()  # each deal's summary
        self._log: list[tuple[int, int]] = []
        self.deck: list[int] = []
        self.hands = [0] * self.num_seats
        self.trump = -1
        self.trick: list[int] = []
        self.last_trick: tuple[int, list[int], int] | None = None
        self.final_trick: tuple[int, list[int], int] | None = None  # of the last deal played
        self.to_move = self.leader = self.best = self.best_seat = -1
        self.dealer = self.caller = -1
        self.tricks_played = self.pile = 0
        self.chain = -1
        self.won = [0, 0]
        self._init_match()
        if rng is not None:
            self.deal_from(rng)

    # -- hooks -------------------------------------------------------------------------------
    def _init_match(self) -> None:
        raise NotImplementedError

    def _roles(self) -> tuple[int, int]:
        """(dealer, caller) of the deal about to be dealt."""
        raise NotImplementedError

    def _packets(self, caller: int) -> list[tuple[int, int, int]]:
        """(seat, start, stop) slices of the deck dealt after the trump call."""
        raise NotImplementedError

    def _first_packets(self, caller: int) -> list[tuple[int, int, int]]:
        """(seat, start, stop) slices of the deck dealt before the trump call."""
        raise NotImplementedError

    def _out_of_play(self) -> tuple[int, ...]:
        """Deck positions dealt to no one."""
        return ()

    def outcome(self) -> Outcome | None:
        """How the match ended; None while it goes on."""
        raise NotImplementedError

    def _trump_ids(self) -> list[int]:
        return [TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3]

    def _check_trump(self, suit: int) -> None:
        """Raise IllegalAction if the caller may not call ``suit``."""

    def _trick_won(self, winner: int, card: int) -> bool:
        """Count a finished trick; True when the deal is decided."""
        raise NotImplementedError

    def _finish_deal(self, side: int) -> Mapping[str, Json]:
        """Score a decided deal for ``side``, set the next roles and the match state; returns
        the deal's summary fields."""
        raise NotImplementedError

    def match_summary(self) -> Mapping[str, Json]:
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    @classmethod
    def pack(cls) -> Pack:
        return PACK

    def over_rule(self) -> str:
        return self._over_rule()

    def _over_rule(self) -> str:
        return "CP-11"

    # -- dealing -----------------------------------------------------------------------------
    def needs_deal(self) -> bool:
        return self.phase == WAIT

    def deal_from(self, rng: random.Random) -> None:
        """Deal the next deal from a deck shuffled uniformly with ``rng``."""
        cards = list(range(52))
        rng.shuffle(cards)
        self._start(cards)

    def deal(self, deck: Sequence[str], trump_card: str | None = None) -> None:
        """Start the next deal from a deck order (top card first)."""
        self._start(check_deck(PACK, list(deck)))

    def deal_slots(self) -> DealSlots:
        """Which deck positions go to which seat (CP-3, TW-3), for the deal in progress or,
        between deals, the next one."""
        caller = self.caller if self.phase in (CALL, PLAY) else self._roles()[1]
        first = self._first_packets(caller)
        return DealSlots(tuple(Packet(*p) for p in first + self._packets(caller)),
                         hand_size=13, before_call=len(first), out_of_play=self._out_of_play())

    def _start(self, cards: list[int]) -> None:
        if self.phase != WAIT:
            raise RecordError("a deal is already in progress" if self.phase != OVER
                              else "the match is over")
        self.deck = cards
        self.dealer, self.caller = self._roles()
        self.hands = [0] * self.num_seats
        for seat, a, b in self._first_packets(self.caller):
            for c in cards[a:b]:
                self.hands[seat] |= 1 << c
        self.trump = -1
        self.trick = []
        self.last_trick = None
        self.tricks_played = self.pile = 0
        self.chain = -1
        self.won = [0, 0]
        self.phase = CALL
        self.to_move = self.leader = self.caller
        self._log = []

    # -- the fast path -----------------------------------------------------------------------
    def actors(self) -> list[int]:
        return [self.to_move] if self.phase < WAIT else []

    def legal_ids(self, seat: int) -> list[int]:
        if seat != self.to_move:
            return []
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[seat]
            if self.trick:
                follow = hand & SUIT_MASK[SUIT_OF[self.trick[0]]]
                if follow:
                    hand = follow
            return card_list(hand)
        if phase == CALL:
            return self._trump_ids()
        return []

    def apply_id(self, seat: int, a: int) -> None:
        """Apply an action id from ``legal_ids(seat)``; unchecked, for bots and simulation."""
        self._log.append((seat, a))
        if a >= TRUMP_BASE:
            self.trump = a - TRUMP_BASE
            for s, lo, hi in self._packets(self.caller):
                for c in self.deck[lo:hi]:
                    self.hands[s] |= 1 << c
            self.phase = PLAY
            return
        self.hands[seat] ^= 1 << a
        trick = self.trick
        trick.append(a)
        if len(trick) == 1:
            self.best = a
            self.best_seat = seat
        else:
            best = self.best
            sa = SUIT_OF[a]
            sb = SUIT_OF[best]
            if (sa == sb and a > best) or (sa == self.trump and sb != self.trump):
                self.best = a
                self.best_seat = seat
        if len(trick) < self.num_seats:
            self.to_move = (seat + 1) % self.num_seats
            return
        winner = self.best_seat
        self.last_trick = (self.leader, trick, winner)
        self.trick = []
        self.tricks_played += 1
        self.to_move = self.leader = winner
        if self._trick_won(winner, self.best):
            self._end_deal()

    def _end_deal(self) -> None:
        self.final_trick = self.last_trick
        side = 0 if self.won[0] >= self.win_target else 1
        fields = self._finish_deal(side)
        self._results = self._results + (fields,)
        self._past = self._past + ((self.deck, tuple(self._log)),)
        self._log = []
        self.to_move = -1
        self.phase = OVER if self.is_over() else WAIT
        if self.phase == WAIT and self.rng is not None:
            self.deal_from(self.rng)

    def turn(self) -> int | None:
        """The seat whose turn it is, or None between deals and after the match."""
        return self.to_move if self.phase < WAIT else None

    def clone(self, keep_rng: bool = False) -> Self:
        """A cheap independent copy.  Without ``keep_rng`` the clone has no rng and stops at
        the deal's end (what search wants); with it, it deals on exactly as this match would."""
        new = object.__new__(type(self))
        for name in TrickPlay.__slots__:
            setattr(new, name, getattr(self, name))
        for name in type(self).__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = None
        if keep_rng and self.rng is not None:
            new.rng = random.Random()
            new.rng.setstate(self.rng.getstate())
        new.hands = self.hands[:]
        new.trick = self.trick[:]
        new.won = self.won[:]
        new._log = self._log[:]
        new._copy_match_fields(self)
        return new

    def _copy_match_fields(self, other: TrickPlay) -> None:
        """Copy mutable match-level fields of a subclass."""
