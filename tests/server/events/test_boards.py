"""The core of an event: boards dealt as fair deals from one secret, robots that answer the
same line the same way, each game's result, matchpoints and standings."""

from __future__ import annotations

import json

import pytest

from taash import fair, record
from taash.fair import NotFair
from taash.games import game_class
from taash.games.base import MatchState
from taash.server.events.boards import (
    ENTRANT,
    board_actions,
    board_over,
    board_record,
    board_result,
    deal_board,
    first_seat,
    play_board,
    state_result,
)
from taash.server.events.scoring import matchpoints, standings

SECRET = "5a194091da224dc213651c3361141787dd3207216a25e7d17ee44548965f508f"
GAMES = ["court-piece", "court-piece-2p", "goat"]


def play_out(game: str, board: int, pick: int, secret: str = SECRET) -> MatchState:
    """A board played to its end, the entrant taking the ``pick``-th legal action (mod their
    number) each time, replayed from the stored actions after each move as the server does."""
    actions: list[dict[str, object]] = []
    state = play_board(game, {}, "ev1", board, secret, actions)
    while not board_over(state):
        legal = state.legal_actions(ENTRANT)
        assert legal, "the robots stopped where the entrant cannot act"
        state.apply(ENTRANT, legal[pick % len(legal)])
        actions = board_actions(state)
        state = play_board(game, {}, "ev1", board, secret, actions)  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_board_is_the_fair_deal_of_its_table_from_the_event_secret(game: str) -> None:
    state = deal_board(game, {}, "ev1", 2, SECRET)
    deck, trump_card = fair.derive(game, "ev1-2", 0, [""] * state.num_seats, SECRET)
    deal = state.record()["deals"][0]  # type: ignore[index]
    assert deal["deck"] == deck
    assert deal.get("trump_card") == trump_card
    assert state.record()["first_dealer" if game != "court-piece-2p" else "first_caller"] \
        == first_seat(game, 2) == 1
    assert deal_board(game, {}, "ev1", 3, SECRET).record()["deals"][0]["deck"] != deck  # type: ignore[index]


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_boards_record_verifies_once_the_secret_is_published(game: str) -> None:
    state = play_out(game, 1, 0)
    commit = fair.commit(SECRET)
    before = board_record(state, "ev1", 1, commit, None)
    assert "secret" not in json.dumps(before)
    assert record.verify(json.dumps(before))["deals"][0]["fair"] is None
    after = board_record(state, "ev1", 1, commit, SECRET)
    summary = record.verify(json.dumps(after))
    assert len(summary["deals"]) == 1 and summary["deals"][0]["fair"] is True
    assert summary["deals"][0]["complete"] is True
    assert after["deals"][0]["fair"]["commit"] == commit
    # a secret that is not the committed one does not verify
    other = board_record(state, "ev1", 1, commit, "00" * 32)
    with pytest.raises(NotFair):
        record.verify(json.dumps(other))


@pytest.mark.parametrize("game", GAMES)
def test_the_same_line_meets_the_same_robots_and_the_result_is_the_sides(game: str) -> None:
    a, b = play_out(game, 2, 1), play_out(game, 2, 1)
    assert a.record() == b.record()
    deal = a.summary()["deals"][0]  # type: ignore[index]
    result = state_result(a)
    if game == "goat":
        assert (result.points, result.defeat) == (deal["points"][0], deal["defeat"][0])
    else:
        assert result.tricks == deal["tricks"][0] == result.score
    # the robots hold every seat but the entrant's, and they moved
    seats = {x["seat"] for x in board_actions(a)}
    assert seats == set(range(game_class(game).num_seats))


def test_results_in_each_games_words() -> None:
    assert board_result("court-piece", {"tricks": [4, 7]}).score == 4
    assert board_result("court-piece", {"tricks": [4, 7]}, seat=3).score == 7
    assert board_result("court-piece-2p", {"tricks": [5, 7]}, seat=1).tricks == 7
    took_goat = board_result("goat", {"points": [59, 61], "defeat": [1, 0]})
    avoided = board_result("goat", {"points": [0, 120], "defeat": [0, 0]})
    assert took_goat.score < avoided.score  # the goat avoided counts above any points
    assert board_result("goat", {"points": [70, 50], "defeat": [0, 1]}).score == 70
    assert took_goat.json() == {"score": 59 - 121, "points": 59, "defeat": 1}


def test_matchpoints_two_per_entrant_beaten_one_per_tie() -> None:
    assert matchpoints([7, 5, 5, 3]) == [100.0, 50.0, 50.0, 0.0]
    assert matchpoints([4, 4, 4]) == [50.0, 50.0, 50.0]
    assert matchpoints([6, 9]) == [0.0, 100.0]
    assert matchpoints([2, 8, 8, 1, 8]) == [25.0, 75.0, 75.0, 0.0, 75.0]
    assert matchpoints([3]) == [50.0]


def test_standings_by_total_percentage_finished_entrants_first() -> None:
    boards = [{"a": 7, "b": 5, "c": 5, "d": 3}, {"a": 2, "b": 6, "c": 6}]
    rows = standings(boards, 2)
    # a: 100, 0 -> 50; b: 50, 75 -> 62.5; c: same as b; d: 0 on one board, not finished
    assert [(s.player, s.percent, s.boards, s.finished) for s in rows] == [
        ("b", 62.5, 2, True), ("c", 62.5, 2, True), ("a", 50.0, 2, True), ("d", 0.0, 1, False)]
    assert [s.rank for s in rows] == [1, 1, 3, 4]  # b and c level: they share a rank


def test_the_same_results_in_another_order_tie_exactly() -> None:
    # a, b and c each take one board's top half and two boards' bottom half, in another
    # order: as floats, the mean of 100/6, 100/6 and 500/6 is 38.888888888888886 summed one
    # way round and 38.88888888888889 another, which put b and c above a; they are level, and
    # share rank 2
    boards = [{"a": 1, "b": 1, "c": 3, "d": 3},
              {"a": 1, "c": 1, "b": 3, "d": 3},
              {"b": 1, "c": 1, "a": 3, "d": 3}]
    rows = standings(boards, 3)
    assert [(s.player, s.rank) for s in rows] == [("d", 1), ("a", 2), ("b", 2), ("c", 2)]
    assert rows[1].percent == rows[2].percent == rows[3].percent
