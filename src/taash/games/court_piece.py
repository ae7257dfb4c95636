"""Court Piece for four players (RULES.md CP-1..CP-11): single or double sar, the ace rule,
free or most-held trump calls, coats, dealer rotation and sessions.

>>> m = CourtPiece.new_match(seed=1, first_dealer=0)
>>> m.actors(), m.legal_actions(1)
([1], ['trump:C', 'trump:D', 'trump:H', 'trump:S'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from taash.cards import SUIT_NAMES, SUITS
from taash.games.base import Check, IllegalAction, Json, Outcome
from taash.games.options import Choice, CountOf, Flag, Option, Unit, bounds, checks, defaults
from taash.games.tricks import ACE, CALL, PLAY, TRUMP_BASE, TrickMatch, TrickPlay, most_held
from taash.games.types import (
    CollectorJson,
    CourtPieceDeal,
    CourtPieceMatch,
    CourtPiecePublicView,
    CourtPieceSummary,
    CourtPieceView,
)

OPTIONS: tuple[Option, ...] = (
    Choice("sar", "single", ("single", "double"), "Sar", ("Single sar", "Double sar")),
    Flag("ace_rule", False, "Ace rule (double sar)", needs={"sar": "double"}),  # CP-8
    Choice("trump_rule", "free", ("free", "most-held"), "Trump call",
           ("Any suit", "Most-held suit")),
    # RULES.md "Option bounds": 50 coats, 500 deals at a table
    CountOf("session_end", {"coats": 2}, "Session ends",
            (Unit("coats", "After N coats", "Coats to win", 2, 50),
             Unit("deals", "After N deals", "Number of deals", 4, 500)),
            count_key="session_n", open_label="Open-ended"),
)
DEFAULTS: dict[str, Json] = defaults(OPTIONS)
CHECKS: dict[str, Check] = checks(OPTIONS)
BOUNDS: dict[str, Check] = bounds(OPTIONS)


@dataclass(frozen=True, slots=True)
class Collector:
    """The double-sar pile in the trick in progress (CP-7, CP-8).

    ``pile``: tricks lying in the pile.  ``seat``: the player who won the trick before and so
    collects the pile (this trick included) by winning this one, or None; under the ace rule
    (CP-8) they do not collect if their winning card is an ace, and keep the chance.  ``last``:
    this is the 13th trick, whose winner collects the pile whatever happened before (CP-7d).
    """

    pile: int
    seat: int | None
    last: bool

    def as_json(self) -> CollectorJson:
        return {"pile": self.pile, "seat": self.seat, "last": self.last}


def collect_step(chain: int, trick_no: int, winner: int, card: int,
                 ace_rule: bool) -> tuple[bool, int]:
    """CP-7, CP-8 for one finished trick in double sar: ``trick_no`` (1..13) was won by
    ``winner`` with ``card``; ``chain`` is the seat that won the trick before and may collect
    (-1: no one).  Returns (whether the pile is collected now, the new chain).  ``_trick_won``
    keeps the same steps inline for speed; a test holds the two together.

    >>> collect_step(-1, 1, 2, 0, False), collect_step(-1, 2, 2, 0, False)
    ((False, -1), (False, 2))
    >>> collect_step(2, 3, 2, 0, False), collect_step(2, 3, 2, 12, True)  # 12: the ace of S
    ((True, -1), (False, 2))
    >>> collect_step(-1, 13, 1, 12, True)
    (True, -1)
    """
    if trick_no == 13:
        return True, -1  # CP-7d: the last trick collects whatever is in the pile
    if trick_no > 1 and chain == winner and not (ace_rule and card in ACE):
        return True, -1  # CP-7b, CP-7c: the collecting trick does not start the next pair
    return False, winner if trick_no > 1 else -1  # CP-7a; CP-8: an ace trick still counts


class CourtPiece(TrickMatch):
    """A session of four-player Court Piece, team 0 = seats 0 and 2, team 1 = seats 1 and 3."""

    game_id: ClassVar[str] = "court-piece"
    name: ClassVar[str] = "Court Piece"
    text_name: ClassVar[str] = "Court Piece"
    num_seats: ClassVar[int] = 4
    first_seat_key: ClassVar[str] = "first_dealer"
    seat_word: ClassVar[str] = "dealer"
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    DEFAULTS: ClassVar[dict[str, Json]] = DEFAULTS
    CHECKS: ClassVar[dict[str, Check]] = CHECKS
    BOUNDS: ClassVar[dict[str, Check]] = BOUNDS

    __slots__ = ("double", "ace_rule", "most_held_rule", "next_dealer", "deals_won", "coats",
                 "_over", "_winner")
    _results: tuple[CourtPieceDeal, ...]

    def _init_match(self) -> None:
        o = self.options
        self.double = o["sar"] == "double"
        self.ace_rule = self.double and bool(o["ace_rule"])
        self.most_held_rule = o["trump_rule"] == "most-held"
        self.next_dealer = self.first_seat
        self.deals_won = [0, 0]
        self.coats = [0, 0]
        self._over = False
        self._winner: int | str | None = None

    def _copy_match_fields(self, other: TrickPlay) -> None:
        self.deals_won = self.deals_won[:]
        self.coats = self.coats[:]

    def _roles(self) -> tuple[int, int]:
        d = self.next_dealer
        return d, (d + 1) % 4  # CP-2: the caller sits on the dealer's left

    def _first_packets(self, caller: int) -> list[tuple[int, int, int]]:
        c = caller  # CP-3: five each from the caller on, then the call
        return [((c + i) % 4, 5 * i, 5 * i + 5) for i in range(4)]

    def _packets(self, caller: int) -> list[tuple[int, int, int]]:
        c = caller  # CP-3: then four each, twice
        return ([((c + i) % 4, 20 + 4 * i, 24 + 4 * i) for i in range(4)]
                + [((c + i) % 4, 36 + 4 * i, 40 + 4 * i) for i in range(4)])

    def _trump_ids(self) -> list[int]:
        if self.most_held_rule:
            return [TRUMP_BASE + s for s in most_held(self.hands[self.caller])]
        return [TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3]

    def _check_trump(self, suit: int) -> None:
        if self.most_held_rule:
            best = most_held(self.hands[self.caller])
            if suit not in best:
                names = " or ".join(SUIT_NAMES[s] for s in best)
                raise IllegalAction("CP-4", f"trump must be a suit you hold most of: {names}",
                                    "trump_most_held",
                                    {"suits": "".join(SUITS[s] for s in best)})

    def _trick_won(self, winner: int, card: int) -> bool:
        team = winner & 1
        won = self.won
        if not self.double:  # CP-6: every trick counts at once
            won[team] += 1
            return won[team] >= 7
        n = self.tricks_played
        self.pile += 1
        if n == 13:  # CP-7d / CP-8: the last trick collects whatever is in the pile
            won[team] += self.pile
            self.pile = 0
        elif n > 1 and self.chain == winner and not (self.ace_rule and card in ACE):
            won[team] += self.pile  # CP-7: two in a row by the same player collects
            self.pile = 0
            self.chain = -1  # CP-7c: the collecting trick does not start the next pair
        else:
            self.chain = winner if n > 1 else -1  # CP-7a; CP-8: an ace trick still counts
        return won[team] >= 7

    def _finish_deal(self, side: int) -> CourtPieceDeal:
        coat = self.won[1 - side] == 0  # CP-9: the other team took or collected no trick
        self.deals_won[side] += 1
        if coat:
            self.coats[side] += 1
        dealer_team = self.dealer & 1
        if side == dealer_team:
            self.next_dealer = (self.dealer + 1) % 4  # CP-10
        elif coat:
            self.next_dealer = (self.dealer + 2) % 4
        else:
            self.next_dealer = self.dealer
        fields: CourtPieceDeal = {**self._deal_fields(), "complete": True, "winner": side,
                                  "tricks": list(self.won), "coat": coat}
        end = self.options["session_end"]
        played = len(self._results) + 1
        if end is None:
            pass
        elif "coats" in end:
            if self.coats[side] >= end["coats"]:
                self._over, self._winner = True, side
        elif played >= end["deals"]:
            self._over = True
            c, d = self.coats, self.deals_won
            if c[0] != c[1]:
                self._winner = 0 if c[0] > c[1] else 1
            elif d[0] != d[1]:
                self._winner = 0 if d[0] > d[1] else 1
            else:
                self._winner = "draw"
        return fields

    def summary(self) -> CourtPieceSummary:
        deals = list(self._results)
        if self.phase in (CALL, PLAY):
            deals.append({**self._deal_fields(), "complete": False, "winner": None,
                          "tricks": None, "coat": None})
        return {"game": self.game_id, "deals": deals, "match": self.match_summary()}

    def is_over(self) -> bool:
        return self._over

    def outcome(self) -> Outcome | None:
        """CP-11: the winning team, or a draw after ``{"deals": N}`` with everything level."""
        if not self._over:
            return None
        if self._winner == "draw":
            return Outcome(None, True, "CP-11")
        assert isinstance(self._winner, int)
        return Outcome(self._winner, False, "CP-11")

    def collector(self) -> Collector | None:
        """The double-sar pile and who collects it by winning the trick in progress (CP-7,
        CP-8); None in single sar or between deals."""
        if not self.double or self.phase not in (CALL, PLAY):
            return None
        return Collector(self.pile, self.chain if self.chain >= 0 else None,
                         self.tricks_played == 12)

    def match_summary(self) -> CourtPieceMatch:
        return {"over": self._over, "winner": self._winner, "deals_won": list(self.deals_won),
                "coats": list(self.coats)}

    def public_view(self) -> CourtPiecePublicView:
        c = self.collector()
        summ = self.summary()
        return {**self._public_head(), "pile": self.pile if self.double else 0,
                "teams": [[0, 2], [1, 3]], "collector": c.as_json() if c is not None else None,
                "deals": summ["deals"], "match": summ["match"], "over": self._over}

    def view(self, seat: int) -> CourtPieceView:
        return {**self.public_view(), **self._seat_part(seat)}

    def _over_rule(self) -> str:
        return "CP-11"


__all__ = ["Collector", "CourtPiece", "DEFAULTS", "SUITS", "collect_step"]
