"""The adapters' fixed-size observation of one seat (0..1 floats), for learning agents.

Court Piece: hand 52 | the trick by relative seat n*52 | cards played 52 | trump 4 | call phase
1 | caller relative n | tricks mine, theirs 2 | pile 1 | voids n*4.  Goat: hand 36 | the trick
per relative seat (face-up 36 + face-down count 1) | top 36 | top seat relative 4 | face-up
played 36 | own passes 36 | trump card 36 | trump 4 | k 1 | stock 1 | tricks mine, theirs 2 |
may molodka 1 | asked out of turn 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from taash.cards import bits
from taash.games import game_class
from taash.games.goat import CARDS, PASS, SHIFT
from taash.games.tricks import SUIT_OF, TRUMP_BASE

if TYPE_CHECKING:
    from taash.interop.episode import Episode


def observation_vector(ep: Episode, seat: int) -> list[float]:
    """A fixed-size 0..1 encoding of what ``seat`` sees now (see ``observation_size``)."""
    out = [0.0] * observation_size(ep.game_id)
    st = ep.state
    if st is None:
        return out
    n = ep.n
    if ep.cls.plays_card_sets:
        return _goat_vector(ep, seat, out)
    # hand 52 | trick by relative seat n*52 | played 52 | trump 4 | call phase 1 |
    # caller relative n | tricks mine, theirs 2 | pile 1 | voids n*4
    for c in bits(st.hands[seat]):
        out[c] = 1.0
    base = 52
    leader = st.leader
    for i, c in enumerate(st.trick):
        rel = (leader + i - seat) % n
        out[base + rel * 52 + c] = 1.0
    base += n * 52
    voids = [0] * n
    count = 0
    lead_suit = -1
    for s, a in ep.history:
        if a >= TRUMP_BASE:
            continue
        out[base + a] = 1.0
        if count % n == 0:
            lead_suit = SUIT_OF[a]
        elif SUIT_OF[a] != lead_suit:
            voids[s] |= 1 << lead_suit
        count += 1
    base += 52
    if st.trump >= 0:
        out[base + st.trump] = 1.0
    base += 4
    out[base] = 1.0 if st.trump < 0 else 0.0
    base += 1
    out[base + (st.caller - seat) % n] = 1.0
    base += n
    mine = seat if n == 2 else seat & 1
    out[base] = st.won[mine] / 13
    out[base + 1] = st.won[1 - mine] / 13
    base += 2
    out[base] = st.pile / 13
    base += 1
    for s in range(n):
        for suit in range(4):
            if voids[s] >> suit & 1:
                out[base + ((s - seat) % n) * 4 + suit] = 1.0
    return out

def _goat_vector(ep: Episode, seat: int, out: list[float]) -> list[float]:
    # hand 36 | trick per relative seat: face-up 36 + face-down count 1 | top 36 |
    # top seat relative 4 | face-up played 36 | own passes 36 | trump card 36 | trump 4 |
    # k 1 | stock 1 | tricks mine, theirs 2 | may molodka 1 | asked out of turn 1
    st = ep.state
    for c in bits(st.hands[seat]):
        out[c] = 1.0
    base = 36
    for s, v, m in st.plays:
        rel = (s - seat) % 4
        if v == PASS and s != seat:
            out[base + rel * 37 + 36] = m.bit_count() / 4
        else:
            for c in bits(m):
                out[base + rel * 37 + c] = 1.0
    base += 4 * 37
    for c in bits(st.top):
        out[base + c] = 1.0
    base += 36
    if st.plays:
        out[base + (st.top_seat - seat) % 4] = 1.0
    base += 4
    for s, a in ep.history:
        if a < 0:
            continue
        m = a & CARDS
        if a >> SHIFT == PASS:
            if s == seat:
                for c in bits(m):
                    out[base + 36 + c] = 1.0
        else:
            for c in bits(m):
                out[base + c] = 1.0
    base += 72
    out[base + ep.trump_card] = 1.0
    base += 36
    out[base + st.trump] = 1.0
    base += 4
    out[base] = st.k / 4
    out[base + 1] = (36 - st.stock_pos) / 20
    out[base + 2] = st.tricks[seat & 1] / 9
    out[base + 3] = st.tricks[1 - (seat & 1)] / 9
    base += 4
    out[base] = 1.0 if st.can_molodka(seat) else 0.0
    terminal = ep.is_terminal()
    out[base + 1] = 1.0 if not terminal and ep.window_seat() == seat != st.to_move else 0.0
    return out


def observation_size(game_id: str) -> int:
    cls = game_class(game_id)
    if cls.plays_card_sets:  # Goat's layout
        return 36 + 4 * 37 + 36 + 4 + 72 + 36 + 4 + 4 + 2
    n = cls.num_seats
    return 52 + n * 52 + 52 + 4 + 1 + n + 2 + 1 + n * 4
