"""Goat's part of the exact solver (``taash.review.solver``): alpha-beta over cloned states.

The counted team's result is the card points it takes from now to the game's end.  Goat's
actions go through the core's own ``legal_ids``/``apply_id`` on clones (multi-card leads,
beats and face-down passes, drawing back to four from the known stock, the game's end), so no
rule is restated here.  The molodka out of turn (GT-8) becomes a choice: at every moment of a
trick, before the seat to move acts, each other seat that may play a molodka decides, in GT-8
order, to play it now or to wait (waiting keeps the chance for the next moment, until that seat
has played in the trick).  At the root the seat to move acts first (the question a review asks
is what that seat should play); out-of-turn molodkas are weighed from the next moment on.

The transposition table is keyed on every hand, the trick's plays, its first leader, the seat
to move, whether a molodka has been played, the stock left (in order) and which seats have
waited at this moment: the result from here depends on nothing else, so the table (given by
the solver, for one trump suit and counted team) holds across calls and deals.
"""

from __future__ import annotations

from time import perf_counter

from taash.games.goat_play import GoatPlay
from taash.games.goat_rules import MOLODKA, POINTS, SHIFT

FULL = (1 << 36) - 1
WAITED = -1  # the "wait" choice of a seat that may play a molodka out of turn


class GoatTimeout(Exception):
    """The time limit ran out."""


# the card points of every set of one suit's nine cards, suit by suit (from the core's POINTS)
_SUIT_POINTS = tuple(tuple(sum(POINTS[9 * s + i] for i in range(9) if v >> i & 1)
                           for v in range(512)) for s in range(4))
_P0, _P1, _P2, _P3 = _SUIT_POINTS


def points(mask: int) -> int:
    """The card points of a set of cards (a bitmask), by table, suit by suit.

    >>> points((1 << 36) - 1)
    120
    """
    return (_P0[mask & 511] + _P1[mask >> 9 & 511] + _P2[mask >> 18 & 511]
            + _P3[mask >> 27 & 511])


class GoatSearch:
    """Alpha-beta over a Goat position.  ``child(action, alpha, beta)``: the counted team's
    points from now after the seat to move takes ``action`` (fail soft)."""

    __slots__ = ("root", "me", "deadline", "limit", "tt", "nodes", "timeout")

    def __init__(self, state: GoatPlay, team: int, deadline: float,
                 timeout: type[Exception] = GoatTimeout,
                 tt: dict[tuple[object, ...], tuple[int, int, int]] | None = None,
                 limit: int = 1 << 62) -> None:
        self.root = state.clone()
        self.me = team
        self.deadline = deadline
        self.limit = limit  # positions searched after which the search stops (timeout)
        self.tt = {} if tt is None else tt
        self.nodes = 0
        self.timeout = timeout

    def actions(self) -> list[int]:
        return self.root.legal_ids(self.root.to_move)

    def upper(self) -> int:
        return 120 - points(self.root.taken[0] | self.root.taken[1])

    def child(self, a: int, alpha: int, beta: int) -> int:
        return self._after(self.root, self.root.to_move, a, alpha, beta)

    def _after(self, st: GoatPlay, seat: int, a: int, alpha: int, beta: int) -> int:
        c = st.clone()
        before = c.taken[self.me]
        c.apply_id(seat, a)
        gain = points(c.taken[self.me] & ~before)
        return gain + self.search(c, 0, alpha - gain, beta - gain)

    def search(self, st: GoatPlay, waited: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 255 and (self.nodes >= self.limit
                                     or perf_counter() > self.deadline):
            raise self.timeout
        if st.turn() is None:
            return 0
        hi = 120 - points(st.taken[0] | st.taken[1])
        if hi <= alpha or hi == 0:
            return hi
        if beta <= 0:
            return 0
        key = (*st.hands, tuple(st.plays), st.first_leader, st.to_move, st.molodka_done,
               tuple(st.deck[st.stock_pos:]), waited)
        e = self.tt.get(key)
        a0, b0 = alpha, beta
        hint = -2
        if e is not None:
            lo, up, hint = e
            if lo >= beta:
                return lo
            if up <= alpha:
                return up
            alpha, beta = max(alpha, lo), min(beta, up)
        else:
            lo, up = 0, hi
        seat, options = self._options(st, waited)
        if hint in options and options[0] != hint:
            options.remove(hint)
            options.insert(0, hint)
        maximise = (seat & 1) == self.me
        best_v = -1 if maximise else 1 << 20
        best_a = options[0]
        for a in options:
            if a == WAITED:
                v = self.search(st, waited | 1 << seat, alpha, beta)
            else:
                v = self._after(st, seat, a, alpha, beta)
            if maximise:
                if v > best_v:
                    best_v, best_a = v, a
                    alpha = max(alpha, v)
            elif v < best_v:
                best_v, best_a = v, a
                beta = min(beta, v)
            if alpha >= beta:
                break
        if best_v <= a0:
            up = min(up, best_v)
        elif best_v >= b0:
            lo = max(lo, best_v)
        else:
            lo = up = best_v
        self.tt[key] = (lo, up, best_a)
        return best_v

    @staticmethod
    def _options(st: GoatPlay, waited: int) -> tuple[int, list[int]]:
        """Who chooses now and among what: the first seat in GT-8 order that may play a
        molodka out of turn and has not waited at this moment (molodka or wait), else the
        seat to move (its legal actions)."""
        for s in st.actors():
            if s != st.to_move and not waited >> s & 1:
                return s, [MOLODKA << SHIFT | st.hands[s], WAITED]
        return st.to_move, st.legal_ids(st.to_move)


__all__ = ["GoatSearch", "GoatTimeout", "points"]
