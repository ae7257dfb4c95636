"""What the player types at `taash play`, read into an action text or a command: no I/O.

The table asks and shows; these functions only read.  An answer is one of: a :class:`Command`
(quit, help, hint, the table again, or nothing to do), an action text for the core to judge
(``play:AS``, ``trump:H``, ``beat:9H``), or, in Goat, :class:`GoatCards` whose verb the table
still has to choose.  Text that cannot be read raises :class:`Unreadable` with the sentence to show.

>>> read_answer("10h", Turn(numbered=("AS", "TH")))
'play:TH'
>>> read_answer("2", Turn(numbered=("AS", "TH")))
'play:TH'
>>> read_answer("?", Turn())
<Command.HELP: 'help'>
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from taash.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, CardError, parse_card

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "help"})
TABLE_WORDS = frozenset({"t", "table", "show"})
GOAT_VERBS = {"l": "lead", "lead": "lead", "b": "beat", "beat": "beat", "p": "pass",
              "pass": "pass", "m": "molodka", "molodka": "molodka"}
SYMBOL_TO_SUIT = dict(zip(SUIT_SYMBOLS, SUITS, strict=True))
SUIT_WORDS = {**{s.lower(): s for s in SUITS}, **{n: SUITS[i] for i, n in enumerate(SUIT_NAMES)},
              **{n[:-1]: SUITS[i] for i, n in enumerate(SUIT_NAMES)}, **SYMBOL_TO_SUIT}


class Unreadable(ValueError):
    """An answer that is neither a command, a card nor an action; the message says why."""


class Command(StrEnum):
    QUIT = "quit"
    HELP = "help"
    HINT = "hint"
    TABLE = "table"
    NOTHING = "nothing"  # an empty answer: ask again


@dataclass(frozen=True)
class GoatCards:
    """Goat cards typed without a verb where more than one verb may fit (the table asks)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Turn:
    """What reading an answer depends on: the phase, the numbered hand, the trump menu."""

    goat: bool = False
    trump_call: bool = False  # Court Piece's trump call
    numbered: Sequence[str] = ()  # the hand as shown, card 1 first
    suit_menu: Sequence[str] = ()  # the suits offered at the call, choice 1 first
    hand: Sequence[str] = ()  # the hand in the core's order (Goat's molodka)
    can_molodka: bool = False
    leading: bool = False  # Goat: the player leads the trick


Answer = Command | str | GoatCards


def command(low: str) -> Command | None:
    """The command a lower-cased answer names, if any.

    >>> command("q"), command("show"), command("ah")
    (<Command.QUIT: 'quit'>, <Command.TABLE: 'table'>, None)
    """
    if not low:
        return Command.NOTHING
    if low in QUIT_WORDS:
        return Command.QUIT
    if low in HELP_WORDS:
        return Command.HELP
    if low == "hint":
        return Command.HINT
    if low in TABLE_WORDS:
        return Command.TABLE
    return None


def read_answer(answer: str, turn: Turn) -> Answer:
    """Read one stripped answer at the player's turn (Unreadable when it cannot be read).

    >>> read_answer("trump:Z", Turn(trump_call=True))  # the core will say why not
    'trump:Z'
    >>> read_answer("b 1", Turn(goat=True, numbered=("9H", "KH")))
    'beat:9H'
    >>> read_answer("kh", Turn(goat=True, numbered=("9H", "KH")))
    GoatCards(cards=('KH',))
    >>> read_answer("1 2", Turn(numbered=("9H", "KH")))
    Traceback (most recent call last):
    taash.play.parse.Unreadable: play one card at a time
    """
    low = answer.lower()
    said = command(low)
    if said is not None:
        return said
    if ":" in answer:
        return answer
    if turn.trump_call:
        return read_trump(low, turn.suit_menu)
    words = [w for w in re.split(r"[\s,]+", answer) if w]
    if not words:
        return Command.NOTHING
    verb = None
    if turn.goat and words[0].lower() in GOAT_VERBS:
        verb = GOAT_VERBS[words.pop(0).lower()]
        if verb == "molodka" and not words:
            if not turn.can_molodka:
                raise Unreadable("you cannot play a molodka now")
            return "molodka:" + ",".join(turn.hand)
        if not words:
            raise Unreadable(f"{verb} which cards?")
    cards = [read_card(w, turn.numbered) for w in words]
    if not turn.goat:
        if len(cards) != 1:
            raise Unreadable("play one card at a time")
        return "play:" + cards[0]
    if verb is not None:
        return f"{verb}:{','.join(cards)}"
    if turn.leading:
        return f"lead:{','.join(cards)}"
    return GoatCards(tuple(cards))


def read_trump(low: str, suit_menu: Sequence[str]) -> str:
    """The trump call for a number from the menu, a suit letter, name or symbol.

    >>> read_trump("2", ["S", "H"]), read_trump("hearts", []), read_trump("club", [])
    ('trump:H', 'trump:H', 'trump:C')
    """
    if low.isdigit():
        i = int(low)
        if not 1 <= i <= len(suit_menu):
            raise Unreadable(f"choose 1 to {len(suit_menu)}, or a suit letter")
        return "trump:" + suit_menu[i - 1]
    if low in SUIT_WORDS:
        return "trump:" + SUIT_WORDS[low]
    raise Unreadable(f"not a suit: {low!r} (type S, H, D or C, or a number from the list)")


def read_card(word: str, numbered: Sequence[str]) -> str:
    """A card code for a number from the shown hand or a card written leniently (10h, Q\u2665).

    >>> read_card("10\u2665", []), read_card("1", ["AS"])
    ('TH', 'AS')
    """
    if word.isdigit():
        i = int(word)
        if not 1 <= i <= len(numbered):
            raise Unreadable(f"no card number {i}: your cards are 1 to {len(numbered)}")
        return numbered[i - 1]
    w = word
    for sym, s in SYMBOL_TO_SUIT.items():
        w = w.replace(sym, s)
    try:
        return parse_card(w)
    except CardError:
        raise Unreadable(f"not a card or a number: {word!r} (type ? for help)") from None


def suit_menu(legal_actions: Sequence[str]) -> list[str]:
    """The suits that may be called, in the order S H D C (the menu's numbers).

    >>> suit_menu(["trump:C", "trump:S"])
    ['S', 'C']
    """
    return sorted((a.partition(":")[2] for a in legal_actions), key=SUITS.index)


def read_verb(low: str, fits: Sequence[str]) -> str | None:
    """The verb chosen from a menu of the verbs that fit (by number or word), or None.

    >>> read_verb("2", ["beat", "pass"]), read_verb("p", ["beat", "pass"]), read_verb("m", ["beat"])
    ('pass', 'pass', None)
    """
    if low.isdigit() and 1 <= int(low) <= len(fits):
        return fits[int(low) - 1]
    verb = GOAT_VERBS.get(low)
    return verb if verb in fits else None


def read_yes(low: str) -> bool | None:
    """y/yes is True, n/no or nothing False, anything else None.

    >>> read_yes("yes"), read_yes(""), read_yes("maybe")
    (True, False, None)
    """
    if low in ("y", "yes"):
        return True
    if low in ("", "n", "no"):
        return False
    return None
