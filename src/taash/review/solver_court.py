"""Court Piece's part of the exact solver (``taash.review.solver``): alpha-beta on bitmasks.

The search applies and undoes cards on the hands' bitmasks (follow suit, the trick's winner,
the double-sar pile and who may collect it) because cloning a state for every node would be
far too slow; the solver's tests hold it to a plain minimax over the core's own
``legal_ids``/``apply_id`` on endgames of every variant, so a difference from the rules fails
there.  The rules' numbers come from the core: the stop at 7 is ``TrickPlay.win_target`` and
the aces are ``tricks.ACE``.
"""

from __future__ import annotations

from time import perf_counter

from taash.games.court_piece import collect_step
from taash.games.tricks import ACE
from taash.games.tricks_play import SUIT_MASK, SUIT_OF, TrickPlay, beats, playable

ACE_MASK = sum(1 << c for c in ACE)
STOP = TrickPlay.win_target  # CP-6, CP-7, TW-4: the deal ends the moment a side has 7

def squeeze(seg: int, n: int) -> int:
    """One suit of ``n`` hands (13 bits each, side by side) with the ranks no hand holds
    squeezed out: the k-th lowest card still out becomes rank k, in whichever hand holds it.

    >>> bin(squeeze(0b1010 | 0b0100 << 13, 2))  # 3 and 5 in one hand, 4 in the other
    '0b100000000000101'
    """
    hands = [seg >> (13 * i) & 0x1FFF for i in range(n)]
    held = 0
    for h in hands:
        held |= h
    out = 0
    j = 0
    for r in range(13):
        b = 1 << r
        if held & b:
            for i, h in enumerate(hands):
                if h & b:
                    out |= 1 << (j + 13 * i)
            j += 1
    return out


class Timeout(Exception):
    """The time limit or the node budget ran out (internal: caught by ``solve``)."""


#: no node budget: only the time limit stops a search
NO_LIMIT = 1 << 62


Entry = tuple[int, int, int]  # a table entry: (lower bound, upper bound, the best card found)
TABLE_CAP = 200_000  # entries kept between calls, all tables together (some 75 MB at most)
_tables: dict[tuple[object, ...], dict[tuple[object, ...], Entry]] = {}


def table(ident: tuple[object, ...]) -> dict[tuple[object, ...], Entry]:
    """The transposition table for one kind of search (seats, trump, double sar, ace rule,
    the stop at 7, the counted team), kept between calls: its entries hold for any position
    of any deal of that kind, so solving a deal's positions from the last back to the first
    reuses the later ones.  Cleared whole when the tables pass ``TABLE_CAP`` entries."""
    t = _tables.get(ident)
    if t is None or sum(len(x) for x in _tables.values()) > TABLE_CAP:
        if len(_tables) >= 8 or sum(len(x) for x in _tables.values()) > TABLE_CAP:
            _tables.clear()
        t = _tables[ident] = {}
    return t


def clear_tables() -> None:
    """Forget every position the solver has kept between calls."""
    _tables.clear()


class CourtPosition:
    """A Court Piece position on bitmasks, and what search asks of it without searching:
    whose move it is, its key in the transposition table, bounds on what the counted team
    can still get (the tricks the leader cashes at once, a last trick played out), and the
    legal cards grouped and ordered (``CourtSearch`` searches it)."""

    __slots__ = ("n", "trump", "double", "ace_rule", "stop", "me", "hands", "trick", "leader",
                 "best", "best_seat", "won", "pile", "chain", "played", "tt", "nodes",
                 "deadline", "limit", "last", "comp")

    def __init__(self, state: TrickPlay, team: int, stop: bool, deadline: float,
                 limit: int = NO_LIMIT) -> None:
        self.n = state.num_seats
        self.trump = state.trump
        self.double = bool(getattr(state, "double", False))
        self.ace_rule = bool(getattr(state, "ace_rule", False))
        self.stop = stop
        self.me = team
        self.hands = list(state.hands)
        self.trick = list(state.trick)
        self.leader = state.leader
        self.best = state.best
        self.best_seat = state.best_seat
        self.won = list(state.won)
        self.pile = state.pile
        self.chain = state.chain
        self.played = state.tricks_played
        self.tt = table((self.n, self.trump, self.double, self.ace_rule, stop, team))
        self.nodes = 0
        self.deadline = deadline
        self.limit = limit  # positions searched after which the search stops (Timeout)
        self.last = -1
        self.comp: dict[int, int] = {}

    def mover(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def shape(self) -> list[int]:
        """The hands with every card played squeezed out, suit by suit (a card's rank is
        its place among the cards still out): positions alike but for cards gone share a
        table entry.  Under the ace rule the aces still out are added (an ace's trick
        does not collect, so which card is the ace matters)."""
        hands = self.hands
        comp = self.comp
        if len(hands) == 4:
            h0, h1, h2, h3 = hands
            segs = [(h0 >> t & 0x1FFF) | (h1 >> t & 0x1FFF) << 13 | (h2 >> t & 0x1FFF) << 26
                    | (h3 >> t & 0x1FFF) << 39 for t in (0, 13, 26, 39)]
        else:
            h0, h1 = hands
            segs = [(h0 >> t & 0x1FFF) | (h1 >> t & 0x1FFF) << 13 for t in (0, 13, 26, 39)]
        out = []
        for seg in segs:
            c = comp.get(seg)
            if c is None:
                c = comp[seg] = squeeze(seg, len(hands))
            out.append(c)
        if self.ace_rule:
            out.append(sum(hands) & ACE_MASK)
        return out

    def upper(self) -> int:
        """The most the counted team can still get (the mover has not played to this trick:
        its cards are the tricks left, this one included)."""
        r = self.hands[self.mover()].bit_count()
        if self.double:
            return r + self.pile
        return max(0, min(r, STOP - self.won[self.me])) if self.stop else r

    def classes(self, seat: int) -> list[tuple[int, int]]:
        """The legal cards of ``seat`` grouped into equivalent ones: (the lowest card, all of
        them as a mask), adjacent ranks of one suit with no card still out between them (the
        ace apart under the ace rule, where winning with it differs)."""
        legal = playable(self.hands[seat], self.trick)
        out_cards = 0
        for s in range(self.n):
            if s != seat:
                out_cards |= self.hands[s]
        for c in self.trick:
            out_cards |= 1 << c
        aces = ACE_MASK if self.ace_rule else 0
        groups: list[tuple[int, int]] = []
        m = legal
        while m:
            low = m & -m
            group = low
            m ^= low
            nxt = m & SUIT_MASK[SUIT_OF[low.bit_length() - 1]]
            while nxt:
                b = nxt & -nxt
                between = (b - 1) & ~((low << 1) - 1)
                if between & out_cards or b & aces:
                    break
                group |= b
                low = b
                m ^= b
                nxt ^= b
            groups.append(((group & -group).bit_length() - 1, group))
        return groups

    def beats(self, card: int) -> bool:
        return beats(card, self.best, self.trump)

    def ordered(self, seat: int, hint: int) -> list[int]:
        """One card per class, in a good order: the remembered best first; leading, high
        cards first; following, the lowest card that wins when the partner is not winning,
        else the lowest."""
        reps = [rep for rep, _ in self.classes(seat)]
        if self.trick:
            if self.n == 4 and (self.best_seat & 1) == (seat & 1):
                reps.sort()  # the partner is winning: low first
            else:
                best, trump = self.best, self.trump
                keys = [(c if beats(c, best, trump) else 100 + c % 13, c) for c in reps]
                keys.sort()
                reps = [c for _, c in keys]
        else:
            reps.sort(key=lambda c: -(c % 13))
        if hint >= 0:
            for i, c in enumerate(reps):
                if c == hint:
                    if i:
                        reps.insert(0, reps.pop(i))
                    break
        return reps

    def quick(self) -> int:
        """Tricks the leader's side takes at once, whatever the others do (single sar and
        two-player): the leader's cards above every other card of their suit, each run cut to
        the length of that suit in every hand that could ruff it (an opponent holding a trump,
        or a partner holding nothing else)."""
        n, leader, hands, trump = self.n, self.leader, self.hands, self.trump
        mine = hands[leader]
        tmask = SUIT_MASK[trump]
        ruffers = [hands[(leader + i) % n] for i in range(1, n, 2 if n == 4 else 1)]
        ruffers = [h for h in ruffers if h & tmask]
        if n == 4:
            partner = hands[(leader + 2) % 4]
            if partner and not partner & ~tmask:
                ruffers.append(partner)
        others = 0
        for i in range(1, n):
            others |= hands[(leader + i) % n]
        q = 0
        for s in range(4):
            sm = SUIT_MASK[s]
            suit = mine & sm
            if not suit:
                continue
            t = (suit >> (others & sm).bit_length()).bit_count()
            if s != trump:
                for h in ruffers:
                    t = min(t, (h & sm).bit_count())
            q += t
        return q

    def last_card(self) -> int:
        """The result of a trick of one card each, played without search."""
        n, trump, leader = self.n, self.trump, self.leader
        best = self.hands[leader].bit_length() - 1
        best_seat = leader
        for i in range(1, n):
            seat = (leader + i) % n
            c = self.hands[seat].bit_length() - 1
            if beats(c, best, trump):
                best, best_seat = c, seat
        if best_seat & 1 != self.me:
            return 0
        if not self.double:
            return 1
        collected, _ = collect_step(self.chain, self.played + 1, best_seat, best, self.ace_rule)
        return self.pile + 1 if collected else 0


class CourtSearch(CourtPosition):
    """Alpha-beta over a Court Piece position, applying and undoing cards on bitmasks.

    ``search(alpha, beta)`` is the counted team's result from the current position (fail
    soft); ``play(card, alpha, beta)`` the same after the seat to move plays ``card``."""

    __slots__ = ()

    def search(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023 and (self.nodes >= self.limit
                                      or perf_counter() > self.deadline):
            raise Timeout
        if self.trick:
            return self.moves(alpha, beta, -1)
        hands = self.hands
        r = hands[self.leader].bit_count()
        if r == 0:
            return 0
        won = self.won
        if self.stop and (won[0] >= STOP or won[1] >= STOP):
            return 0
        if r == 1:
            return self.last_card()
        hi = self.upper()
        floor = 0
        if not self.double:
            q = self.quick()
            if (self.leader & 1) == self.me:
                floor = min(q, hi)
            elif self.stop and won[1 - self.me] + q >= STOP:
                return 0  # the others cash their way to 7 first
            else:
                hi = min(hi, r - q)
        if hi <= alpha or hi == floor:
            return hi
        if floor >= beta:
            return floor
        key = (*self.shape(), self.leader, self.pile, self.chain, self.played,
               *(won if self.stop else ()))
        e = self.tt.get(key)
        a0, b0 = alpha, beta
        hint = -1
        if e is not None:
            lo, up, hint = e
            if lo >= beta:
                return lo
            if up <= alpha:
                return up
            alpha = max(alpha, lo)
            beta = min(beta, up)
        else:
            lo, up = floor, hi
        v = self.moves(alpha, beta, hint)
        if v <= a0:
            up = min(up, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = up = v
        self.tt[key] = (lo, up, self.last)
        return v

    def moves(self, alpha: int, beta: int, hint: int) -> int:
        seat = self.mover()
        maximise = (seat & 1) == self.me
        best_v = -1 if maximise else 1 << 20
        best_c = -1
        for c in self.ordered(seat, hint):
            v = self.play(c, alpha, beta)
            if maximise:
                if v > best_v:
                    best_v, best_c = v, c
                    if v > alpha:
                        alpha = v
            elif v < best_v:
                best_v, best_c = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        self.last = best_c
        return best_v

    def play(self, card: int, alpha: int, beta: int) -> int:
        seat = self.mover()
        bit = 1 << card
        self.hands[seat] ^= bit
        trick = self.trick
        trick.append(card)
        old_best, old_seat = self.best, self.best_seat
        if len(trick) == 1 or self.beats(card):
            self.best, self.best_seat = card, seat
        if len(trick) < self.n:
            v = self.search(alpha, beta)
        else:
            v = self.finish_trick(alpha, beta)
        trick.pop()
        self.hands[seat] ^= bit
        self.best, self.best_seat = old_best, old_seat
        return v

    def finish_trick(self, alpha: int, beta: int) -> int:
        winner = self.best_seat
        team = winner & 1
        won = self.won
        old = (self.leader, self.pile, self.chain, won[0], won[1], self.trick)
        self.trick = []
        self.leader = winner
        self.played += 1
        gain = 0
        if not self.double:
            won[team] += 1
            gain = 1
        else:  # the core's own step (CP-7a..d, CP-8), not a copy of it
            self.pile += 1
            collected, self.chain = collect_step(self.chain, self.played, winner, self.best,
                                                 self.ace_rule)
            if collected:
                won[team] += self.pile
                gain = self.pile
                self.pile = 0
        if team != self.me:
            gain = 0
        v = gain + self.search(alpha - gain, beta - gain)
        self.played -= 1
        self.leader, self.pile, self.chain, won[0], won[1], self.trick = old
        return v
