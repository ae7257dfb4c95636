"""Finding puzzles (taash.puzzles.mine): hand-built positions whose one solution is known,
the themes, and puzzles found in a real deal rebuilding through the core."""

from __future__ import annotations

import json

import pytest

from taash.games import CourtPiece, CourtPiece2P, game_class
from taash.games.tricks import PACK
from taash.games.tricks_play import TrickPlay
from taash.puzzles.mine import (
    Limits,
    Puzzle,
    check,
    find,
    mine_deal,
    position_id,
    retag,
    single_deals,
)
from taash.record import random_record


def endgame(game: str, trump: str, hands: list[list[str]], leader: int, won: list[int],
            plays: list[str]) -> TrickPlay:
    """A Court Piece endgame built by hand on a dealt match's state (hands, trump, tricks won
    so far), then ``plays`` played to the trick from ``leader`` through the core."""
    m = game_class(game).new_match(seed=1, first_seat=0)
    assert isinstance(m, TrickPlay)
    m.apply(m.turn(), f"trump:{trump}")
    m.hands = [PACK.mask(h) for h in hands]
    m.won = list(won)
    m.tricks_played = 13 - len(hands[0])
    m.leader = m.to_move = leader
    m.trick = []
    for i, card in enumerate(plays):
        m.apply((leader + i) % m.num_seats, f"play:{card}")
    return m


def test_a_ruff_is_the_one_solution() -> None:
    # two-player, spades trump, two tricks left; seat 1 (on 6 tricks) leads KH and seat 0
    # (on 5) has no heart: ruffing with 2S takes a trick, throwing 3D hands seat 1 its 7th
    m = endgame(CourtPiece2P.game_id, "S", [["2S", "3D"], ["KH", "4D"]], 1, [5, 6], ["KH"])
    f = find(m, Limits(), obvious=m.action_id(0, "play:3D"), late=False)
    assert f is not None
    assert [m.action_text(a) for a in f.solution] == ["play:2S"]
    assert (f.best, f.obvious_value) == (1, 0)
    assert "ruff" in f.themes and "trump-control" not in f.themes
    assert f.line == ((0, "play:3D"), (1, "play:4D"))


@pytest.mark.slow  # DDS's sieve (endplay) takes seconds to import
def test_a_finesse_is_the_one_solution() -> None:
    # four players, spades trump; seat 1 leads 2H, 3H and 4H follow; seat 0 holds AH QH over
    # seat 1's KH: the queen takes this trick and the ace the next, the ace first gives the
    # king a trick (the deal: seat 0's side needs both)
    hands = [["AH", "QH"], ["2H", "KH"], ["3H", "5D"], ["4H", "6D"]]
    m = endgame(CourtPiece.game_id, "S", hands, 1, [5, 6], ["2H", "3H", "4H"])
    f = find(m, Limits(), obvious=m.action_id(0, "play:AH"), late=False)
    assert f is not None
    assert [m.action_text(a) for a in f.solution] == ["play:QH"]
    assert (f.best, f.obvious_value) == (2, 1)
    assert f.themes == ("finesse",)


def test_drawing_the_last_trump_is_trump_control() -> None:
    # two-player, spades trump, three tricks left; seat 0 (on 4) leads: AS draws seat 1's last
    # trump and the hearts take the rest (7); a heart first is cut and seat 1 has its 7th
    m = endgame(CourtPiece2P.game_id, "S", [["AS", "KH", "QH"], ["2S", "3D", "4D"]], 0,
                [4, 6], [])
    f = find(m, Limits(), obvious=m.action_id(0, "play:KH"), late=False)
    assert f is not None
    assert [m.action_text(a) for a in f.solution] == ["play:AS"]
    assert (f.best, f.obvious_value) == (3, 0)
    assert f.themes == ("trump-control",)


def test_the_obvious_card_among_the_best_is_no_puzzle() -> None:
    m = endgame(CourtPiece2P.game_id, "S", [["2S", "3D"], ["KH", "4D"]], 1, [5, 6], ["KH"])
    assert find(m, Limits(), obvious=m.action_id(0, "play:2S"), late=False) is None


@pytest.mark.slow
def test_touching_cards_are_one_group() -> None:
    # QH and JH touch (no heart between them is still out): either keeps the trick, so the
    # solution is both and the position still has one best group
    hands = [["AH", "QH", "JH"], ["2H", "KH", "9C"], ["3H", "5D", "7C"], ["4H", "6D", "8C"]]
    m = endgame(CourtPiece.game_id, "S", hands, 1, [4, 6], ["2H", "3H", "4H"])
    f = find(m, Limits(), obvious=m.action_id(0, "play:AH"), late=False)
    assert f is not None
    assert sorted(m.action_text(a) for a in f.solution) == ["play:JH", "play:QH"]
    assert f.themes == ("finesse",)  # the group's top, QH, sits under AH over the KH


@pytest.mark.slow
def test_puzzles_of_a_real_deal_rebuild_and_check() -> None:
    rec = random_record(CourtPiece2P.game_id, seed=5, deals=3)
    found: list[Puzzle] = []
    for one in single_deals(rec):
        found += mine_deal(one)
    assert found, "three random deals of two-player Court Piece give a puzzle"
    for p in found:
        again = Puzzle.from_json(json.loads(json.dumps(p.as_json())))
        assert again == p
        assert position_id(p.record) == p.id
        assert check(p) is None
        assert retag(p) == p
        state = p.position()
        assert state.turn() == p.seat
        assert len(p.record["deals"][0]["actions"]) < len(rec["deals"][0]["actions"]) + 200


def test_every_deal_of_a_match_replays_alone() -> None:
    rec = random_record(CourtPiece.game_id, seed=3, deals=3)
    ones = list(single_deals(rec))
    assert [o["deals"][0]["deck"] for o in ones] == [d["deck"] for d in rec["deals"]]
    for one, d in zip(ones, rec["deals"], strict=True):
        assert one["deals"][0]["actions"] == d["actions"]
        assert one[CourtPiece.first_seat_key] in range(4)
