"""The player's turn at a `taash play` table: the table shown, what they type read (parse.py)
and answered, Goat's verb chosen when the cards fit several, help and hints.  The loop around
it is table.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from taash.bots import make_bot
from taash.games import IllegalAction, MalformedAction
from taash.games.base import MatchState
from taash.play import parse
from taash.play.narrate import Narration, View
from taash.play.parse import Command, GoatCards, Unreadable
from taash.play.screen import Screen

if TYPE_CHECKING:
    from taash.bots import Bot

HINT_MS = 400.0  # how long the hint may think


class Quit(Exception):
    """The player leaves the table (``q`` or end of input)."""


class PlayerTurn:
    """The player's side of a ``Table``: asking, reading, refusing, helping."""

    match: MatchState
    screen: Screen
    narration: Narration
    interactive: bool
    hint_seed: int
    numbered: list[str]
    suit_menu: list[str]
    _hinter: Bot | None

    @property
    def human(self) -> int:
        return self.screen.human

    def say(self, *parts: str | Text | tuple[str, str]) -> None:
        self.screen.say(*parts)

    def act(self, seat: int, action: str) -> None:
        raise NotImplementedError

    def show_table(self, v: View) -> None:
        self.screen.console.print()
        self.narration.show_status(v)
        self.narration.show_trick(v)
        self.numbered = self.screen.show_hand(
            v["hand"], v.get("trump"), numbered=v["phase"] != "trump", legal=v["legal_actions"],
            dim_illegal=self.narration.dim_illegal)

    def ask(self, prompt: Text) -> str:
        try:
            line = self.screen.console.input(prompt)
        except EOFError:
            self.screen.console.print()
            raise Quit("End of input: you left the table.") from None
        if not self.interactive:  # piped answers: show them, so the transcript reads well
            self.screen.console.print(line, markup=False, highlight=False)
        return line.strip()

    def ask_yes(self, prompt: Text) -> bool:
        while True:
            answer = self.ask(prompt).lower()
            yes = parse.read_yes(answer)
            if yes is not None:
                return yes
            if answer in parse.QUIT_WORDS:
                raise Quit("You left the table.")
            self.say("Answer y or n (q quits).")

    def human_turn(self) -> None:
        v = self.match.view(self.human)
        self.show_table(v)
        while True:
            if v["phase"] == "trump":
                self.suit_menu = parse.suit_menu(v["legal_actions"])
            answer = self.ask(self.narration.prompt(v, self.suit_menu))
            try:
                action = self.understand(answer, v)
            except Unreadable as e:
                self.refused(str(e))
                continue
            if action is None:
                continue
            try:
                self.match.action_id(self.human, action)
            except (IllegalAction, MalformedAction) as e:
                self.refused(str(e))
                continue
            self.act(self.human, action)
            return

    def refused(self, why: str) -> None:
        self.say((self.screen.sign("\u2717", "Not allowed:"), "bold red"), why)

    def understand(self, answer: str, v: View) -> str | None:
        """Action text for what the player typed, or None after a command (Unreadable when it
        cannot be read)."""
        turn = parse.Turn(goat=self.narration.verbs, trump_call=v["phase"] == "trump",
                          numbered=self.numbered, suit_menu=self.suit_menu, hand=v["hand"],
                          can_molodka=bool(v.get("can_molodka")),
                          leading=not v["trick"] and v["to_move"] == self.human)
        read = parse.read_answer(answer, turn)
        if isinstance(read, GoatCards):
            return self.choose_verb(list(read.cards))
        if not isinstance(read, Command):
            return read
        if read is Command.QUIT:
            raise Quit("You left the table.")
        if read is Command.HELP:
            self.show_help(v)
        elif read is Command.HINT:
            self.show_hint(v)
        elif read is Command.TABLE:
            self.show_table(v)
        return None

    def choose_verb(self, cards: list[str]) -> str | None:
        """Goat cards typed without a verb: the verb that fits, or the player's choice."""
        arg = ",".join(cards)
        fits = [w for w in ("beat", "pass", "molodka") if self.is_legal(f"{w}:{arg}")]
        if not fits:
            return f"pass:{arg}"  # the core says why (count, cards not held)
        if len(fits) == 1:
            return f"{fits[0]}:{arg}"
        menu = Text("  ").join(Text.assemble((f"{i + 1}:", "bold cyan"), w)
                               for i, w in enumerate(fits))
        prompt = Text.assemble(self.screen.cards(cards), ": ", menu, "? ")
        while True:
            answer = self.ask(prompt).lower()
            if answer in parse.QUIT_WORDS:
                raise Quit("You left the table.")
            if not answer:
                return None
            verb = parse.read_verb(answer, fits)
            if verb is not None:
                return f"{verb}:{arg}"
            self.say(f"Type {' or '.join(w[0] for w in fits)} (or a number; Enter to choose "
                     "other cards).")

    def is_legal(self, action: str) -> bool:
        try:
            self.match.action_id(self.human, action)
        except (IllegalAction, MalformedAction):
            return False
        return True

    # -- help and hints ----------------------------------------------------------------------
    def show_help(self, v: View) -> None:
        for line in self.narration.help_lines(v):
            self.say(line)
        self.say("Other commands: hint (a suggestion), t (the table again), ? (this help), "
                 "q (quit).")
        shown = self.narration.legal_shown(v, self.numbered, self.suit_menu)
        more = f" \u2026 and {len(shown) - 40} more" if len(shown) > 40 else ""
        self.screen.console.print(Text.assemble((f"Legal now ({len(shown)}): ", "bold"),
                                                Text(" \u00b7 ").join(shown[:40]), more))

    def hinter(self) -> Bot:
        if self._hinter is None:
            self._hinter = make_bot(self.match.game_id, "hard", self.hint_seed, budget_ms=HINT_MS)
        return self._hinter

    def show_hint(self, v: View) -> None:
        self.narration.advise(v)
        action = self.hinter().act(v)
        if not action:
            self.say("No suggestion.")
            return
        self.narration.tell_hint(action)
