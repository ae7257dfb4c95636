"""The loop of `taash play`: who acts next, the bots' moves, the player's turn, events told.

What the game says is its narration's (court.py, goat.py); the player's turn is turn.py's, and
what they typed is read by parse.py; how it looks is screen.py's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

from taash.games import CourtPiece, CourtPiece2P, Goat, IllegalAction, MalformedAction
from taash.games.base import Json, MatchState
from taash.play import parse
from taash.play.court import CourtTeams, CourtTwo
from taash.play.goat import GoatNarration
from taash.play.narrate import Narration, View
from taash.play.screen import Screen
from taash.play.turn import PlayerTurn, Quit

if TYPE_CHECKING:
    from taash.bots import Bot

NARRATIONS: dict[str, type[Narration]] = {
    CourtPiece.game_id: CourtTeams, CourtPiece2P.game_id: CourtTwo, Goat.game_id: GoatNarration}


@dataclass
class Table(PlayerTurn):
    """One player at a table of bots, for a whole match (the player's turn is
    ``PlayerTurn``'s)."""

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
        self.screen.heading(f"{self.narration.deal_word.capitalize()} {n + 1}")
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
                self.screen.heading("Match over")
                self.narration.tell_match_over(ev)

    def next_deal(self) -> None:
        if self.interactive and not self.match.is_over():
            # the next deal starts at once, and the bots may move before the player's turn
            word = self.narration.deal_word
            if self.ask(Text(f"Press Enter for the next {word} (q quits) > ")) in parse.QUIT_WORDS:
                raise Quit("You left the table.")
        else:
            self.screen.pause_a_bit()
