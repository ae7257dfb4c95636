"""Goat, or Kozel (RULES.md GT-1..GT-12): 36 cards, multi-card tricks beaten or passed face
down, the molodka out of turn, drawing back to four, defeat points, eggs and the goat.

Action ids are ``verb << 36 | cards`` (a card bitmask); text is ``verb:card,card``.

>>> m = Goat.new_match(seed=5, first_dealer=0)
>>> m.actors()[0], m.view(1)["hand_counts"], m.view(1)["stock"]
(1, [4, 4, 4, 4], 20)
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from taash.cards import SUIT_NAMES, SUITS, CardError, Pack, bits, parse_card
from taash.games.base import (
    Check,
    DealSlots,
    IllegalAction,
    Json,
    MatchBase,
    Outcome,
    Packet,
    RecordError,
    cards_mask,
    check_deck,
    one_of,
    parse_action,
    positive_int,
)

PACK = Pack("6789JQKTA")
CODES = tuple(PACK.code(c) for c in range(36))
POINTS = tuple((0, 0, 0, 0, 2, 3, 4, 10, 11)[c % 9] for c in range(36))
SUIT_OF = PACK.suit_of
RANK_OF = PACK.rank_of
SUIT_MASK = PACK.suit_masks
LEAD, BEAT, PASS, MOLODKA = 1, 2, 3, 4
VERBS = ("", "lead", "beat", "pass", "molodka")
SHIFT = 36
CARDS = (1 << SHIFT) - 1
PLAY, WAIT, OVER = 1, 2, 3
PHASE_NAMES = ("", "play", "waiting", "over")
DEALT = 16  # GT-3: deck[0:16] is dealt one card at a time ...
STOCK = range(DEALT, 36)  # ... and deck[16:36] is the stock, drawn from deck[16] on

DEFAULTS: dict[str, Any] = {"eggs": "none", "target": 12}
CHECKS: dict[str, Check] = {"eggs": one_of("none", "double-next"), "target": positive_int}


def points(mask: int) -> int:
    return sum(POINTS[c] for c in bits(mask))


def beats(x: int, y: int, trump: int) -> bool:
    """GT-6: x beats y (same suit and higher, or x trump and y not)."""
    sx, sy = SUIT_OF[x], SUIT_OF[y]
    return (sx == sy and x > y) or (sx == trump and sy != trump)


# BEATEN[trump][x]: the set of cards that card x beats when ``trump`` is trump (GT-6).
BEATEN = tuple(tuple(sum(1 << y for y in range(36) if beats(x, y, t)) for x in range(36))
               for t in range(4))


def beats_all(new: int, top: int, trump: int) -> bool:
    """GT-7: a one-to-one pairing exists in which every new card beats its partner.

    >>> T = PACK.mask
    >>> beats_all(T(["8S", "6H"]), T(["TS", "6S"]), 1)  # trump H: 8S on 6S, 6H on TS
    True
    >>> beats_all(T(["QD", "JD"]), T(["AD", "9D"]), 2)  # both beat 9D, neither AD
    False
    """
    if new.bit_count() != top.bit_count():
        return False
    return _pair(new, top, BEATEN[trump])


def _pair(new: int, top: int, beaten: tuple[int, ...]) -> bool:
    if not new:
        return True
    low = new & -new
    options = beaten[low.bit_length() - 1] & top
    rest = new ^ low
    while options:
        y = options & -options
        if _pair(rest, top ^ y, beaten):
            return True
        options ^= y
    return False


# SUBSETS[n][k]: for a hand of n cards, the k-card subsets as lists of positions in the hand.
SUBSETS = tuple(tuple(tuple([i for i in range(n) if m >> i & 1] for m in range(1, 1 << n)
                            if m.bit_count() == k) for k in range(n + 1)) for n in range(5))


def _cards(hand: int) -> list[int]:
    out = []
    while hand:
        low = hand & -hand
        out.append(low)
        hand ^= low
    return out


def _answers(hand: int, k: int) -> list[int]:
    """The k-card subsets of a hand of at most four cards."""
    cards = _cards(hand)
    return [sum(cards[i] for i in pos) for pos in SUBSETS[len(cards)][k]]


def _leads(hand: int) -> list[int]:
    """Lead ids of a hand: every non-empty one-suit subset."""
    out: list[int] = []
    for sm in SUIT_MASK:
        part = hand & sm
        if part:
            cards = _cards(part)
            n = len(cards)
            for k in range(1, n + 1):
                out.extend(LEAD << SHIFT | sum(cards[i] for i in pos) for pos in SUBSETS[n][k])
    return out


def is_molodka(mask: int) -> bool:
    """Four cards, all of one suit."""
    return mask.bit_count() == 4 and mask & SUIT_MASK[SUIT_OF[(mask & -mask).bit_length() - 1]] \
        == mask


def defeat_points(points: tuple[int, int] | list[int], tricks: tuple[int, int] | list[int],
                  doubled: bool = False) -> list[int]:
    """GT-11: the defeat points each team takes for a game.

    >>> defeat_points([61, 59], [5, 4]), defeat_points([90, 30], [7, 1])
    ([0, 2], [0, 4])
    >>> defeat_points([120, 0], [9, 0])
    [0, 6]
    >>> defeat_points([60, 60], [4, 5]), defeat_points([31, 89], [2, 6], doubled=True)
    ([0, 0], [4, 0])
    """
    out = [0, 0]
    if points[0] == points[1] == 60:
        return out  # eggs
    loser = 0 if points[0] < 61 else 1
    p = points[loser]
    d = 2 if p >= 31 else (4 if tricks[loser] else 6)
    out[loser] = d * 2 if doubled else d
    return out


def _copy_rng(rng: random.Random | None) -> random.Random | None:
    if rng is None:
        return None
    new = random.Random()
    new.setstate(rng.getstate())
    return new


def action_text(a: int) -> str:
    return VERBS[a >> SHIFT] + ":" + PACK.join(a & CARDS)


def trick_winner(plays: Sequence[tuple[int, int, int]]) -> int:
    """GT-7: the seat whose cards are on top of a trick so far (``(seat, verb, cards)`` plays
    in order): the last to beat, else the leader.

    >>> trick_winner([(1, LEAD, 1), (2, BEAT, 2), (3, PASS, 4)])
    2
    """
    for seat, verb, _ in reversed(plays):
        if verb != PASS:
            return seat
    raise ValueError("an empty trick has no winner")


def plays_for(plays: Sequence[tuple[int, int, int]], seat: int | None) -> list[dict[str, Any]]:
    """Plays of a trick as ``seat`` may see them (None: a spectator): every play's seat, verb
    and card count, and its cards unless it is a face-down pass by someone else (Who sees
    what)."""
    out = []
    for s, verb, m in plays:
        p: dict[str, Any] = {"seat": s, "verb": VERBS[verb], "count": m.bit_count()}
        if verb != PASS or s == seat:
            p["cards"] = PACK.codes(m)
        out.append(p)
    return out


def _record_action(seat: int, a: int, hide: bool) -> dict[str, Any]:
    if hide and a >> SHIFT == PASS:  # a face-down pass, as a record of a hidden deal shows it
        return {"seat": seat, "action": "pass", "count": (a & CARDS).bit_count()}
    return {"seat": seat, "action": action_text(a)}


class Goat(MatchBase):
    """A whole Goat match: games until a team has ``target`` defeat points.

    Search may read these attributes directly on its fast path (never write them): ``hands``,
    ``plays`` (seat, verb, card mask of the current trick), ``top``/``top_seat`` (the cards on
    top), ``k``, ``to_move``, ``first_leader``, ``trump``, ``trump_card``, ``taken`` (cards per
    team), ``tricks``, ``deck`` and ``stock_pos`` (the stock is ``deck[stock_pos:]``: hidden
    information, which only a determinized sample may read), ``molodka_done``, ``phase``.
    """

    game_id: ClassVar[str] = "goat"
    num_seats: ClassVar[int] = 4
    first_seat_key: ClassVar[str] = "first_dealer"
    seat_word: ClassVar[str] = "dealer"
    DEFAULTS: ClassVar[dict[str, Json]] = DEFAULTS
    CHECKS: ClassVar[dict[str, Check]] = CHECKS

    __slots__ = (
        "options", "rng", "first_seat", "phase", "dealer", "deck", "trump", "trump_card",
        "hands", "stock_pos", "first_leader", "game_leader", "lead_seat", "k", "plays", "top",
        "top_seat", "molodka_done", "played", "to_move", "taken", "tricks", "last_trick",
        "next_dealer", "next_leader", "defeat", "prev_eggs", "_over", "_loser", "_log", "_past",
        "_results",
    )

    def __init__(self, options: dict[str, Any], first_dealer: int,
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
        self._results: tuple[dict[str, Any], ...] = ()
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
        cards = list(range(36))
        rng.shuffle(cards)
        self._start(cards, rng.choice(cards[DEALT:]))

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
        >>> Goat.check_trump_card(deck, "AC")
        35
        >>> Goat.check_trump_card(deck, "6S")
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
        self.hands = [0, 0, 0, 0]
        for i in range(DEALT):
            self.hands[(d + 1 + i) % 4] |= 1 << cards[i]
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

    # -- who may act -------------------------------------------------------------------------
    def can_molodka(self, seat: int) -> bool:
        """GT-8: may ``seat`` play a molodka now?"""
        if self.phase != PLAY or self.molodka_done or self.played >> seat & 1:
            return False
        if seat == self.to_move and not self.plays:
            return False  # the leader of an empty trick leads it with lead:
        return is_molodka(self.hands[seat])

    def actors(self) -> list[int]:
        """Seats that may act now, in GT-8 order: from the trick's first leader onwards."""
        if self.phase != PLAY:
            return []
        if self.molodka_done:
            return [self.to_move]
        out = []
        hands = self.hands
        for i in range(4):
            s = (self.first_leader + i) % 4
            if s == self.to_move or (hands[s].bit_count() == 4 and self.can_molodka(s)):
                out.append(s)
        return out

    def legal_ids(self, seat: int) -> list[int]:
        if self.phase != PLAY:
            return []
        out: list[int] = []
        if seat == self.to_move:
            hand = self.hands[seat]
            if not self.plays:
                out.extend(_leads(hand))
            else:
                top, beaten = self.top, BEATEN[self.trump]
                for sub in _answers(hand, self.k):
                    out.append(PASS << SHIFT | sub)
                    if _pair(sub, top, beaten):
                        out.append(BEAT << SHIFT | sub)
        if self.can_molodka(seat):
            out.append(MOLODKA << SHIFT | self.hands[seat])
        return out

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
        hands[seat] &= ~cards
        self.plays.append((seat, verb, cards))
        self.played |= 1 << seat
        if verb == LEAD or verb == MOLODKA:
            self.k = cards.bit_count()
            if self.k == 4:
                self.molodka_done = True
            self.top, self.top_seat = cards, seat
        elif verb == BEAT:
            self.top, self.top_seat = cards, seat
        if len(self.plays) < 4:
            self.to_move = (seat + 1) % 4
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        w = self.top_seat
        team = w & 1
        for _, _, m in self.plays:
            self.taken[team] |= m
        self.tricks[team] += 1
        self.last_trick = (w, self.plays)
        hands, deck = self.hands, self.deck
        need = 4 - hands[w].bit_count()  # GT-9: draw one at a time from the winner on
        for _ in range(need):
            for i in range(4):
                if self.stock_pos < 36:
                    hands[(w + i) % 4] |= 1 << deck[self.stock_pos]
                    self.stock_pos += 1
        self._new_trick(w)
        if self.stock_pos >= 36 and not any(hands):
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

    def clone(self, keep_rng: bool = False) -> Goat:
        """A cheap independent copy.  Without ``keep_rng`` the clone has no rng and stops at
        the game's end (what search wants); with it, it deals on exactly as this match would."""
        new = object.__new__(Goat)
        for name in Goat.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = _copy_rng(self.rng) if keep_rng else None
        new.hands = self.hands[:]
        new.plays = self.plays[:]
        new.taken = self.taken[:]
        new.tricks = self.tricks[:]
        new.defeat = self.defeat[:]
        new._log = self._log[:]
        return new

    # -- text at the edges -------------------------------------------------------------------
    def action_text(self, a: int) -> str:
        return action_text(a)

    def action_id(self, seat: int, action: str) -> int:
        p = parse_action(action)
        if self.phase == OVER:
            raise IllegalAction("GT-12", "the match is over", "match_over")
        if self.phase == WAIT:
            raise IllegalAction("GT-10", "the game is over; the next game has not begun",
                                "game_over")
        if not 0 <= seat < 4:
            raise IllegalAction("GT-7", f"there is no seat {seat}")
        verbs = {"lead": LEAD, "beat": BEAT, "pass": PASS, "molodka": MOLODKA}
        if p.verb not in verbs:
            raise IllegalAction("GT-7", f"unknown action {p.verb!r}: use lead:, beat:, pass: "
                                "or molodka: with cards")
        verb = verbs[p.verb]
        if not p.cards:
            raise IllegalAction("GT-7", f"{p.verb} needs cards, like {p.verb}:9H")
        for c in p.cards:
            if not PACK.has(c):
                raise IllegalAction("GT-1", f"{c} is not in Goat's 36-card pack")
        cards = cards_mask(PACK, p.cards, "GT-7")
        hand = self.hands[seat]
        if verb == MOLODKA:
            self._check_molodka(seat, cards)
            return MOLODKA << SHIFT | cards
        if seat != self.to_move:
            raise IllegalAction("GT-7", f"it is seat {self.to_move}'s turn, not seat {seat}'s",
                                "not_your_turn", {"seat": self.to_move})
        missing = cards & ~hand
        if missing:
            raise IllegalAction("GT-7", f"you do not hold {PACK.join(missing)}", "not_held",
                                {"cards": PACK.join(missing)})
        if verb == LEAD:
            if self.plays:
                raise IllegalAction("GT-7", f"the trick is already led: beat or pass {self.k} "
                                    f"card{'s' if self.k > 1 else ''}", "already_led",
                                    {"n": self.k})
            if len({SUIT_OF[c] for c in bits(cards)}) > 1:
                raise IllegalAction("GT-7", "a lead must be cards of one suit", "lead_one_suit")
            return LEAD << SHIFT | cards
        if not self.plays:
            raise IllegalAction("GT-7", f"you lead this trick: {p.verb} is for answering a lead",
                                "you_lead")
        n = cards.bit_count()
        if n != self.k:
            raise IllegalAction("GT-7", f"play exactly {self.k} card{'s' if self.k > 1 else ''}, "
                                f"not {n}", "play_exactly", {"n": self.k, "m": n})
        if verb == BEAT and not beats_all(cards, self.top, self.trump):
            raise IllegalAction("GT-6", f"{PACK.join(cards)} does not beat "
                                f"{PACK.join(self.top)}: each card must beat its own card on top "
                                f"(same suit and higher, or a trump on a non-trump)",
                                "does_not_beat", {"cards": PACK.join(cards),
                                                  "top": PACK.join(self.top)})
        return verb << SHIFT | cards

    def _check_molodka(self, seat: int, cards: int) -> None:
        if cards.bit_count() != 4 or not is_molodka(cards):
            raise IllegalAction("GT-8", "a molodka is four cards of one suit", "molodka_four")
        if cards & ~self.hands[seat]:
            held = cards & ~self.hands[seat]
            if self.played >> seat & 1:
                raise IllegalAction("GT-8", "cards you have put into this trick do not count",
                                    "put_in_do_not_count")
            raise IllegalAction("GT-8", "you do not hold " + PACK.join(held), "not_held",
                                {"cards": PACK.join(held)})
        if self.molodka_done:
            raise IllegalAction("GT-8", "only one molodka per trick, and this trick has one",
                                "molodka_once")
        if self.played >> seat & 1:
            raise IllegalAction("GT-8", "you have already played in this trick",
                                "already_played")
        if not self.plays and seat == self.to_move:
            raise IllegalAction("GT-8", "you lead this trick: lead your four cards with lead:",
                                "molodka_lead")

    def legal_actions(self, seat: int) -> list[str]:
        return sorted(action_text(a) for a in self.legal_ids(seat))

    def apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        """Apply a text action; returns public events (passes face down)."""
        a = self.action_id(seat, action)
        games = len(self._past)
        tricks = sum(self.tricks)
        plays = self.plays  # the trick's plays, if this action completes it
        self.apply_id(seat, a)
        verb = a >> SHIFT
        ev: dict[str, Any] = {"type": "action", "seat": seat, "verb": VERBS[verb], "deal": games}
        if verb == PASS:
            ev["count"] = (a & CARDS).bit_count()
        else:
            ev["action"] = action_text(a)
        events = [ev]
        if len(self._past) > games or sum(self.tricks) > tricks:
            events.append({"type": "trick", "winner": trick_winner(plays),
                           "leader": plays[0][0], "plays": plays_for(plays, None)})
        if len(self._past) > games:
            events.append({"type": "deal_over", "deal": games, **self._results[-1]})
            if self.phase == OVER:
                events.append({"type": "match_over", **self.match_summary()})
        return events

    # -- summaries, records, views -----------------------------------------------------------
    def is_over(self) -> bool:
        return self._over

    def outcome(self) -> Outcome | None:
        """GT-12: the team that is not the goat wins."""
        return Outcome(1 - self._loser, False, "GT-12") if self._loser is not None else None

    def match_summary(self) -> dict[str, Any]:
        return {"over": self._over, "loser": self._loser, "defeat": list(self.defeat)}

    def summary(self) -> dict[str, Any]:
        deals = list(self._results)
        if self.phase == PLAY:
            deals.append({"dealer": self.dealer, "trump": SUITS[self.trump], "complete": False,
                          "trump_card": CODES[self.trump_card], "leader": self.game_leader,
                          "points": None, "eggs": None, "defeat": None})
        return {"game": "goat", "deals": deals, "match": self.match_summary()}

    def record(self, hide_current: bool = False) -> dict[str, Any]:
        """The match's taash-record/1.  With ``hide_current`` a game still in progress appears
        without its deck, its face-down passes as counts, and ``"hidden": true``."""
        def one(deck: list[int], tc: int, log: Sequence[tuple[int, int]]) -> dict[str, Any]:
            return {"deck": [CODES[c] for c in deck], "trump_card": CODES[tc],
                    "actions": [{"seat": s, "action": action_text(a)} for s, a in log]}
        deals = [one(*p) for p in self._past]
        if self.phase == PLAY and hide_current:
            deals.append({"trump_card": CODES[self.trump_card],
                          "actions": [_record_action(s, a, True) for s, a in self._log],
                          "hidden": True})
        elif self.phase == PLAY:
            deals.append(one(self.deck, self.trump_card, self._log))
        return {"format": "taash-record/1", "game": "goat", "options": dict(self.options),
                "first_dealer": self.first_seat, "deals": deals}

    def _view(self, seat: int | None) -> dict[str, Any]:
        playing = self.phase == PLAY
        last = None
        if self.last_trick is not None and playing:
            w, plays = self.last_trick
            last = {"winner": w, "plays": plays_for(plays, seat)}
        summ = self.summary()
        return {
            "game": "goat", "options": dict(self.options), "seats": 4,
            "phase": PHASE_NAMES[self.phase], "deal_number": len(self._past),
            "dealer": self.dealer if playing else None,
            "trump": SUITS[self.trump] if playing else None,
            "trump_card": CODES[self.trump_card] if playing else None,
            "to_move": self.to_move if playing else None,
            "actors": [self.to_move] if playing else [],
            "leader": self.lead_seat if playing else None,
            "k": self.k, "molodka_played": self.molodka_done,
            "trick": plays_for(self.plays, seat) if playing else [],
            "top": PACK.codes(self.top) if playing else [],
            "top_seat": self.top_seat if playing and self.plays else None,
            "winning": self.top_seat if playing and self.plays else None,
            "last_trick": last,
            "history": plays_for([(s, a >> SHIFT, a & CARDS) for s, a in self._log], seat)
            if playing else [],
            "stock": 36 - self.stock_pos if playing else 0,
            "hand_counts": [h.bit_count() for h in self.hands] if playing else [0] * 4,
            "tricks": list(self.tricks) if playing else [0, 0],
            "teams": [[0, 2], [1, 3]],
            "deals": summ["deals"], "match": summ["match"], "over": self._over,
        }

    def public_view(self) -> dict[str, Any]:
        return self._view(None)

    def view(self, seat: int) -> dict[str, Any]:
        if not 0 <= seat < 4:
            raise ValueError(f"there is no seat {seat}")
        v = self._view(seat)
        v["seat"] = seat
        v["hand"] = PACK.codes(self.hands[seat]) if self.phase == PLAY else []
        v["legal_actions"] = self.legal_actions(seat)
        if self.can_molodka(seat) and seat != self.to_move:
            v["actors"] = sorted({self.to_move, seat})
        v["can_molodka"] = self.can_molodka(seat)
        return v


__all__ = ["Goat", "PACK", "beats", "beats_all", "points", "plays_for", "trick_winner",
           "SUIT_NAMES", "SUIT_OF", "RANK_OF", "SUIT_MASK", "SHIFT", "CARDS", "LEAD", "BEAT",
           "PASS", "MOLODKA", "VERBS", "DEALT", "STOCK", "CODES", "POINTS"]
