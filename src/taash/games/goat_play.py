"""Goat's fast path (RULES.md GT-7..GT-12): who may act (the molodka out of turn), legal
action ids, applying them, drawing back to four, the end of a game and of the match.  The
state and its dealing (GT-2..GT-5) are ``taash.games.goat_deal.GoatDealing``'s; text, events,
views and records are ``taash.games.goat.Goat``'s.
"""

from __future__ import annotations

from typing import ClassVar

from taash.cards import SUITS
from taash.games.base import (
    Check,
    Json,
    Outcome,
)
from taash.games.goat_deal import GoatDealing
from taash.games.goat_rules import (
    BEAT,
    BEAT_ID,
    BEATEN,
    BEATERS,
    BOUNDS,
    CARDS,
    CHECKS,
    CODES,
    DEFAULTS,
    LEAD_T,
    MOLODKA,
    MOLODKA_HANDS,
    OPTIONS,
    OVER,
    PASS,
    PASS_BEAT_T,
    PASS_ID,
    PASS_T,
    PLAY,
    SHIFT,
    WAIT,
    _answers,
    _pair,
    defeat_points,
    is_molodka,
    points,
)
from taash.games.options import Option

LEAD_T0, LEAD_T1, LEAD_T2, LEAD_T3 = LEAD_T
PASS_T0, PASS_T1, PASS_T2, PASS_T3 = PASS_T
PASS_BEAT_T0, PASS_BEAT_T1, PASS_BEAT_T2, PASS_BEAT_T3 = PASS_BEAT_T


class GoatPlay(GoatDealing):
    """A Goat match's fast path: who may act, ``legal_ids`` and ``apply_id``, drawing and the
    end of each game (``GoatDealing`` holds the state and deals; ``Goat`` adds text, views
    and records).

    Search may read these attributes directly on its fast path (never write them): ``hands``,
    ``plays`` (seat, verb, card mask of the current trick), ``top``/``top_seat`` (the cards on
    top), ``k``, ``to_move``, ``first_leader``, ``trump``, ``trump_card``, ``taken`` (cards per
    team), ``tricks``, ``deck`` and ``stock_pos`` (the stock is ``deck[stock_pos:]``: hidden
    information, which only a determinized sample may read), ``molodka_done``, ``phase``.
    """

    game_id: ClassVar[str] = "goat"
    name: ClassVar[str] = "Goat"
    text_name: ClassVar[str] = "Goat"
    num_seats: ClassVar[int] = 4
    first_seat_key: ClassVar[str] = "first_dealer"
    seat_word: ClassVar[str] = "dealer"
    shows_trump_card: ClassVar[bool] = True
    plays_card_sets: ClassVar[bool] = True
    deal_unit: ClassVar[str] = "points"
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    DEFAULTS: ClassVar[dict[str, Json]] = DEFAULTS
    CHECKS: ClassVar[dict[str, Check]] = CHECKS
    BOUNDS: ClassVar[dict[str, Check]] = BOUNDS

    __slots__ = ()

    # -- who may act -------------------------------------------------------------------------
    def can_molodka(self, seat: int) -> bool:
        """GT-8: may ``seat`` play a molodka now?"""
        if not self._molodkas >> seat & 1 or self.molodka_done or self.played >> seat & 1 \
                or self.phase != PLAY:
            return False
        if seat == self.to_move and not self.plays:
            return False  # the leader of an empty trick leads it with lead:
        return is_molodka(self.hands[seat])

    def actors(self) -> list[int]:
        """Seats that may act now, in GT-8 order: from the trick's first leader onwards."""
        mol = self._molodkas
        if mol and mol & ~self.played and not self.molodka_done and self.phase == PLAY:
            out = []
            for i in range(4):
                s = (self.first_leader + i) % 4
                if s == self.to_move or self.can_molodka(s):
                    out.append(s)
            return out
        return [self.to_move] if self.phase == PLAY else []

    def legal_ids(self, seat: int) -> list[int]:
        # the ids of a hand come suit by suit from per-suit tables (goat_rules): the same
        # ids, in the same order, as enumerating its cards and subsets one by one
        if seat == self.to_move and self.phase == PLAY:
            hand = self.hands[seat]
            k = self.k  # 0 until the trick is led
            if k == 1:  # one card: a pass of each card, and a beat of each that beats the top
                # card; in each suit the cards that do not beat it are below those that do
                b = hand & BEATERS[self.trump][self.top.bit_length() - 1]
                if b:
                    p = hand ^ b
                    out = [*PASS_T0[p & 511], *PASS_BEAT_T0[b & 511],
                           *PASS_T1[p >> 9 & 511], *PASS_BEAT_T1[b >> 9 & 511],
                           *PASS_T2[p >> 18 & 511], *PASS_BEAT_T2[b >> 18 & 511],
                           *PASS_T3[p >> 27], *PASS_BEAT_T3[b >> 27]]
                else:
                    out = [*PASS_T0[hand & 511], *PASS_T1[hand >> 9 & 511],
                           *PASS_T2[hand >> 18 & 511], *PASS_T3[hand >> 27]]
            elif not k:
                out = [*LEAD_T0[hand & 511], *LEAD_T1[hand >> 9 & 511],
                       *LEAD_T2[hand >> 18 & 511], *LEAD_T3[hand >> 27]]
            elif k == 2:  # two cards beat two when each beats one of them
                top = self.top
                lo = top & -top
                by_card = BEATERS[self.trump]
                b_lo = hand & by_card[lo.bit_length() - 1]
                b_hi = hand & by_card[(top ^ lo).bit_length() - 1]
                subs = _answers(hand, 2)
                if not b_lo or not b_hi:  # no card beats one of them: passes only
                    out = [PASS_ID | sub for sub in subs]
                else:
                    out = []
                    for sub in subs:
                        out.append(PASS_ID | sub)
                        x = sub & -sub
                        y = sub ^ x
                        if (x & b_lo and y & b_hi) or (x & b_hi and y & b_lo):
                            out.append(BEAT_ID | sub)
            else:
                out = []
                top, beaten = self.top, BEATEN[self.trump]
                for sub in _answers(hand, k):
                    out.append(PASS_ID | sub)
                    if _pair(sub, top, beaten):
                        out.append(BEAT_ID | sub)
            mol = self._molodkas
            if mol and mol >> seat & 1 and self.can_molodka(seat):
                out.append(MOLODKA << SHIFT | hand)
            return out
        if self._molodkas >> seat & 1 and self.can_molodka(seat):
            return [MOLODKA << SHIFT | self.hands[seat]]
        return []

    # -- the fast path -----------------------------------------------------------------------
    def apply_id(self, seat: int, a: int) -> None:
        """Apply an action id from ``legal_ids(seat)``; unchecked."""
        self._log.append((seat, a))
        verb = a >> SHIFT
        cards = a & CARDS
        hands = self.hands
        if verb == MOLODKA:
            for s, _, m in self.plays:  # GT-8: the trick's cards go back to their owners
                hands[s] |= m
            self.plays = []
            self.played = 0
            self.lead_seat = seat
            self.molodka_done = True
        hands[seat] ^= cards  # the cards of an id from legal_ids(seat) are in the hand
        plays = self.plays
        plays.append((seat, verb, cards))
        self.played |= 1 << seat
        if verb != PASS:
            if verb != BEAT:  # a lead or a molodka
                k = self.k = cards.bit_count()
                if k == 4:
                    self.molodka_done = True
            self.top = cards
            self.top_seat = seat
        if len(plays) < 4:
            self.to_move = (seat + 1) & 3
            return
        # GT-7, GT-9: the trick is won by the cards on top; the winner leads the next trick
        # after everyone draws one card at a time from the winner on
        w = self.top_seat
        team = w & 1
        p0, p1, p2, p3 = plays
        self.taken[team] |= p0[2] | p1[2] | p2[2] | p3[2]
        self.tricks[team] += 1
        self.last_trick = (w, plays)
        pos = self.stock_pos
        if pos < 36:
            need = 4 - hands[w].bit_count()
            if need:
                deck = self.deck
                n = 36 - pos if 4 * need > 36 - pos else 4 * need
                if n == 4:
                    hands[w] |= 1 << deck[pos]
                    hands[(w + 1) & 3] |= 1 << deck[pos + 1]
                    hands[(w + 2) & 3] |= 1 << deck[pos + 2]
                    hands[(w + 3) & 3] |= 1 << deck[pos + 3]
                else:
                    for i in range(n):
                        hands[(w + i) & 3] |= 1 << deck[pos + i]
                pos = self.stock_pos = pos + n
        # the next trick (_new_trick, inline)
        self.first_leader = self.lead_seat = self.to_move = w
        self.k = self.top = self.played = 0
        self.plays = []
        self.top_seat = -1
        self.molodka_done = False
        h0, h1, h2, h3 = hands
        mols = MOLODKA_HANDS
        if h0 in mols or h1 in mols or h2 in mols or h3 in mols:
            self._molodkas = (h0 in mols) | (h1 in mols) << 1 | (h2 in mols) << 2 | \
                (h3 in mols) << 3
        else:
            self._molodkas = 0
            if pos >= 36 and not (h0 or h1 or h2 or h3):
                self._end_game(w)

    def _end_game(self, last_winner: int) -> None:
        pts = [points(self.taken[0]), points(self.taken[1])]
        eggs = pts[0] == pts[1] == 60
        doubled = self.options["eggs"] == "double-next" and self.prev_eggs
        defeat = defeat_points(pts, self.tricks, doubled)
        self.prev_eggs = eggs
        for t in (0, 1):
            self.defeat[t] += defeat[t]
        target = self.options["target"]
        for t in (0, 1):
            if self.defeat[t] >= target:
                self._over, self._loser = True, t
        self._results = self._results + ({
            "dealer": self.dealer, "trump": SUITS[self.trump], "complete": True,
            "trump_card": CODES[self.trump_card], "leader": self.game_leader,
            "points": pts, "eggs": eggs, "defeat": defeat},)
        self._past = self._past + ((self.deck, self.trump_card, tuple(self._log)),)
        self._log = []
        self.next_dealer = (self.dealer + 1) % 4  # GT-2
        self.next_leader = last_winner  # GT-5
        self.to_move = -1
        self.phase = OVER if self._over else WAIT
        if self.phase == WAIT and self.rng is not None:
            self.deal_from(self.rng)

    def turn(self) -> int | None:
        """The seat whose turn it is (not counting optional out-of-turn molodkas)."""
        return self.to_move if self.phase == PLAY else None

    def is_over(self) -> bool:
        return self._over

    def outcome(self) -> Outcome | None:
        """GT-12: the team that is not the goat wins."""
        return Outcome(1 - self._loser, False, "GT-12") if self._loser is not None else None
