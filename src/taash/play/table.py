"""The loop of `taash play`: who acts next, the bots' moves, the player's turn, events told.

What the game says is its narration's (court.py, goat.py); what the player typed is read by
parse.py; how it looks is screen.py's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

from taash.games import IllegalAction, MalformedAction
from taash.games.base import Json, MatchState
from taash.play import parse
from taash.play.court import CourtTeams, CourtTwo
from taash.play.goat import GoatNarration
from taash.play.narrate import Narration, View
from taash.play.parse import Command, GoatCards, Unreadable
from taash.play.screen import Screen

if TYPE_CHECKING:
    from taash.bots import Bot

NARRATIONS: dict[str, type[Narration]] = {
    "court-piece": CourtTeams, "court-piece-2p": CourtTwo, "goat": GoatNarration}
HINT_MS = 400.0  # how long the hint may think


class Quit(Exception):
    """The player leaves the table (``q`` or end of input)."""


@dataclass
class Table:
    """One player at a table of bots, for a whole match."""

    match: MatchState
    screen: Screen
    bots: Mapping[int, Bot]
    hint_seed: int = 0
    interactive: bool = field(default_factory=lambda: sys.stdin.isatty())
    numbered: list[str] = field(default_factory=list)  # the hand as last shown, card 1 first
    suit_menu: list[str] = field(default_factory=list)  # the trump call's menu
    announced: int = -1
    narration: Narration = field(init=False)
    _hinter: Bot | None = None

    def __post_init__(self) -> None:
        self.narration = NARRATIONS[self.match.game_id](self.screen, self.match)

    @property
    def human(self) -> int:
        return self.screen.human

    def say(self, *parts: str | Text | tuple[str, str]) -> None:
        self.screen.say(*parts)

    # -- the main loop -----------------------------------------------------------------------
    def run(self) -> int:
        sc = self.screen
        self.say((self.narration.title, "bold"), f" \u2014 you are seat {self.human}",
                 f", partner seat {(self.human + 2) % 4}" if sc.teams else "",
                 ". Type ? for help, q to quit.")
        self.say(("Rules: " + self.narration.rules_text(), "dim"))
        try:
            while not self.match.is_over():
                self.announce_deal()
                self.step()
        except Quit as e:
            self.say(str(e))
            self.narration.standing()
        return 0

    def announce_deal(self) -> None:
        v = self.match.view(self.human)
        n = v["deal_number"]
        if n == self.announced or v["phase"] in ("over", "waiting"):
            return
        self.announced = n
        self.screen.console.rule(f"{self.narration.deal_word.capitalize()} {n + 1}")
        self.narration.announce(v)

    def step(self) -> None:
        """One action by someone: the seat to move always acts; others (Goat's molodka
        holders) may act first, the player being asked before any bot moves."""
        m = self.match
        actors = m.actors()
        v = m.view(self.human)
        to_move = v["to_move"]
        if self.human in actors and self.human != to_move:  # only a Goat molodka, out of turn
            hand = v["hand"]
            if self.ask_yes(Text.assemble(
                    "Your molodka ", self.screen.cards(hand),
                    f": play it now, before {self.screen.name(to_move)} moves? [y/N] ")):
                self.act(self.human, "molodka:" + ",".join(hand))
                return
        for s in actors:  # in GT-8 order; a bot out of turn may decline
            if s != self.human and self.bot_turn(s, optional=s != to_move):
                return
        if to_move == self.human:
            self.human_turn()

    def bot_turn(self, seat: int, optional: bool) -> bool:
        m = self.match
        action = self.bots[seat].act(m.view(seat))
        if action is None:
            if optional:
                return False
            action = m.legal_actions(seat)[0]
            self.say((f"(the bot at seat {seat} did not move; it plays {action})", "dim"))
        try:
            m.action_id(seat, action)
        except (IllegalAction, MalformedAction) as e:
            if optional:
                return False
            fallback = m.legal_actions(seat)[0]
            self.say((f"(the bot at seat {seat} chose {action!r}: {e}; it plays {fallback})",
                      "dim"))
            action = fallback
        if self.screen.pause:
            time.sleep(self.screen.pause)
        self.act(seat, action)
        return True

    def act(self, seat: int, action: str) -> None:
        """Apply an action and tell its events."""
        m = self.match
        before = m.view(self.human)
        action = m.action_text(m.action_id(seat, action))  # canonical, for the narration
        self.tell(m.apply(seat, action), action, before)

    def tell(self, events: Sequence[Mapping[str, Json]], action: str, before: View) -> None:
        """Narrate the events of one action (``before``: the player's view before it)."""
        for ev in events:
            kind = ev["type"]
            if kind == "action":
                self.narration.tell_action(ev, action)
            elif kind == "trick":
                self.narration.tell_trick(ev, before)
            elif kind == "deal_over":
                self.narration.tell_deal_over(ev)
                self.next_deal()
            elif kind == "match_over":
                self.screen.console.rule("Match over")
                self.narration.tell_match_over(ev)

    def next_deal(self) -> None:
        if self.interactive and not self.match.is_over():
            # the next deal starts at once, and the bots may move before the player's turn
            word = self.narration.deal_word
            if self.ask(Text(f"Press Enter for the next {word} (q quits) > ")) in parse.QUIT_WORDS:
                raise Quit("You left the table.")
        else:
            self.screen.pause_a_bit()

    # -- the player's turn -------------------------------------------------------------------
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
        self.say(("\u2717 ", "bold red"), why)

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
            from taash.bots import make_bot

            self._hinter = make_bot(self.match.game_id, "hard", self.hint_seed, budget_ms=HINT_MS)
        return self._hinter

    def show_hint(self, v: View) -> None:
        self.narration.advise(v)
        action = self.hinter().act(v)
        if not action:
            self.say("No suggestion.")
            return
        self.narration.tell_hint(action)
