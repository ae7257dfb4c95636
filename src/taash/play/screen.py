"""How `taash play` writes: seat names from the player's chair, cards and suits in colour, the hand.

Plain Rich text, one line at a time, so a transcript of piped input reads like a terminal.
``--plain`` (issue 50) is for a screen reader, which reads a terminal line by line: no colour
and no escape code at all, lines never broken by the console's width, cards and suits in words
("king of spades", not a red or black symbol), and nothing meant by colour alone: a card that
may not be played is said so, and the play winning the trick is marked in words, not by an arrow.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from taash.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS

RED_STYLE = "bold red3 on grey93"
BLACK_STYLE = "bold black on grey93"
Part = str | Text | tuple[str, str]


ARROW = "\u2192"  # a trick won: the line that says who takes it
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}


def make_console(plain: bool = False) -> Console:
    """The console to play on.  A terminal that cannot show the suit symbols gets letters for
    suits, and any other character it cannot show (a dash in a title) written as ``?``, rather
    than a traceback.  Plain: no colour system (Rich then writes no escape code, even where a
    terminal is forced), and a long line left whole for the terminal to wrap."""
    if plain:
        return Console(highlight=False, emoji=False, color_system=None, soft_wrap=True)
    if not can_write_symbols():
        reconfigure = getattr(sys.stdout, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    return Console(highlight=False, emoji=False)


def can_write_symbols() -> bool:
    enc = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "".join(SUIT_SYMBOLS).encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def suit_order(trump: str | None) -> list[str]:
    """Trumps first, then the other suits in the order S H D C.

    >>> suit_order("D")
    ['D', 'S', 'H', 'C']
    """
    return ([trump] if trump else []) + [s for s in SUITS if s != trump]


@dataclass
class Screen:
    """The console as one player at the table sees it."""

    console: Console
    human: int
    seats: int
    pause: float = 0.0
    symbols: bool = field(default_factory=can_write_symbols)
    #: the other player's name in a two-player game at a server table (None: the bot)
    opponent: str | None = None
    #: for a screen reader (``--plain``): words for cards and suits, nothing said by colour alone
    plain: bool = False

    @property
    def teams(self) -> bool:
        return self.seats == 4

    def name(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        if self.seats == 2:
            return f"{self.opponent or 'Bot'} ({seat})"
        where = ("You", "Left", "Partner", "Right")[(seat - self.human) % 4]
        return f"{where} ({seat})"

    def does(self, seat: int, verb: str) -> str:
        """``verb`` (third person) agreeing with the seat's name: "You play", "Left plays".

        >>> sc = Screen(Console(), human=0, seats=4)
        >>> sc.name(1), sc.does(1, "beats with"), sc.name(0), sc.does(0, "beats with")
        ('Left (1)', 'beats with', 'You', 'beat with')
        """
        if seat != self.human:
            return verb
        first, _, rest = verb.partition(" ")
        first = first[:-2] if first.endswith("sses") else first[:-1]
        return f"{first} {rest}".rstrip()

    def side_name(self, side: int) -> str:
        """A team (4 players) or a seat (2 players), from the player's point of view."""
        if self.teams:
            return "us" if side == self.human & 1 else "them"
        return "you" if side == self.human else (self.opponent or "bot")

    def sides(self, values: Sequence[object]) -> str:
        """A pair of scores, the player's side first.

        >>> Screen(Console(), human=1, seats=4).sides([3, 5]), Screen(Console(), 0, 2).sides([1, 2])
        ('us 5 \u00b7 them 3', 'you 1 \u00b7 bot 2')
        """
        mine = self.human & 1 if self.teams else self.human
        return f"{self.side_name(mine)} {values[mine]} \u00b7 {self.side_name(1 - mine)} " \
               f"{values[1 - mine]}"

    def them(self) -> str:
        """The other side of a two-player game, as a sentence starts it."""
        return self.opponent or "The bot"

    def suit(self, s: str) -> str:
        i = SUITS.index(s)
        if self.plain:
            return SUIT_NAMES[i]
        return f"{SUIT_SYMBOLS[i] if self.symbols else s} {SUIT_NAMES[i]}"

    def card(self, code: str) -> Text:
        """A card: "K♠" in colour, or in words ("king of spades") when plain.

        >>> Screen(Console(), 0, 2, plain=True).card("TH").plain
        '10 of hearts'
        """
        if self.plain:
            return Text(f"{RANK_WORDS.get(code[0], code[0])} of {SUIT_NAMES[SUITS.index(code[1])]}")
        rank = "10" if code[0] == "T" else code[0]
        sym = SUIT_SYMBOLS[SUITS.index(code[1])] if self.symbols else code[1]
        return Text(f"{rank}{sym}", style=RED_STYLE if code[1] in "HD" else BLACK_STYLE)

    def cards(self, codes: Sequence[str]) -> Text:
        return Text(", " if self.plain else " ").join(self.card(c) for c in codes)

    def marker(self, words: str) -> str:
        """What a play is now (winning, on top), after it: an arrow, or words in brackets."""
        return f"  ({words})" if self.plain else f"  \u2190 {words}"

    def sign(self, symbol: str, words: str = "") -> str:
        """A sign that starts a line (an arrow, a cross), or when plain its words (or nothing):
        a screen reader reads "rightwards arrow" aloud."""
        if self.plain:
            return f"{words} " if words else ""
        return f"{symbol} "

    def heading(self, title: str) -> None:
        """A part's title: a rule across the terminal, or (plain) the title as a line of its own
        (a screen reader would read every dash of the rule)."""
        if self.plain:
            self.console.print(f"{title}.")
        else:
            self.console.rule(title)

    def say(self, *parts: Part) -> None:
        self.console.print(Text.assemble(*parts))

    def pause_a_bit(self) -> None:
        if self.pause:
            time.sleep(self.pause * 1.5)

    def show_hand(self, hand: Sequence[str], trump: str | None, numbered: bool,
                  legal: Sequence[str] = (), dim_illegal: bool = False) -> list[str]:
        """Print the hand grouped by suit, trumps first (the core's order within each suit),
        numbered unless ``numbered`` is false; the cards as numbered (empty when not)."""
        order = [c for s in suit_order(trump) for c in hand if c[1] == s]
        legal_set = set(legal)
        if self.plain:
            return self.show_hand_plain(order, trump, numbered, legal_set, dim_illegal)
        self.say((f"Your hand ({len(order)}):", "bold"))
        i = 0
        for s in suit_order(trump):
            in_suit = [c for c in order if c[1] == s]
            if not in_suit:
                continue
            label = self.suit(s) + (" (trump)" if s == trump else "")
            line = Text(f"  {label:<20}")
            for c in in_suit:
                i += 1
                dim = dim_illegal and numbered and f"play:{c}" not in legal_set
                line.append(f"  {i}:" if numbered else " ", style="dim" if dim else "bold cyan")
                card = self.card(c)
                if dim:
                    card.stylize("dim")
                line.append_text(card)
            self.console.print(line)
        return order if numbered else []

    def show_hand_plain(self, order: list[str], trump: str | None, numbered: bool,
                        legal: set[str], restricted: bool) -> list[str]:
        """The hand for a screen reader: a line a suit, each card's number then its rank; a
        card that may not be played now is said so, and how many may be."""
        self.say(f"Your hand, {len(order)} card{'' if len(order) == 1 else 's'}:")
        may = [c for c in order if f"play:{c}" in legal]
        i = 0
        for s in suit_order(trump):
            parts = []
            for c in (c for c in order if c[1] == s):
                i += 1
                word = RANK_WORDS.get(c[0], c[0])
                no = restricted and numbered and c not in may
                said = (f"{i}: " if numbered else "") + word
                parts.append(said + (" (may not be played)" if no else ""))
            if parts:
                self.say(f"  {SUIT_NAMES[SUITS.index(s)].capitalize()}"
                         f"{' (trump)' if s == trump else ''}: {', '.join(parts)}.")
        if restricted and numbered and 0 < len(may) < len(order):
            self.say(f"You may play {len(may)} of your {len(order)} cards.")
        return order if numbered else []
