"""Four-player single sar solved double dummy by DDS, Bo Haglund's bridge solver, through the
public API of ``endplay`` (``endplay.types.Deal`` and ``endplay.dds.solve_board``).

Four-player Court Piece in single sar (CP-6) is whist with a trump suit and no bidding: follow
suit if you can, the highest trump wins the trick or else the highest card of the suit led, the
winner leads the next one, partners sit two apart, and tricks alone decide the deal (7 of the 13
win it, the first 7 a coat).  That is the game DDS solves, so from any position of a deal,
mid-trick ones too, it gives for each legal card of the seat to move the tricks that seat's
side takes from here (this trick included) with every hand known and everyone playing their
best, *every trick played to the 13th* as a whist deal is.  The deal is won exactly when the
tricks the side has plus that count reach 7 (taash's rules stop the deal there; who reaches 7
does not depend on it), so won and lost are exact either way.

The encodings map one to one: the core's suits S H D C (a card ``suit * 13 + r``, r = 0 for the
two) are ``Denom.spades .. Denom.clubs``, rank r is ``Rank.R2 .. Rank.RA`` (DDS's bit ``r + 2``);
seats 0..3, played round in that order with partners two apart, are ``Player.north .. west``;
the trick in progress is given by its leader (``Deal.first``) and its cards so far, which the
core holds outside the hands, as DDS does.

``endplay`` is imported on first use (it takes a few seconds: it brings its plotting along);
``available()`` says whether it can be.  DDS writes a ``dump.txt`` into the working directory
on every error, so each position is checked before it reaches the library.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from taash.games import CourtPiece
from taash.games.base import MatchState
from taash.games.tricks_play import PLAY, TrickPlay

_lock = threading.Lock()  # one solve at a time: SolveBoard on thread 0 keeps state there
_mods: tuple[ModuleType, ModuleType] | None = None
_missing = False


def _load() -> tuple[ModuleType, ModuleType] | None:
    """(``endplay.types``, ``endplay.dds``), or None where endplay cannot be imported."""
    global _mods, _missing
    if _mods is None and not _missing:
        with _lock:
            if _mods is None and not _missing:
                try:
                    _mods = (importlib.import_module("endplay.types"),
                             importlib.import_module("endplay.dds"))
                except (ImportError, RuntimeError, OSError):
                    # not installed, or its library did not load (endplay raises RuntimeError)
                    _missing = True
    return _mods


def available() -> bool:
    """Whether endplay (and the DDS library inside it) can be used here."""
    return _load() is not None


def applies(state: MatchState) -> bool:
    """Whether ``state`` is a position DDS solves exactly: four-player Court Piece in single
    sar, in the card play, a seat to move."""
    return (isinstance(state, CourtPiece)
            and state.num_seats == 4 and not getattr(state, "double", False)
            and state.phase == PLAY and state.to_move >= 0 and 0 <= state.trump <= 3)


def check(hands: list[int], leader: int, trick: list[int]) -> None:
    """Refuse a position DDS would reject (it would write ``dump.txt``): four hands of
    distinct cards, the trick's cards apart from them, hand sizes that fit the trick, a card
    left to play.  Raises ValueError."""
    if len(hands) != 4 or not 0 <= leader <= 3 or len(trick) > 3:
        raise ValueError("a double-dummy position needs four hands, a leader 0..3 and at most "
                         "three cards in the trick")
    seen = 0
    for m in (*hands, *(1 << c if 0 <= c < 52 else -1 for c in trick)):
        if m < 0 or m >> 52 or seen & m:
            raise ValueError("a card is out of range or in two places")
        seen |= m
    left = hands[(leader + len(trick)) % 4].bit_count()
    for i in range(4):
        if hands[(leader + i) % 4].bit_count() != left - (1 if i < len(trick) else 0):
            raise ValueError("the hands' sizes do not fit the trick in progress")
    if left == 0:
        raise ValueError("no card is left to play")


def _card(types: Any, c: int) -> Any:
    return types.Card(suit=types.Denom(c // 13), rank=types.Rank(1 << (c % 13 + 2)))


def solve_cards(hands: list[int], trump: int, leader: int, trick: list[int]) -> dict[int, int]:
    """{card: tricks the side to move takes from here, every trick played} for each card the
    seat to move may play.  ``hands``: the four seats' cards as bitmasks (the trick's cards
    not among them); ``leader``: who led the trick in progress (or leads next); ``trick``: its
    cards so far; ``trump``: the trump suit 0..3 (or 4: none).  Raises RuntimeError where
    endplay is not available, ValueError for a position that cannot be."""
    mods = _load()
    if mods is None:
        raise RuntimeError("DDS is not available: endplay is not installed or did not load")
    types, dds = mods
    check(hands, leader, trick)
    if not 0 <= trump <= 4:
        raise ValueError(f"the trump suit must be 0..3, or 4 for none, not {trump}")
    deal = types.Deal(first=types.Player(leader), trump=types.Denom(trump))
    for seat, mask in enumerate(hands):
        hand = deal[types.Player(seat)]
        m = mask
        while m:
            low = m & -m
            hand.add(_card(types, low.bit_length() - 1))
            m ^= low
    for c in trick:
        deal.play(_card(types, c), from_hand=False)
    with _lock:
        solved = dds.solve_board(deal)
    out: dict[int, int] = {}
    for card, tricks in solved:
        out[int(card.suit) * 13 + int(card.rank).bit_length() - 3] = int(tricks)
    return out


def action_values(state: MatchState) -> dict[int, int]:
    """For a position ``applies`` accepts: the tricks the side to move takes from here after
    each of its legal plays (action ids, which are the cards' ids), every trick played.
    Raises ValueError for another position, RuntimeError where DDS is not available or
    answers something other than the legal cards."""
    if not applies(state):
        raise ValueError("DDS solves four-player single sar in the card play only")
    assert isinstance(state, TrickPlay)
    got = solve_cards(list(state.hands), state.trump, state.leader, list(state.trick))
    legal = state.legal_ids(state.to_move)
    if sorted(got) != sorted(legal):
        raise RuntimeError(f"DDS answered cards {sorted(got)} for the legal {sorted(legal)}")
    return got


def clamp(values: Mapping[int, int], have: int, target: int = 7) -> dict[int, int]:
    """Whist's counts in taash's unit for a won line: the deal stops when a side has
    ``target`` tricks, so a side with ``have`` takes at most ``target - have`` more."""
    return {a: min(v, target - have) for a, v in values.items()}


__all__ = ["action_values", "applies", "available", "check", "clamp", "solve_cards"]
