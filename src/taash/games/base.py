"""What every game of the rules core shares: errors, action text, options and the protocol.

Actions are text at the edges (``verb:argument``) and small ints inside a game's hot loop.  A
game state offers both: ``legal_actions``/``apply`` take and give canonical strings, while
``legal_ids``/``apply_id`` are the fast path used by bots, simulation and benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, Self

from taash.cards import CardError, Pack, parse_card

# the option checks' long-standing home: re-exported for the modules that import them here
from taash.games.options import Check as Check
from taash.games.options import Json as Json
from taash.games.options import Option as Option
from taash.games.options import at_most as at_most
from taash.games.options import is_int as is_int
from taash.games.options import one_of as one_of
from taash.games.options import positive_int as positive_int

CARD_VERBS = frozenset({"play", "lead", "beat", "pass", "molodka"})

# The sentences an illegal action's ``key`` may name (a client has words for each of them).
ILLEGAL_KEYS = frozenset({
    "match_over", "deal_over", "game_over", "trump_called", "only_caller", "trump_first",
    "not_your_turn", "not_held", "must_follow", "trump_most_held", "already_led",
    "lead_one_suit", "you_lead", "play_exactly", "does_not_beat", "molodka_four",
    "put_in_do_not_count", "molodka_once", "already_played", "molodka_lead",
})


class IllegalAction(ValueError):
    """An action the rules do not allow now.  Raised before anything changes.

    ``message`` is English; ``key`` and ``params`` (where given) name the same sentence for a
    client that shows it in another language (cards as codes like ``AS``, suits as letters)."""

    def __init__(self, rule: str, message: str, key: str | None = None,
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
        if key is not None and key not in ILLEGAL_KEYS:
            raise ValueError(f"unknown illegal-action key {key!r}")
        self.key = key
        self.params = params or {}


class MalformedAction(ValueError):
    """Action text whose card argument does not parse (RECORD.md: malformed, exit 2)."""


class RecordError(ValueError):
    """A record, deck or option set that is not well formed."""


class OptionError(RecordError):
    """An unknown option or a bad option value."""


@dataclass(frozen=True, slots=True)
class ParsedAction:
    """An action split into its verb and argument; ``cards`` holds canonical codes for card
    verbs (possibly empty), ``arg`` the stripped argument text for every verb."""

    verb: str
    arg: str
    cards: tuple[str, ...]


def parse_action(text: str) -> ParsedAction:
    """Split ``verb:argument`` leniently (RULES.md, Common: Actions).

    >>> parse_action(" Play : 10s ")
    ParsedAction(verb='play', arg='10s', cards=('TS',))
    >>> parse_action("beat: th , 7d").cards
    ('TH', '7D')
    """
    if not isinstance(text, str):
        raise MalformedAction("an action must be text like play:AS")
    verb, sep, arg = text.partition(":")
    verb = verb.strip().lower()
    arg = arg.strip()
    if not sep:
        return ParsedAction(verb, "", ())
    cards: tuple[str, ...] = ()
    if verb in CARD_VERBS and arg:
        pieces = [p.strip() for p in arg.split(",")]
        out = []
        for p in pieces:
            if not p:
                raise MalformedAction(f"empty card in {text.strip()!r}")
            try:
                out.append(parse_card(p))
            except CardError as e:
                raise MalformedAction(f"{e} in {text.strip()!r}") from None
        cards = tuple(out)
    return ParsedAction(verb, arg, cards)


def cards_mask(pack: Pack, cards: Sequence[str], rule: str) -> int:
    """Bitmask of parsed card codes; illegal if one is repeated or not in this pack."""
    m = 0
    for c in cards:
        if not pack.has(c):
            raise IllegalAction(rule, f"{c} is not a card of this game's pack")
        b = 1 << pack.index(c)
        if m & b:
            raise IllegalAction(rule, f"{c} is named twice")
        m |= b
    return m


def team_of(seat: int) -> int:
    return seat & 1


def check_deck(pack: Pack, deck: object, where: str = "deck") -> list[int]:
    """Card indexes of a deck that must be a permutation of ``pack`` (RecordError if not)."""
    if not isinstance(deck, list):
        raise RecordError(f"{where}: must be a list of card codes")
    out = []
    seen = 0
    for i, code in enumerate(deck):
        if not isinstance(code, str):
            raise RecordError(f"{where}[{i}]: must be a card code, not {json_type(code)}")
        try:
            c = parse_card(code)
        except CardError as e:
            raise RecordError(f"{where}[{i}]: {e}") from None
        if not pack.has(c):
            raise RecordError(f"{where}[{i}]: {c} is not a card of this game's pack")
        idx = pack.index(c)
        if seen >> idx & 1:
            raise RecordError(f"{where}[{i}]: {c} appears twice")
        seen |= 1 << idx
        out.append(idx)
    if len(out) != pack.size:
        raise RecordError(f"{where}: must hold all {pack.size} cards, has {len(out)}")
    return out


def json_type(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    return "an object"


def check_options(game: str, given: object, defaults: Mapping[str, Json],
                  checks: Mapping[str, Check],
                  bounds: Mapping[str, Check] | None = None) -> dict[str, Json]:
    """Options merged over defaults; each given value is checked by ``checks[name](value)``,
    which returns an error text or None, and then, if given, by ``bounds[name](value)``
    (RULES.md "Option bounds": what a table accepts, where a record accepts any size)."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise OptionError(f"options must be an object, not {json_type(given)}")
    out = dict(defaults)
    for k, v in given.items():
        if k not in defaults:
            known = ", ".join(defaults)
            raise OptionError(f"unknown option {k!r} for {game} (options: {known})")
        problem = checks[k](v)
        if not problem and bounds is not None and k in bounds:
            problem = bounds[k](v)
        if problem:
            raise OptionError(f"option {k}: {problem}")
        out[k] = v
    return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended (``state.outcome()``; None until it is over).

    ``winner`` is a team (0 or 1) in four-player games and a seat in two-player Court Piece,
    None on a draw; ``reason`` names the rule that ended the match (CP-11, TW-6, GT-12).  In
    Goat the summaries keep naming the goat (``loser``); the Outcome names the other team.

    >>> Outcome(1, False, "GT-12").winner
    1
    """

    winner: int | None
    draw: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Packet:
    """Deck positions ``start:stop`` (top card first) dealt to ``seat``, in that order."""

    seat: int
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class DealSlots:
    """Where the cards of a deal go (``state.deal_slots()``, CP-3, TW-3, GT-3, GT-4).

    ``packets`` in dealing order; the first ``before_call`` of them are dealt before the trump
    call (Court Piece), the rest after it.  ``stock``: deck positions left to draw, in drawing
    order (Goat).  ``trump_card``: the deck position of the shown trump card (Goat, once dealt;
    None otherwise).  ``out_of_play``: positions no one is dealt (two-player Court Piece).
    ``hand_size``: cards a hand holds when the deal is complete (Court Piece) or full (Goat).

    >>> s = DealSlots((Packet(1, 0, 5), Packet(0, 5, 10), Packet(1, 10, 13)), hand_size=8)
    >>> s.positions(1), s.positions(0, before_call_only=True)
    ((0, 1, 2, 3, 4, 10, 11, 12), (5, 6, 7, 8, 9))
    """

    packets: tuple[Packet, ...]
    stock: tuple[int, ...] = ()
    trump_card: int | None = None
    hand_size: int = 0
    before_call: int = 0
    out_of_play: tuple[int, ...] = ()

    def positions(self, seat: int, before_call_only: bool = False) -> tuple[int, ...]:
        """The deck positions dealt to ``seat``, in the order received (only those dealt
        before the trump call with ``before_call_only``; every packet when no call splits
        the deal)."""
        packets = self.packets[:self.before_call] if before_call_only and self.before_call \
            else self.packets
        return tuple(i for p in packets if p.seat == seat for i in range(p.start, p.stop))


class MatchState(Protocol):
    """The protocol every game's match state follows (DESIGN.md)."""

    game_id: ClassVar[str]
    num_seats: ClassVar[int]
    first_seat_key: ClassVar[str]
    options: dict[str, Json]

    def actors(self) -> list[int]: ...
    def legal_actions(self, seat: int) -> list[str]: ...
    def legal_ids(self, seat: int) -> list[int]: ...
    def apply(self, seat: int, action: str) -> Sequence[Mapping[str, Json]]: ...
    def apply_id(self, seat: int, action: int) -> None: ...
    def action_text(self, action: int) -> str: ...
    def action_id(self, seat: int, action: str) -> int: ...
    def clone(self, keep_rng: bool = False) -> MatchState: ...
    def turn(self) -> int | None: ...
    def view(self, seat: int) -> Mapping[str, Json]: ...
    def public_view(self) -> Mapping[str, Json]: ...
    def summary(self) -> Mapping[str, Json]: ...
    def record(self, hide_current: bool = False) -> dict[str, Json]: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def over_rule(self) -> str: ...
    def needs_deal(self) -> bool: ...
    def deal(self, deck: Sequence[str], trump_card: str | None = None) -> None: ...
    def deal_from(self, rng: random.Random) -> None: ...
    def deal_slots(self) -> DealSlots: ...


class GameClass(Protocol):
    """What a game's class offers before there is a match (``get_game(id)``)."""

    @property
    def game_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def num_seats(self) -> int: ...
    @property
    def teams(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def first_seat_key(self) -> str: ...
    @property
    def seat_word(self) -> str: ...
    @property
    def OPTIONS(self) -> tuple[Option, ...]: ...
    @property
    def text_name(self) -> str: ...
    @property
    def shows_trump_card(self) -> bool: ...
    @property
    def plays_card_sets(self) -> bool: ...
    @property
    def deal_unit(self) -> str: ...

    def __call__(self, options: dict[str, Json], first_seat: int,
                 rng: random.Random | None = None, /) -> MatchState: ...
    def pack(self) -> Pack: ...
    def check_options(self, options: object, *, bounded: bool = False) -> dict[str, Json]: ...
    def new_match(self, options: object = None, *, seed: int | None = None,
                  rng: random.Random | None = None, deal: bool = True,
                  first_seat: int | None = None) -> MatchState: ...



class MatchBase:
    """What every game's class does the same way: options checked against its ``DEFAULTS`` and
    ``CHECKS``, and ``new_match``.  A game gives ``game_id``, ``num_seats``, ``first_seat_key``
    and ``seat_word`` (what its first seat is: ``"dealer"`` or ``"caller"``)."""

    __slots__ = ()

    game_id: ClassVar[str] = ""
    #: the game's English name (the page has its own words for the games it knows)
    name: ClassVar[str] = ""
    #: the name inside a sentence or a title of the terminal ("two-player Court Piece"); a
    #: class that gives a ``name`` and no ``text_name`` is called by its name
    text_name: ClassVar[str] = ""
    num_seats: ClassVar[int] = 4
    #: the seats of each side that wins or loses together (one seat each where all play alone)
    teams: ClassVar[tuple[tuple[int, ...], ...]] = ((0, 2), (1, 3))
    first_seat_key: ClassVar[str] = "first_dealer"
    seat_word: ClassVar[str] = "dealer"
    #: What code that serves every game (records, fair deals, the review, the adapters) asks
    #: of a game instead of its id.  ``shows_trump_card``: trump is a card shown from the stock
    #: as the deal is dealt (GT-4), not called, so a deal's record holds that card.
    shows_trump_card: ClassVar[bool] = False
    #: an action plays a set of cards under a verb (Goat's lead, beat, pass and molodka, the
    #: molodka out of turn: GT-7, GT-8), not one card to a trick
    plays_card_sets: ClassVar[bool] = False
    #: what a deal is won on: "tricks" (taken, or collected in double sar) or "points" (card
    #: points, GT-10)
    deal_unit: ClassVar[str] = "tricks"
    #: the options, stated once (taash.games.options): DEFAULTS, CHECKS and BOUNDS are read
    #: from them, and so is the page's new-table form (GET /api/games)
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    DEFAULTS: ClassVar[Mapping[str, Json]] = {}
    CHECKS: ClassVar[Mapping[str, Check]] = {}
    #: upper bounds a table (the server's, the terminal's) puts on options; records take any
    BOUNDS: ClassVar[Mapping[str, Check]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__ and "text_name" not in cls.__dict__:
            cls.text_name = cls.name  # a game renamed by a subclass is not called the old name

    def __init__(self, options: dict[str, Json], first_seat: int,
                 rng: random.Random | None = None) -> None:
        raise NotImplementedError

    @classmethod
    def check_options(cls, options: object, *, bounded: bool = False) -> dict[str, Json]:
        """The options of a new match: ``options`` (an object or None) over the defaults;
        OptionError naming the option and what it must be.  ``bounded``: also within
        ``BOUNDS`` (RULES.md "Option bounds"), for a table to be played rather than a record
        read."""
        return check_options(cls.game_id, options, cls.DEFAULTS, cls.CHECKS,
                             cls.BOUNDS if bounded else None)

    @classmethod
    def new_match(cls, options: object = None, *, seed: int | None = None,
                  rng: random.Random | None = None, deal: bool = True,
                  first_seat: int | None = None, **first: int | None) -> Self:
        """A new match; with a seed (or rng) its decks are shuffled from it, and the first
        dealer or caller (``first_seat``, or the game's own ``first_dealer``/``first_caller``)
        is drawn from it unless given.  ``deal=False`` waits for ``deal(deck)``."""
        opts = cls.check_options(options)
        for key, seat in first.items():
            if key != cls.first_seat_key:
                raise TypeError(f"new_match() got an unexpected keyword argument {key!r}")
            if seat is not None:
                first_seat = seat
        rng, seat0 = _first_seat(cls.num_seats, first_seat, seed, rng, cls.seat_word)
        return cls(opts, seat0, rng if deal else None)


def _first_seat(num_seats: int, seat: object, seed: int | None, rng: random.Random | None,
                what: str) -> tuple[random.Random, int]:
    """The rng of a new match (from ``seed`` unless given) and its first dealer or caller:
    ``seat`` if given (checked), else drawn from that rng."""
    if rng is None:
        rng = random.Random(seed)
    if seat is None:
        return rng, rng.randrange(num_seats)
    if not (is_int(seat) and 0 <= seat < num_seats):
        raise OptionError(f"the first {what} must be a seat 0..{num_seats - 1}")
    return rng, seat


def shuffled(pack: Pack, rng: random.Random) -> list[str]:
    deck = pack.full_deck()
    rng.shuffle(deck)
    return deck
