"""Double-dummy solving of four-hand Court Piece positions with Bo Haglund's DDS.

Four-player Court Piece deals are played exactly as bridge deals are (follow suit, highest
trump else highest of the led suit, the winner leads), so the bridge solver DDS, via the
``endplay`` wheel that ships it, gives for every card the seat to move may play the
most tricks its side can take from here with every hand known and everyone playing their best.
The single-sar benches beside this module measure play with it (``court_ceiling.py``,
``court_decisions.py``, which import it as ``dd``); the hard bot searched sampled deals with it
until its rules-of-thumb playouts measured stronger (bench/RESULTS.md).  The package's own use
of DDS, the deal review's, goes through endplay's public API (``taash.review.dds``); this
module drives the library itself, for the benches' speed and its target queries.

Encodings match: our suits S H D C are DDS's 0..3, seats go round clockwise with partners two
apart as North..West do, and a card ``suit * 13 + r`` (r = 0 for the two) is DDS rank ``r + 2``.
"""

from __future__ import annotations

import ctypes
import importlib.util
import threading
from pathlib import Path
from typing import Any

_lib: Any = None
_lock = threading.Lock()


class _Deal(ctypes.Structure):
    # DDS's ``struct deal`` (dll.h): trump, the trick's leader, the trick's cards so far, and
    # every hand's remaining cards as one rank bitmask per suit (bit r for rank r, 2..14).
    _fields_ = [("trump", ctypes.c_int), ("first", ctypes.c_int),
                ("currentTrickSuit", ctypes.c_int * 3), ("currentTrickRank", ctypes.c_int * 3),
                ("remainCards", (ctypes.c_uint * 4) * 4)]


class _FutureTricks(ctypes.Structure):
    # DDS's ``struct futureTricks``: the cards found, each with the lower cards equal to it.
    _fields_ = [("nodes", ctypes.c_int), ("cards", ctypes.c_int),
                ("suit", ctypes.c_int * 13), ("rank", ctypes.c_int * 13),
                ("equals", ctypes.c_int * 13), ("score", ctypes.c_int * 13)]


def _find() -> Path | None:
    # The library ships inside the endplay wheel; its Python package (which imports a great
    # deal, plotting included) is not needed, only the compiled solver.
    spec = importlib.util.find_spec("endplay")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        for pattern in ("libdds*.so*", "libdds*.dylib", "dds*.dll"):
            for f in sorted((Path(root) / "_dds").glob(pattern)):
                return f
    return None


def available() -> bool:
    """Whether the solver library loads (``endplay`` is installed and its library loads)."""
    return _load() is not None


def _load() -> Any:
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                path = _find()
                try:
                    lib = ctypes.CDLL(str(path)) if path else None
                except OSError:
                    lib = None
                if lib is None:
                    _lib = False
                    return None
                lib.SolveBoard.argtypes = (_Deal, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                           ctypes.POINTER(_FutureTricks), ctypes.c_int)
                lib.SolveBoard.restype = ctypes.c_int
                lib.SetMaxThreads.argtypes = (ctypes.c_int,)
                lib.SetMaxThreads(1)  # one core, and the same answer on every machine
                _lib = lib
    return _lib or None


def check(hands: list[int], trump: int, leader: int, trick: list[int], target: int) -> None:
    """Refuse a position DDS would reject: DDS writes a ``dump.txt`` into the working
    directory on every error, so nothing invalid may reach it.  Raises ValueError."""
    if len(hands) != 4 or not 0 <= trump <= 4 or not 0 <= leader <= 3 or len(trick) > 3:
        raise ValueError("a double-dummy position needs four hands, a trump suit 0..4 (4: "
                         "none), a leader 0..3 and at most three cards in the trick")
    seen = 0
    for m in (*hands, *(1 << c if c >= 0 else -1 for c in trick)):
        if m < 0 or m >> 52 or seen & m:
            raise ValueError("a card is out of range or in two places")
        seen |= m
    left = hands[(leader + len(trick)) % 4].bit_count()
    for i in range(4):
        want = left - (1 if i < len(trick) else 0)
        if hands[(leader + i) % 4].bit_count() != want:
            raise ValueError("the hands' sizes do not fit the trick in progress")
    if left == 0 or not (target == -1 or 0 <= target <= left):
        raise ValueError(f"no tricks left, or a target ({target}) outside -1, 0..{left}")


def _solve(hands: list[int], trump: int, leader: int, trick: list[int], target: int,
           solutions: int) -> _FutureTricks:
    lib = _load()
    if lib is None:
        raise RuntimeError("the double-dummy solver is not available")
    check(hands, trump, leader, trick, target)
    dl = _Deal()
    dl.trump = trump
    dl.first = leader
    for i, c in enumerate(trick):
        dl.currentTrickSuit[i] = c // 13
        dl.currentTrickRank[i] = c % 13 + 2
    for h in range(4):
        m = hands[h]
        row = dl.remainCards[h]
        for s in range(4):
            row[s] = ((m >> (13 * s)) & 0x1FFF) << 2
    fut = _FutureTricks()
    with _lock:
        code = lib.SolveBoard(dl, target, solutions, 1, ctypes.byref(fut), 0)
    if code != 1:
        raise RuntimeError(f"the double-dummy solver failed (code {code})")
    return fut


def solve(hands: list[int], trump: int, leader: int,
          trick: list[int]) -> tuple[dict[int, int], int]:
    """The double-dummy result of every card the seat to move may play.

    ``hands``: the four seats' current cards (bitmasks, the trick's cards not included);
    ``leader``: who led the trick in progress (or leads next), ``trick`` its cards so far.
    Returns ({card: tricks the mover's side takes from here, this trick included}, nodes
    searched).  Thread-safe (one solve at a time)."""
    fut = _solve(hands, trump, leader, trick, -1, 3)
    out: dict[int, int] = {}
    for i in range(fut.cards):
        s = fut.suit[i]
        score = fut.score[i]
        base = s * 13 - 2
        out[base + fut.rank[i]] = score
        eq = fut.equals[i] >> 2
        while eq:
            low = eq & -eq
            out[s * 13 + low.bit_length() - 1] = score
            eq ^= low
    return out, int(fut.nodes)


def reaches(hands: list[int], trump: int, leader: int, target: int) -> tuple[bool, int]:
    """Whether the leader's side can take ``target`` tricks of the deal from its start (every
    hand known, best play on both sides), and the nodes searched."""
    if target <= 0:
        return True, 0
    if target > hands[leader].bit_count():
        return False, 0  # asking DDS for more tricks than are left is an error there
    fut = _solve(hands, trump, leader, [], target, 1)
    return fut.score[0] >= target, int(fut.nodes)

