"""Goat's rules as pure functions and tables (RULES.md GT-1, GT-3, GT-6..GT-8, GT-11): the
pack and points, which card beats which, the one-to-one pairing a beat needs, the legal leads
and answers of a hand, defeat points, action text and how others see a trick's plays.

Action ids are ``verb << SHIFT | cards`` (a card bitmask); text is ``verb:card,card``.

>>> action_text(BEAT << SHIFT | PACK.mask(["TH", "7D"]))
'beat:TH,7D'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from taash.cards import Pack
from taash.games.base import Check, Json
from taash.games.options import Choice, Count, Option, bounds, checks, defaults
from taash.games.types import GoatPhase, GoatPlayJson, GoatVerb

PACK = Pack("6789JQKTA")
CODES = tuple(PACK.code(c) for c in range(36))
POINTS = tuple((0, 0, 0, 0, 2, 3, 4, 10, 11)[c % 9] for c in range(36))
SUIT_OF = PACK.suit_of
RANK_OF = PACK.rank_of
SUIT_MASK = PACK.suit_masks
LEAD, BEAT, PASS, MOLODKA = 1, 2, 3, 4
VERBS = ("", "lead", "beat", "pass", "molodka")
VERB_NAMES: tuple[GoatVerb, ...] = ("lead", "beat", "pass", "molodka")  # VERBS[1:], typed
ACTION_VERBS = {"lead": LEAD, "beat": BEAT, "pass": PASS, "molodka": MOLODKA}  # verb ids
SHIFT = 36
CARDS = (1 << SHIFT) - 1
PLAY, WAIT, OVER = 1, 2, 3
PHASE_NAMES = ("", "play", "waiting", "over")
PHASES: tuple[GoatPhase, ...] = ("play", "waiting", "over")  # PHASE_NAMES[1:], typed
DEALT = 16  # GT-3: deck[0:16] is dealt one card at a time ...
STOCK = range(DEALT, 36)  # ... and deck[16:36] is the stock, drawn from deck[16] on

OPTIONS: tuple[Option, ...] = (  # in the order records have long written them
    Choice("eggs", "none", ("none", "double-next"), "Eggs (60-60)",
           ("No effect", "Next game counts double")),
    # RULES.md "Option bounds": 120 defeat points at a table
    Count("target", 12, "Defeat points to lose", maximum=120, key="target_defeat"),
)
DEFAULTS: dict[str, Json] = defaults(OPTIONS)
CHECKS: dict[str, Check] = checks(OPTIONS)
BOUNDS: dict[str, Check] = bounds(OPTIONS)


# the card points of each set of one suit's nine ranks (cards are suit by suit, nine each)
_SUIT_POINTS = tuple(sum((0, 0, 0, 0, 2, 3, 4, 10, 11)[r] for r in range(9) if m >> r & 1)
                     for m in range(512))


def points(mask: int) -> int:
    """The card points of a set of cards (GT-1).

    >>> points(PACK.mask(["AS", "TS", "KH", "6D"]))
    25
    """
    sp = _SUIT_POINTS
    return sp[mask & 511] + sp[mask >> 9 & 511] + sp[mask >> 18 & 511] + sp[mask >> 27 & 511]


def beats(x: int, y: int, trump: int) -> bool:
    """GT-6: x beats y (same suit and higher, or x trump and y not)."""
    sx, sy = SUIT_OF[x], SUIT_OF[y]
    return (sx == sy and x > y) or (sx == trump and sy != trump)


# BEATEN[trump][x]: the set of cards that card x beats when ``trump`` is trump (GT-6).
BEATEN = tuple(tuple(sum(1 << y for y in range(36) if beats(x, y, t)) for x in range(36))
               for t in range(4))


# BEATERS[trump][y]: the cards that beat card y (the transpose of BEATEN)
BEATERS = tuple(tuple(sum(1 << x for x in range(36) if beats(x, y, t)) for y in range(36))
                for t in range(4))
PASS_ID, BEAT_ID = PASS << SHIFT, BEAT << SHIFT  # an answer's id is one of these | its cards


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


def _cards(hand: int) -> list[int]:
    out = []
    while hand:
        low = hand & -hand
        out.append(low)
        hand ^= low
    return out


def _answers(hand: int, k: int) -> list[int]:
    """The k-card subsets of a hand of at most four cards, by value (lowest first)."""
    cards = _cards(hand)
    n = len(cards)
    if k == 1:
        return cards
    if k == n:
        return [hand]
    if k == n - 1:  # leave one card out, the highest first: the lowest value first
        return [hand ^ c for c in reversed(cards)]
    if k > n or n != 4:
        return []
    a, b, c, d = cards  # two of four
    return [a | b, a | c, b | c, a | d, b | d, c | d]


def _leads(hand: int) -> list[int]:
    """Lead ids of a hand: every non-empty one-suit subset, suit by suit, by size, by value."""
    out: list[int] = []
    for sm in SUIT_MASK:
        part = hand & sm
        if part:
            n = part.bit_count()
            if n == 1:
                out.append(LEAD << SHIFT | part)
                continue
            for k in range(1, n + 1):
                out.extend(LEAD << SHIFT | sub for sub in _answers(part, k))
    return out


# Per-suit tables for ``GoatPlay.legal_ids``, a hand's ids being its suits' pieces suit by suit:
# LEAD_T[s][part] are the lead ids of the cards ``part << 9 * s`` (what ``_leads`` gives them),
# PASS_T[s][part] a pass of each card, PASS_BEAT_T[s][part] a pass and a beat of each card.
def _suit_leads(part: int) -> list[int]:
    """``_leads`` of one suit's cards (a 9-bit part), without the verb."""
    cards = _cards(part)
    n = len(cards)
    if n <= 4:  # every subset, by size, then by value
        subs = []
        sub = part
        while sub:
            subs.append(sub)
            sub = (sub - 1) & part
        return sorted(subs, key=lambda m: (m.bit_count(), m))
    return cards + [part ^ c for c in reversed(cards)] + [part]  # as _answers has it


def _suit_table(ids: Callable[[int], list[int]], verbs: tuple[int, ...]
                ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    base = [ids(p) for p in range(512)]
    out = []
    for s in range(4):  # comprehensions rather than generators: a few ms at import, not 40
        sh = 9 * s
        if len(verbs) == 1:
            v = verbs[0] << SHIFT
            out.append(tuple([tuple([v | m << sh for m in ms]) for ms in base]))
        else:
            v, w = verbs[0] << SHIFT, verbs[1] << SHIFT
            out.append(tuple([tuple([x for m in ms for x in (v | m << sh, w | m << sh)])
                              for ms in base]))
    return tuple(out)


LEAD_T = _suit_table(_suit_leads, (LEAD,))
PASS_T = _suit_table(_cards, (PASS,))
PASS_BEAT_T = _suit_table(_cards, (PASS, BEAT))
# the four-card hands of one suit (GT-8)
MOLODKA_HANDS = frozenset(sub << 9 * s for s in range(4) for sub in range(512)
                          if sub.bit_count() == 4)


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


def plays_for(plays: Sequence[tuple[int, int, int]], seat: int | None) -> list[GoatPlayJson]:
    """Plays of a trick as ``seat`` may see them (None: a spectator): every play's seat, verb
    and card count, and its cards unless it is a face-down pass by someone else (Who sees
    what)."""
    out = []
    for s, verb, m in plays:
        p: GoatPlayJson = {"seat": s, "verb": VERB_NAMES[verb - 1], "count": m.bit_count()}
        if verb != PASS or s == seat:
            p["cards"] = PACK.codes(m)
        out.append(p)
    return out


def _record_action(seat: int, a: int, hide: bool) -> dict[str, Json]:
    if hide and a >> SHIFT == PASS:  # a face-down pass, as a record of a hidden deal shows it
        return {"seat": seat, "action": "pass", "count": (a & CARDS).bit_count()}
    return {"seat": seat, "action": action_text(a)}
