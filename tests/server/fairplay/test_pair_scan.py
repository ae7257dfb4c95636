"""What the server's scan keeps for a partnership (docs/fairplay.md, "Partnerships in the
server"), without searching: the sides scored (two players of a game played two against two,
never a side with a bot), and each side's opportunities of its game's statistic, as
``taash.fairplay.score.verdicts`` weighs a partnership (partner-fit; Goat: the two seats'
open-best opportunities pooled)."""

from __future__ import annotations

from taash.fairplay.score import Opportunity, Scan
from taash.server.fairplay.scan import pair_found, sides_of


def test_only_sides_of_two_players_in_a_partnership_game_are_scored() -> None:
    assert sides_of("court-piece", {0: "a", 1: "b", 2: "c", 3: "d"}) == [(0, 2), (1, 3)]
    assert sides_of("goat", {0: "a", 2: "c", 3: "d"}) == [(0, 2)]  # seat 1 a bot
    assert sides_of("court-piece", {0: "a", 1: "b"}) == []
    assert sides_of("court-piece-2p", {0: "a", 1: "b"}) == []


def scan(game: str) -> Scan:
    def op(seat: int, kind: str, hit: bool) -> Opportunity:
        return Opportunity("t", 0, 10 + seat, seat, game, kind, hit)
    return Scan("t", ["a", "b", "c", "d"], [(0, 2), (1, 3)], [3, 4, 5, 6], 2,
                opportunities=[op(0, "lead", True), op(2, "follow", False), op(1, "lead", True)],
                pair_ops=[op(2, "discard", True), op(3, "lead", False)])


def test_a_side_keeps_its_games_statistic_with_its_players_in_order() -> None:
    who = {0: "zed", 1: "b", 2: "amy", 3: "d"}
    single = pair_found(scan("court-piece/single"), who, [(0, 2)])
    assert single == [("amy", "zed", 2, 8, [(0, 12, "court-piece/single", "discard", True)])]
    goat = pair_found(scan("goat"), who, [(0, 2), (1, 3)])
    assert goat == [("amy", "zed", 2, 8, [(0, 10, "goat", "lead", True),
                                          (0, 12, "goat", "follow", False)]),
                    ("b", "d", 2, 10, [(0, 11, "goat", "lead", True)])]
