"""A puzzle's themes: each a precise test on the position, the solution and the best line.

The words used below: the *mover* is the seat to move in the puzzle; its *side* is its team
(four-player Court Piece, Goat) or itself (two-player Court Piece); an *opponent* is a seat
of the other side.  The *solution* is the card (one of the group of equivalent cards, which
all have the same suit and the same effect) or, in Goat, the action that alone keeps the best
result; the *obvious* action is the easy bot's (``taash.puzzles.mine``); the *best line* is the
solution followed by the continuation.  Ranks compare within a suit.

Court Piece, four players and two:

- ``finesse``: the solution card wins its trick in the best line, although the mover also
  holds a higher card of the same suit and an opponent holds (in hand, not on the table) a
  card of that suit ranked between the two: the lower card of a tenace takes the trick.
- ``ruff``: a trick is led in a suit other than trump and the solution card is a trump (the
  mover has none of the led suit: it cuts).
- ``throw-in``: the solution card's trick is won by an opponent in the best line although the
  mover held a legal card that would have been on top of the trick as it stood (following
  suit or cutting; when leading, the highest card still out in its suit), and the mover's side
  wins the next trick: the lead is handed over so that the opponents must lead into the
  mover's side.
- ``trump-control``: the mover leads a trump while an opponent still holds one (drawing
  trumps), or, having none of a non-trump led suit and holding a trump, the solution is not
  a trump (the mover declines to cut, keeping its trumps).

Goat:

- ``beat-or-pass``: the mover answers a lead and may both beat and pass, and the solution and
  the obvious action are of different kinds (one beats, the other passes face down).
- ``molodka``: the mover holds a molodka (four cards of one suit, GT-8) and either the
  solution plays it (``molodka:``, or a four-card lead of one suit) or the obvious action does.
"""

from __future__ import annotations

from collections.abc import Sequence

from taash.games.goat_play import GoatPlay
from taash.games.goat_rules import BEAT, LEAD, MOLODKA, PASS, SHIFT, is_molodka
from taash.games.tricks_play import SUIT_MASK, SUIT_OF, TrickPlay, beats, playable

COURT_THEMES = ("finesse", "ruff", "throw-in", "trump-control")
GOAT_THEMES = ("beat-or-pass", "molodka")
THEMES = COURT_THEMES + GOAT_THEMES


def side_of(state: TrickPlay | GoatPlay, seat: int) -> int:
    """The side a seat plays for (its team, or itself in a two-player game)."""
    return seat if state.num_seats == 2 else seat & 1


def _opponents(state: TrickPlay, seat: int) -> int:
    """Every card held by the mover's opponents (a bitmask)."""
    out = 0
    for s in range(state.num_seats):
        if side_of(state, s) != side_of(state, seat):
            out |= state.hands[s]
    return out


def court_themes(state: TrickPlay, seat: int, cards: Sequence[int], winner: int | None,
                 next_winner: int | None) -> list[str]:
    """The Court Piece themes of a puzzle (see the module): ``cards`` the solution's group
    (touching cards of one suit), ``winner`` the seat taking its trick in the best line and
    ``next_winner`` the next trick's (None: the line does not reach it)."""
    out: list[str] = []
    card = max(cards)  # the group's top: a higher card of the mover's is outside the group
    hand = state.hands[seat]
    trump = state.trump
    suit = SUIT_OF[card]
    rank_mask = SUIT_MASK[suit]
    opp = _opponents(state, seat)
    mine = side_of(state, seat)
    won = winner is not None and side_of(state, winner) == mine
    higher = hand & rank_mask & ~((2 << card) - 1)
    if won and higher:
        top = higher & -higher  # the mover's next higher card of the suit
        between = opp & rank_mask & (top - 1) & ~((2 << card) - 1)
        if between:
            out.append("finesse")
    led = SUIT_OF[state.trick[0]] if state.trick else None
    if led is not None and led != trump and suit == trump:
        out.append("ruff")
    if winner is not None and not won and next_winner is not None \
            and side_of(state, next_winner) == mine and _could_top(state, seat, opp):
        out.append("throw-in")
    trumps = SUIT_MASK[trump]
    draws = led is None and suit == trump and bool(opp & trumps)
    declines = (led is not None and led != trump and not hand & SUIT_MASK[led]
                and bool(hand & trumps) and suit != trump)
    if draws or declines:
        out.append("trump-control")
    return out


def _could_top(state: TrickPlay, seat: int, opp: int) -> bool:
    """Whether the mover held a legal card that would be on top of the trick as it stands
    (leading: a card above every card of its suit still held by the others)."""
    legal = playable(state.hands[seat], state.trick)
    m = legal
    while m:
        b = m & -m
        m ^= b
        c = b.bit_length() - 1
        if state.trick:
            if beats(c, state.best, state.trump):
                return True
        else:
            others = 0
            for s in range(state.num_seats):
                if s != seat:
                    others |= state.hands[s]
            if not others & SUIT_MASK[SUIT_OF[c]] & ~((2 << c) - 1):
                return True
    return False


def goat_themes(state: GoatPlay, seat: int, solution: int, obvious: int) -> list[str]:
    """The Goat themes of a puzzle (see the module); ``solution`` and ``obvious`` are action
    ids."""
    out: list[str] = []
    legal = state.legal_ids(seat)
    verbs = {a >> SHIFT for a in legal}
    sv, ov = solution >> SHIFT, obvious >> SHIFT
    if state.plays and BEAT in verbs and PASS in verbs and {sv, ov} == {BEAT, PASS}:
        out.append("beat-or-pass")
    if is_molodka(state.hands[seat]) and any(_plays_molodka(a) for a in (solution, obvious)):
        out.append("molodka")
    return out


def _plays_molodka(action: int) -> bool:
    verb, cards = action >> SHIFT, action & ((1 << SHIFT) - 1)
    return verb == MOLODKA or (verb == LEAD and cards.bit_count() == 4 and is_molodka(cards))


def counts(themes: Sequence[Sequence[str]]) -> dict[str, int]:
    """How many puzzles have each theme (every theme of the games listed, 0 if none)."""
    out: dict[str, int] = {}
    for ts in themes:
        for t in ts:
            out[t] = out.get(t, 0) + 1
    return out


__all__ = ["COURT_THEMES", "GOAT_THEMES", "THEMES", "counts", "court_themes", "goat_themes",
           "side_of"]
