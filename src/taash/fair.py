"""Provably fair deals, ``taash-shuffle/1`` (RECORD.md, "Fair deals"): pure, no I/O, no clock.

A deal's ``fair`` object holds a server's ``commit`` (SHA-256 of a 32-byte ``secret``) and one
seed per seat; once the secret is revealed anyone can recompute the deck (and Goat's shown trump
card) from the secret, the game, the table id, the deal's index and the seeds, and so check that
nobody chose the cards.

>>> secret = "5a194091da224dc213651c3361141787dd3207216a25e7d17ee44548965f508f"
>>> commit(secret)[:16]
'1328691e31a77df4'
>>> deck, trump_card = derive("goat", "k3v9x2", 0, ["a1", "", "", ""], secret)
>>> deck[:4], trump_card
(['TD', '8D', '9H', '7S'], '8S')
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from taash.cards import RANKS, SUITS, parse_card
from taash.games import game_class
from taash.games.base import Json, RecordError, json_type
from taash.games.goat import STOCK

SCHEME = "taash-shuffle/1"

_HEX64 = re.compile(r"[0-9a-f]{64}")
_TABLE = re.compile(r"[A-Za-z0-9_-]{0,64}")
_SEED = re.compile(r"[!-~]{0,64}")
_SEED_CHARS = "".join(chr(c) for c in range(ord("!"), ord("~") + 1))


@dataclass(frozen=True)
class NotFair(ValueError):
    """A deal whose revealed secret does not give its commit, deck or trump card."""

    deal: int
    reason: str

    def __str__(self) -> str:
        return f"deal {self.deal}: not fair: {self.reason}"


def check_form(fair: object, num_seats: int, where: str) -> dict[str, Json]:
    """A deal's ``fair`` object, checked for form only (RecordError saying what and where)."""
    if not isinstance(fair, dict):
        raise RecordError(f"{where}: must be an object, not {json_type(fair)}")
    if fair.get("scheme") != SCHEME:
        raise RecordError(f"{where}.scheme: must be {json.dumps(SCHEME)}, not "
                          f"{json.dumps(fair.get('scheme'))}")
    table = fair.get("table")
    if not isinstance(table, str) or not _TABLE.fullmatch(table):
        raise RecordError(f"{where}.table: must be 0-64 characters from A-Z a-z 0-9 _ -, not "
                          f"{json.dumps(table)}")
    for key in ("commit", "secret"):
        if key == "secret" and key not in fair:
            continue
        v = fair.get(key)
        if not isinstance(v, str) or not _HEX64.fullmatch(v):
            raise RecordError(f"{where}.{key}: must be 64 lowercase hex digits, not "
                              f"{json.dumps(v)}")
    seeds = fair.get("seeds")
    if not isinstance(seeds, list) or len(seeds) != num_seats:
        raise RecordError(f"{where}.seeds: must be a list of {num_seats} strings, one per seat")
    for s, seed in enumerate(seeds):
        if not isinstance(seed, str) or not _SEED.fullmatch(seed):
            raise RecordError(f"{where}.seeds[{s}]: must be \"\" or 1-64 printable ASCII "
                              f"characters without spaces, not {json.dumps(seed)}")
    return fair


def commit(secret: str) -> str:
    """The commitment to a secret: SHA-256 of its 32 bytes, lowercase hex."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def _words(secret: str, digest: bytes) -> Iterator[int]:
    """The HMAC-SHA256 byte stream B0 B1 … read as big-endian unsigned 32-bit integers."""
    key = bytes.fromhex(secret)
    k = 0
    while True:
        block = hmac.new(key, digest + k.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i:i + 4], "big")
        k += 1


def _uniform(words: Iterator[int], n: int) -> int:
    """A uniform integer in 0..n-1 by rejection sampling."""
    limit = 2**32 - (2**32 % n)
    while True:
        u = next(words)
        if u < limit:
            return u % n


def context(game: str, table: str, deal: int, seeds: Sequence[str]) -> bytes:
    """The bytes hashed into the deal's digest: a JSON array written without whitespace."""
    return json.dumps([SCHEME, game, table, deal, list(seeds)], separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def canonical_pack(game: str) -> list[str]:
    """The game's pack in the order the scheme starts from: suits S H D C, and in each suit
    the ranks ascending in the order 2 3 … T J Q K A, whatever order they rank in the game
    (Goat's ten ranks above its king, but it comes after the nine here)."""
    codes = game_class(game).pack().full_deck()
    return sorted(codes, key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0])))


def derive(game: str, table: str, deal: int, seeds: Sequence[str],
           secret: str) -> tuple[list[str], str | None]:
    """The deck (canonical codes, top first) and, for Goat, the shown trump card (else None)
    that a deal's secret and seeds give."""
    words = _words(secret, hashlib.sha256(context(game, table, deal, seeds)).digest())
    deck = canonical_pack(game)
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    if not game_class(game).shows_trump_card:
        return deck, None
    # GT-4: the shown trump card is a uniform card of the stock, deck[16 + uniform(20)]
    return deck, deck[STOCK.start + _uniform(words, len(STOCK))]


def check_proof(game: str, deal: int, fair: dict[str, Json], deck: Sequence[str],
                trump_card: str | None = None) -> str | None:
    """Why deal ``deal``'s proof fails (the first failing of commit, deck, trump_card), or None
    when it holds.  ``deck`` and ``trump_card`` are card codes as the (validated) record writes
    them, compared in canonical form; ``fair`` is form-checked and holds a ``secret``."""
    secret = fair["secret"]
    if commit(secret) != fair["commit"]:
        return "commit is not the SHA-256 of the secret"
    want, want_tc = derive(game, fair["table"], deal, fair["seeds"], secret)
    for pos, (code, expected) in enumerate(zip(deck, want, strict=True)):
        if parse_card(code) != expected:
            return (f"deck does not follow from the secret and seeds: deck[{pos}] is "
                    f"{parse_card(code)}, the proof gives {expected}")
    if want_tc is not None and trump_card is not None and parse_card(trump_card) != want_tc:
        return (f"trump_card does not follow from the secret and seeds: it is "
                f"{parse_card(trump_card)}, the proof gives {want_tc}")
    return None


def check_record(rec: dict[str, Json], summary: dict[str, Json]) -> None:
    """Check every fair deal of a validated, replayed record (NotFair for the first that
    fails) and mark each deal of its summary ``"fair"``: True when its proof was checked,
    None when it has no ``fair`` or no ``secret`` yet."""
    deals = summary["deals"]
    for i, d in enumerate(rec["deals"]):
        fair = d.get("fair")
        checked = None
        if fair is not None and "secret" in fair:
            reason = check_proof(rec["game"], i, fair, d["deck"], d.get("trump_card"))
            if reason is not None:
                raise NotFair(i, reason)
            checked = True
        if i < len(deals):
            deals[i] = {**deals[i], "fair": checked}  # a copy: the state keeps its own


def offline(rng: random.Random, num_seats: int) -> dict[str, Json]:
    """A ``fair`` object for a record made offline (table ``""``), its secret and seeds drawn
    from ``rng`` (so a seeded rng gives the same object); some seats give no seed."""
    secret = rng.randbytes(32).hex()
    seeds = ["" if rng.random() < 0.25 else
             "".join(rng.choice(_SEED_CHARS) for _ in range(rng.randint(1, 64)))
             for _ in range(num_seats)]
    return {"scheme": SCHEME, "table": "", "commit": commit(secret), "secret": secret,
            "seeds": seeds}
