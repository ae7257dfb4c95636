"""Two-player Court Piece (RULES.md TW-1..TW-6): the caller sees five cards and calls trump,
thirteen cards each, 26 out of play, first to seven tricks, match to ``target`` points.

>>> m = CourtPiece2P.new_match(seed=3, first_caller=0)
>>> m.actors(), len(m.view(0)["hand"]), len(m.view(1)["hand"])
([0], 5, 5)
"""

from __future__ import annotations

from typing import ClassVar

from taash.games.base import Check, Json, Outcome
from taash.games.options import Count, Option, bounds, checks, defaults
from taash.games.tricks import CALL, PLAY, TrickMatch, TrickPlay
from taash.games.types import (
    CourtPiece2PDeal,
    CourtPiece2PMatch,
    CourtPiece2PPublicView,
    CourtPiece2PSummary,
    CourtPiece2PView,
)

OPTIONS: tuple[Option, ...] = (  # RULES.md "Option bounds": 100 points at a table
    Count("target", 5, "Points to win", maximum=100, key="target_points"),)
DEFAULTS: dict[str, Json] = defaults(OPTIONS)
CHECKS: dict[str, Check] = checks(OPTIONS)
BOUNDS: dict[str, Check] = bounds(OPTIONS)
OUT_OF_PLAY = tuple(range(26, 52))


class CourtPiece2P(TrickMatch):
    game_id: ClassVar[str] = "court-piece-2p"
    name: ClassVar[str] = "Two-player Court Piece"
    text_name: ClassVar[str] = "two-player Court Piece"
    teams: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,))
    num_seats: ClassVar[int] = 2
    first_seat_key: ClassVar[str] = "first_caller"
    play_rule: ClassVar[str] = "TW-4"
    call_rule: ClassVar[str] = "TW-3"
    seat_word: ClassVar[str] = "caller"
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    DEFAULTS: ClassVar[dict[str, Json]] = DEFAULTS
    CHECKS: ClassVar[dict[str, Check]] = CHECKS
    BOUNDS: ClassVar[dict[str, Check]] = BOUNDS

    __slots__ = ("next_caller", "points", "_over", "_winner")
    _results: tuple[CourtPiece2PDeal, ...]

    def _init_match(self) -> None:
        self.next_caller = self.first_seat
        self.points = [0, 0]
        self._over = False
        self._winner: int | None = None

    def _copy_match_fields(self, other: TrickPlay) -> None:
        self.points = self.points[:]

    def _roles(self) -> tuple[int, int]:
        c = self.next_caller
        return 1 - c, c  # TW-2: the other player deals

    def _first_packets(self, caller: int) -> list[tuple[int, int, int]]:
        return [(caller, 0, 5), (1 - caller, 5, 10)]  # TW-3

    def _packets(self, caller: int) -> list[tuple[int, int, int]]:
        return [(caller, 10, 18), (1 - caller, 18, 26)]

    def _out_of_play(self) -> tuple[int, ...]:
        return OUT_OF_PLAY  # TW-3: deck[26:52], unseen by both

    def _trick_won(self, winner: int, card: int) -> bool:
        self.won[winner] += 1
        return self.won[winner] >= 7

    def _finish_deal(self, side: int) -> CourtPiece2PDeal:
        court = self.won[1 - side] == 0
        gain = 4 if court else (1 if side == self.caller else 2)  # TW-5
        scored = [0, 0]
        scored[side] = gain
        self.points[side] += gain
        self.next_caller = side
        if self.points[side] >= self.options["target"]:
            self._over, self._winner = True, side
        return {**self._deal_fields(), "complete": True, "winner": side,
                "tricks": list(self.won), "court": court, "scored": scored}

    def summary(self) -> CourtPiece2PSummary:
        deals = list(self._results)
        if self.phase in (CALL, PLAY):
            deals.append({**self._deal_fields(), "complete": False, "winner": None,
                          "tricks": None, "court": None, "scored": None})
        return {"game": self.game_id, "deals": deals, "match": self.match_summary()}

    def is_over(self) -> bool:
        return self._over

    def outcome(self) -> Outcome | None:
        """TW-6: the seat that reached the target first."""
        return Outcome(self._winner, False, "TW-6") if self._over else None

    def match_summary(self) -> CourtPiece2PMatch:
        return {"over": self._over, "winner": self._winner, "points": list(self.points)}

    def public_view(self) -> CourtPiece2PPublicView:
        summ = self.summary()
        return {**self._public_head(), "out_of_play": len(OUT_OF_PLAY), "deals": summ["deals"],
                "match": summ["match"], "over": self._over}

    def view(self, seat: int) -> CourtPiece2PView:
        return {**self.public_view(), **self._seat_part(seat)}

    def _over_rule(self) -> str:
        return "TW-6"
