"""What a game family says at the table: the interface the loop calls, and what all share.

One narration per game, chosen once by game id (see ``taash.play.table.NARRATIONS``), so the
loop never asks which game it is playing.  Views and events are the core's JSON (DESIGN.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.text import Text

from taash.games.base import Json, MatchState
from taash.play.screen import Screen

View = Mapping[str, Json]  # a seat's view (DESIGN.md), read-only as the core gives it
Event = Mapping[str, Json]  # one event of ``apply``


class Narration:
    """Narrates one match for the player at ``screen``; subclasses say it for one game."""

    title: ClassVar[str]
    deal_word: ClassVar[str] = "deal"  # "Deal 1", "Press Enter for the next deal"
    dim_illegal: ClassVar[bool] = False  # grey out the cards of the hand that may not be played
    verbs: ClassVar[bool] = False  # answers name a verb (Goat's lead, beat, pass, molodka)

    def __init__(self, screen: Screen, match: MatchState) -> None:
        self.screen = screen
        self.match = match
        self.options = match.options  # with the defaults filled in

    def rules_text(self) -> str:
        raise NotImplementedError

    def announce(self, v: View) -> None:
        """The first lines of a deal, under its rule."""
        raise NotImplementedError

    def tell_action(self, ev: Event, typed: str) -> None:
        raise NotImplementedError

    def tell_trick(self, ev: Event, before: View) -> None:
        raise NotImplementedError

    def tell_deal_over(self, ev: Event) -> None:
        raise NotImplementedError

    def tell_match_over(self, ev: Event) -> None:
        raise NotImplementedError

    def standing(self) -> None:
        """The score so far, for a player who leaves early."""
        raise NotImplementedError

    def show_status(self, v: View) -> None:
        """The lines above the trick: trump, tricks, the match's score."""
        raise NotImplementedError

    def show_played(self, v: View) -> None:
        """The trick in progress (not empty)."""
        raise NotImplementedError

    def prompt(self, v: View, suit_menu: Sequence[str]) -> Text:
        raise NotImplementedError

    def help_lines(self, v: View) -> list[str]:
        raise NotImplementedError

    def legal_shown(self, v: View, numbered: Sequence[str], suit_menu: Sequence[str]) -> list[Text]:
        """The legal actions as the help lists them."""
        raise NotImplementedError

    def advise(self, v: View) -> None:
        """Advice said before the bot's suggestion (none by default)."""

    def tell_hint(self, action: str) -> None:
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------------
    def show_trick(self, v: View) -> None:
        if v["phase"] == "trump":
            return
        if not v["trick"]:
            self.screen.say("Table: empty",
                            " \u2014 you lead" if v["to_move"] == self.screen.human else "")
            return
        self.show_played(v)

    def winner(self) -> int | None:
        """The team (seat in two-player games) that won the match, None for a draw."""
        outcome = self.match.outcome()
        assert outcome is not None, "the match is over"
        return outcome.winner

    def after_trick(self, before: View) -> tuple[View, bool]:
        """The player's view after a trick, and whether the same deal goes on."""
        after = self.match.view(self.screen.human)
        return after, after["deal_number"] == before["deal_number"] and after["phase"] != "over"
