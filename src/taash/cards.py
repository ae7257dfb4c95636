"""Cards, suits, packs and card sets as int bitmasks.

A card inside a game is a small int: ``suit * n + order`` where ``order`` counts from the
lowest rank of that game's pack.  A set of cards is an int bitmask, so the highest set bit of a
suit's slice is the strongest card of that suit.  Text is only at the edges: ``parse_card`` reads
the lenient forms of RULES.md and ``Pack.code`` writes the canonical one.

>>> CP = Pack("23456789TJQKA")
>>> CP.code(CP.index("10s"))
'TS'
>>> CP.codes(CP.mask(["2h", "AS", "kh"]))
['AS', 'KH', '2H']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("\u2660", "\u2665", "\u2666", "\u2663")


class CardError(ValueError):
    """A card code or suit that does not parse."""


def parse_suit(text: str) -> int:
    """Suit index (S=0, H=1, D=2, C=3) of a suit letter, case-insensitive, spaces ignored."""
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    raise CardError(f"not a suit: {text.strip()!r} (use S, H, D or C)")


def parse_card(text: str) -> str:
    """Canonical code of a card written leniently (``10s``, `` ah ``); raises CardError.

    >>> parse_card(" 10h ")
    'TH'
    """
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2 and t[0] in RANKS and t[1] in SUITS:
        return t
    raise CardError(f"not a card code: {text.strip()!r}")


def bits(mask: int) -> Iterator[int]:
    """The indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: int) -> list[int]:
    """The indexes of the set bits of ``mask`` as a list, lowest first (faster than bits())."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Pack:
    """One game's pack: its ranks (low to high) in each of the four suits."""

    __slots__ = ("ranks", "n", "size", "all_mask", "suit_masks", "suit_of", "rank_of", "_codes",
                 "_index")

    def __init__(self, ranks_low_to_high: str) -> None:
        self.ranks = ranks_low_to_high
        self.n = len(ranks_low_to_high)
        self.size = 4 * self.n
        self.all_mask = (1 << self.size) - 1
        self.suit_masks = tuple(((1 << self.n) - 1) << (s * self.n) for s in range(4))
        # suit_of[card], rank_of[card] (rank order from this pack's lowest): for hot loops
        self.suit_of = tuple(c // self.n for c in range(self.size))
        self.rank_of = tuple(c % self.n for c in range(self.size))
        self._codes = tuple(r + s for s in SUITS for r in ranks_low_to_high)
        self._index = {c: i for i, c in enumerate(self._codes)}

    def __repr__(self) -> str:
        return f"Pack({self.ranks!r})"

    def code(self, card: int) -> str:
        return self._codes[card]

    def has(self, code: str) -> bool:
        """Whether a canonical code is a card of this pack."""
        return code in self._index

    def index(self, text: str) -> int:
        """Card index of a (leniently written) code; CardError if it is not in this pack."""
        code = parse_card(text)
        try:
            return self._index[code]
        except KeyError:
            raise CardError(f"{code} is not a card of this pack") from None

    def suit(self, card: int) -> int:
        return card // self.n

    def rank(self, card: int) -> str:
        return self.ranks[card % self.n]

    def mask(self, codes: Iterable[str]) -> int:
        m = 0
        for c in codes:
            m |= 1 << self.index(c)
        return m

    def sorted_cards(self, cards: Iterable[int]) -> list[int]:
        """Canonical order: by suit S H D C, then rank high to low in this pack's order."""
        n = self.n
        return sorted(cards, key=lambda c: (c // n, -(c % n)))

    def codes(self, mask: int) -> list[str]:
        """Canonical codes of a card set."""
        return [self._codes[c] for c in self.sorted_cards(bits(mask))]

    def join(self, mask: int) -> str:
        return ",".join(self.codes(mask))

    def full_deck(self) -> list[str]:
        return list(self._codes)
