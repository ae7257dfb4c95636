"""taash.review.analyse: hard's choice from the seat's view, the open-cards verdicts (blunder,
mistake, best, not exact) and the summary per seat."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import pytest

from taash.record import random_record
from taash.review import analyse
from taash.review.analyse import analyse_deal, hard_choice, load_solver, open_part
from taash.review.replay import DealReplay, load_record, replay_deal


def deal_of(game: str, seed: int, options: Any = None) -> DealReplay:
    rec, summary = load_record(random_record(game, options, seed=seed, deals=1))
    return replay_deal(rec, 0, summary)


def fake_solver(values: Callable[[Any, int], dict[int, int]],
                coat: int = 1) -> types.ModuleType:
    """A stand-in for taash.review.solver with the same API, its answers given by the test."""
    mod = types.ModuleType("fake_solver")

    def action_values(state: Any, *, time_limit: float = 2.0) -> dict[int, int]:
        return values(state, state.turn())

    def solve(state: Any, *, time_limit: float = 2.0, team: int | None = None) -> Any:
        return types.SimpleNamespace(value=coat, best=(), exact=True, nodes=1)

    mod.action_values = action_values  # type: ignore[attr-defined]
    mod.solve = solve  # type: ignore[attr-defined]
    return mod


def a_choice(d: DealReplay) -> int:
    """A late play step where the seat had more than one legal card."""
    for s in reversed(d.steps):
        st = d.positions[s.index].state
        if s.trick > 0 and len(st.legal_ids(s.seat)) > 1:
            return s.index
    raise AssertionError("no choice in this deal")


@pytest.mark.slow
def test_hard_is_asked_from_the_seats_view_and_is_deterministic(
        monkeypatch: pytest.MonkeyPatch) -> None:
    d = deal_of("court-piece", 4)
    views: list[Any] = []
    real = analyse.make_bot

    def spy(*args: Any, **kw: Any) -> Any:
        bot = real(*args, **kw)
        act = bot.act

        def record(view: Any) -> Any:
            views.append(view)
            return act(view)

        bot.act = record  # type: ignore[method-assign]
        return bot

    monkeypatch.setattr(analyse, "make_bot", spy)
    first = hard_choice(d, 5)
    monkeypatch.setattr(analyse, "make_bot", real)
    seat = d.steps[5].seat
    assert views == [d.positions[5].state.view(seat)]
    assert "hand" in views[0] and views[0]["seat"] == seat
    assert first == hard_choice(d, 5)
    a, b = analyse_deal(d, [seat], open_cards=False), analyse_deal(d, [seat], open_cards=False)
    assert [x.known for x in a.actions] == [x.known for x in b.actions]
    assert {x.seat for x in a.actions} == {seat}
    assert a.seats[0].matched_hard == sum(1 for x in a.actions if x.known and x.known.matched)


def test_without_the_solver_the_open_cards_part_says_not_available(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyse, "load_solver", lambda: None)
    d = deal_of("goat", 1)
    a = analyse_deal(d, [0], hard=False)
    assert a.actions and all(x.open is not None and x.open.verdict is None
                             and "not available" in (x.open.note or "") for x in a.actions)
    assert not a.solver and any("not available" in n for n in a.notes)


def test_a_play_that_turns_a_won_deal_into_a_lost_one_is_a_blunder() -> None:
    d = deal_of("court-piece-2p", 3)
    i = a_choice(d)
    s = d.steps[i]
    st = d.positions[i].state
    have = int(d.positions[i].view["tricks"][s.seat])
    played = st.action_id(s.seat, s.action)
    need = 7 - have

    solver = fake_solver(lambda state, seat: {a: (need - 1 if a == played else need)
                                              for a in state.legal_ids(seat)})
    o = open_part(d, i, solver)
    assert o.verdict == "blunder" and (o.before, o.after) == (7, 6)
    assert (o.standing_before, o.standing_after) == ("won", "lost")
    assert s.action not in o.best and o.best


def test_giving_up_tricks_is_a_mistake_and_the_best_play_is_best() -> None:
    d = deal_of("court-piece-2p", 3)
    i = a_choice(d)
    s = d.steps[i]
    st = d.positions[i].state
    played = st.action_id(s.seat, s.action)
    low = fake_solver(lambda state, seat: {a: (0 if a == played else 1)
                                           for a in state.legal_ids(seat)})
    o = open_part(d, i, low)
    assert o.verdict == "mistake" and o.before is not None and o.after == o.before - 1
    same = fake_solver(lambda state, seat: dict.fromkeys(state.legal_ids(seat), 0))
    assert open_part(d, i, same).verdict == "best"
    missing = fake_solver(lambda state, seat: {a: 0 for a in state.legal_ids(seat)
                                               if a != played})
    o = open_part(d, i, missing)
    assert o.verdict is None and "not exact" in (o.note or "")


def test_goat_is_judged_in_card_points_and_defeat(monkeypatch: pytest.MonkeyPatch) -> None:
    d = deal_of("goat", 2)
    i = a_choice(d)
    s = d.steps[i]
    st = d.positions[i].state
    played = st.action_id(s.seat, s.action)
    solver = fake_solver(lambda state, seat: {a: (0 if a == played else 5)
                                              for a in state.legal_ids(seat)})
    o = open_part(d, i, solver)
    assert o.unit == "points" and o.verdict in ("mistake", "blunder")
    assert o.before is not None and o.after == o.before - 5
    assert o.defeat_before is not None and o.defeat_after is not None
    monkeypatch.setattr(analyse, "load_solver", lambda: solver)
    a = analyse_deal(d, None, hard=False)
    judged = [x for x in a.actions if x.open is not None and x.open.verdict is not None]
    assert sum(x.judged for x in a.seats) == len(judged)
    assert sum(x.blunders + x.mistakes + x.best for x in a.seats) == len(judged)


def test_a_coat_given_up_is_a_mistake() -> None:
    d = deal_of("court-piece", 2)
    st0 = d.positions[1].state  # after the call, nobody has a trick
    seat = d.steps[1].seat
    assert st0.turn() == seat
    played = st0.action_id(seat, d.steps[1].action)
    calls: list[int] = []

    def values(state: Any, mover: int) -> dict[int, int]:
        return {a: 7 for a in state.legal_ids(mover)}

    solver = fake_solver(values)

    def solve(state: Any, *, time_limit: float = 2.0, team: int | None = None) -> Any:
        calls.append(len(calls))
        # before the play the others can be kept off every trick; after it they cannot
        return types.SimpleNamespace(value=0 if len(calls) == 1 else 1, best=(), exact=True,
                                     nodes=1)

    solver.solve = solve  # type: ignore[attr-defined]
    o = open_part(d, 1, solver)
    assert (o.coat_before, o.coat_after) == (True, False) and o.verdict == "mistake"
    assert played in st0.legal_ids(seat)


def test_the_real_solver_marks_a_blunder_at_the_card_that_loses_the_deal() -> None:
    """Two-player Court Piece, seed 6: seat 1 plays 3H at action 21 with 7 tricks still in
    reach; after it the deal is lost."""
    if load_solver() is None:
        pytest.skip("taash.review.solver is not installed here")
    d = deal_of("court-piece-2p", 6)
    s = d.steps[21]
    assert (s.seat, s.action) == (1, "play:3H")
    o = open_part(d, 21, load_solver(), 2.0)
    assert o.verdict == "blunder", o
    assert (o.standing_before, o.standing_after) == ("won", "lost")
    assert "play:3H" not in o.best


def test_a_coat_the_solver_cannot_settle_in_time_still_gets_a_verdict_on_tricks() -> None:
    d = deal_of("court-piece", 2)
    solver = fake_solver(lambda state, mover: dict.fromkeys(state.legal_ids(mover), 7))
    solver.solve = lambda state, **kw: types.SimpleNamespace(  # type: ignore[attr-defined]
        value=0, best=(), exact=False, nodes=1)
    o = open_part(d, 1, solver)
    assert o.verdict == "best" and o.coat_before is None and "coat" in (o.note or "")



def test_with_only_what_the_player_knew_says_how_much_better_hard_scored() -> None:
    """Where hard searched, its candidates' mean scores over its samples are given, and for a
    play other than hard's, how much better hard's choice scored than that play."""
    d = deal_of("court-piece-2p", 5)
    seen = [(s, analyse.known_part(d, s.index)) for s in d.steps if s.trick > 0]
    searched = [(s, k) for s, k in seen if k.scores is not None]
    assert searched
    for s, k in searched:
        assert k.bot in k.scores and k.samples is not None and k.samples > 0
        legal = {d.positions[s.index].state.action_text(a)
                 for a in d.positions[s.index].state.legal_ids(s.seat)}
        assert set(k.scores) <= legal
    differ = [(s, k) for s, k in searched if not k.matched and k.gain is not None]
    assert differ, "no play in this deal where hard searched and chose otherwise"
    for s, k in differ:
        assert k.scores is not None and k.bot is not None
        assert k.gain == pytest.approx(k.scores[k.bot] - k.scores[s.action])
    j = differ[0][1].as_json()
    assert set(j) >= {"hard", "matched", "scores", "samples", "gain"}
    same = [k for _, k in searched if k.matched]
    assert all(k.gain is None for k in same)
