"""The exact solver (``taash.review.solver``) against a plain exhaustive minimax written here
on the core's public fast path, on random endgames of every game, and against DDS (through the
``endplay`` wheel, ``bench/dd.py``) for four-player single sar played to the 13th trick."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from taash.games import game_class
from taash.games.base import MatchState
from taash.games.goat_rules import MOLODKA, POINTS, SHIFT
from taash.review.solver import Solution, action_values, bounds, clear_tables, solve

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("court-piece", {}), ("court-piece", {"sar": "double"}),
         ("court-piece", {"sar": "double", "ace_rule": True}), ("court-piece-2p", {}),
         ("goat", {})]


def load_dd() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dd", ROOT / "bench" / "dd.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


dd = load_dd()


def score(st: Any, team: int) -> int:
    """What the counted team holds so far: tricks (collected in double sar) or card points."""
    if st.game_id == "goat":
        return sum(POINTS[c] for c in range(36) if st.taken[team] >> c & 1)
    return int(st.won[team])


def minimax(st: Any, team: int, waited: int = 0, root: bool = True) -> int:
    """The counted team's final score with best play on both sides, by brute force: every
    legal action of the seat to move (and, in Goat, each eligible seat's molodka out of turn,
    decided in GT-8 order before the seat to move acts, except at the root)."""
    seat = st.turn()
    if seat is None or not st.legal_ids(seat):  # over (or, stop removed, out of cards)
        return score(st, team)
    options: list[tuple[int, int | None]] = []
    if st.game_id == "goat" and not root:
        for s in st.actors():
            if s != seat and not waited >> s & 1:
                options = [(s, MOLODKA << SHIFT | st.hands[s]), (s, None)]
                break
    if not options:
        options = [(seat, a) for a in st.legal_ids(seat)]
    chooser = options[0][0]
    values = []
    for s, a in options:
        if a is None:
            values.append(minimax(st, team, waited | 1 << s, False))
            continue
        c = st.clone()
        c.apply_id(s, a)
        values.append(minimax(c, team, 0, False))
    return max(values) if (chooser & 1) == team else min(values)


def endgame(game: str, options: dict[str, Any], seed: int, tricks: int) -> MatchState:
    """A random position with at most ``tricks`` tricks left (Goat: three cards or fewer
    each, the stock empty: brute force cannot go further), reached by random legal play from
    a seeded deal; sometimes in mid-trick."""
    rng = random.Random(seed)
    m = game_class(game).new_match(options, seed=seed)
    goat = game == "goat"
    stop_mid = rng.randrange(3 if not goat else 2)
    while True:
        seat = m.turn()
        assert seat is not None
        if goat:
            if (m.stock_pos >= 36 and m.hands[seat].bit_count() <= min(tricks, 3)
                    and len(m.plays) == stop_mid % 2):
                return m
            s = rng.choice(m.actors())
            m.apply_id(s, rng.choice(m.legal_ids(s)))
        else:
            if (m.phase == 1 and m.hands[seat].bit_count() <= tricks
                    and len(m.trick) == stop_mid):
                return m
            m.apply_id(seat, rng.choice(m.legal_ids(seat)))
        if m.turn() is None:  # the deal ended early: start over from another seed
            return endgame(game, options, seed + 1000, tricks)


def check_against_minimax(game: str, options: dict[str, Any], seeds: range, tricks: int) -> None:
    for seed in seeds:
        st = endgame(game, options, seed, tricks)
        seat = st.turn()
        assert seat is not None
        team = seat & 1
        base = score(st, team)
        want = minimax(st, team) - base
        sol = solve(st, time_limit=30)
        assert sol.exact, (game, seed)
        assert sol.value == want, (game, seed, sol)
        vals = action_values(st, time_limit=30)
        legal = st.legal_ids(seat)
        assert sorted(vals) == sorted(legal)
        for a in legal:
            c = st.clone()
            c.apply_id(seat, a)
            assert vals[a] == minimax(c, team, 0, False) - base, (game, seed, a)
        assert sol.best and set(sol.best) == {a for a in legal if vals[a] == want}
        # the other side counted: the mover then holds it down
        other = solve(st, time_limit=30, team=1 - team)
        assert other.value == minimax(st, 1 - team) - score(st, 1 - team)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_solver_equals_exhaustive_minimax_on_random_endgames(game: str,
                                                             options: dict[str, Any]) -> None:
    tricks = {"court-piece-2p": 5, "goat": 2}.get(game, 3)
    check_against_minimax(game, options, range(5), tricks)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), GAMES)
def test_solver_equals_exhaustive_minimax_on_more_and_longer_endgames(
        game: str, options: dict[str, Any]) -> None:
    check_against_minimax(game, options, range(5, 11), 5 if game == "court-piece-2p" else 4)


@pytest.mark.parametrize(("game", "options"), GAMES[:4])
def test_played_out_counts_equal_exhaustive_search_without_the_stop(
        game: str, options: dict[str, Any]) -> None:
    for seed in range(5):
        st: Any = endgame(game, options, seed, 3 if game != "court-piece-2p" else 5)
        team = st.turn() & 1
        got = solve(st, time_limit=30, play_out=True)
        free = st.clone()
        free.won = [-20, -20]  # the core then never reaches its stop at 7
        assert got.exact and got.value == minimax(free, team) - score(free, team)


def test_deal_stops_at_seven_and_the_coat_is_derived() -> None:
    # Built by hand: seat 0's side (team 0) has 6 tricks, team 1 none; spades trump; four
    # tricks left.  The ace of trumps takes the next trick and ends the deal: won with a coat.
    # A heart wins the deal too (the ace ruffs later) but gives team 1 a trick: no coat.
    st: Any = game_class("court-piece").new_match({}, seed=1, first_dealer=3)
    st.apply_id(0, 52)  # trump: spades
    T = st.pack().index
    hands = [["AS", "2H", "3H", "4H"], ["KH", "QH", "JH", "TH"], ["2D", "3D", "4D", "5D"],
             ["AH", "AD", "AC", "KC"]]
    st.hands = [sum(1 << T(c) for c in h) for h in hands]
    st.won = [6, 0]
    st.tricks_played = 6
    st.leader = st.to_move = 0
    won = solve(st)
    assert won.exact and won.value == 1 and set(won.best) == {T(c) for c in hands[0]}
    coat = solve(st, team=1)
    assert coat.value == 0 and coat.best == (T("AS"),)  # team 1 held off every trick: a coat
    assert action_values(st, team=1) == {T("AS"): 0, T("2H"): 1, T("3H"): 1, T("4H"): 1}
    assert solve(st, play_out=True).value == 1
    assert solve(st, team=1, play_out=True).value == 3
    # on the bounds: a finished deal has nothing to solve
    done = st.clone()
    done.apply_id(0, T("AS"))
    for s in (1, 2, 3):
        done.apply_id(s, done.legal_ids(s)[0])
    assert done.turn() is None
    assert solve(done) == Solution(0, (), True, 0)


def test_time_limit_gives_a_bound_not_a_wrong_exact_answer() -> None:
    st = game_class("court-piece").new_match({"sar": "double"}, seed=4)
    seat = st.turn()
    assert seat is not None
    st.apply_id(seat, st.legal_ids(seat)[0])  # the trump call; 13 tricks to go
    sol = solve(st, time_limit=0.05)
    assert not sol.exact and sol.best and set(sol.best) <= set(st.legal_ids(st.to_move))
    assert 0 <= sol.value <= 13
    call = game_class("court-piece-2p").new_match({}, seed=3)  # before the trump call
    sol = solve(call, time_limit=0.05)
    assert not sol.exact and sol.value == 0 and sol.best == (call.legal_ids(call.turn())[0],)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), GAMES)
def test_bounds_cut_short_still_hold_the_exact_result(game: str,
                                                      options: dict[str, Any]) -> None:
    """What ``bounds`` proves before its time runs out brackets the exact result, for either
    side counted, and meets it when it settles (an event board's figure, docs/events.md)."""
    cut = 0
    for seed in range(3):
        st = endgame(game, options, 300 + seed, {"goat": 3, "court-piece-2p": 13}.get(game, 8))
        for team in (0, 1):
            clear_tables()
            exact = solve(st, time_limit=60, team=team)
            assert exact.exact
            for limit, probes in ((0.0, 0), (0.002, 0), (0.002, 3), (0.02, 5)):
                clear_tables()  # nothing kept from the exact search
                b = bounds(st, time_limit=limit, team=team, probes=probes)
                assert b.lower <= exact.value <= b.upper, (seed, team, limit, probes, b)
                assert b.exact == (b.lower == b.upper)
                if b.exact:
                    assert b.lower == exact.value
                cut += not b.exact
    assert cut > 0  # some searches were cut short: their bounds were checked
    with pytest.raises(ValueError):
        bounds(game_class("court-piece-2p").new_match({}, seed=3))  # before the trump call


def check_dds(seeds: range, tricks: int) -> None:
    # our seats 0..3 are DDS's North..West, suits S H D C its 0..3 (bench/dd.py); DDS counts
    # every trick to the 13th, as play_out does; it gives the tricks of the mover's side
    for seed in seeds:
        st: Any = endgame("court-piece", {}, 500 + seed, tricks)
        got = action_values(st, time_limit=60, play_out=True)
        want, _ = dd.solve(list(st.hands), st.trump, st.leader, list(st.trick))
        assert got == want, seed
        assert solve(st, time_limit=60, play_out=True).value == max(want.values())


@pytest.mark.skipif(not dd.available(), reason="the DDS library did not load")
def test_single_sar_played_out_agrees_with_dds() -> None:
    check_dds(range(12), 6)


@pytest.mark.slow
@pytest.mark.skipif(not dd.available(), reason="the DDS library did not load")
def test_single_sar_played_out_agrees_with_dds_on_longer_endgames() -> None:
    check_dds(range(12, 36), 8)


def load_bench_solver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_solver", ROOT / "bench" / "solver.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(not dd.available(), reason="the DDS library did not load")
def test_every_position_of_a_few_random_deals_agrees_with_dds() -> None:
    """Every position (mid-trick ones too) of three random single-sar deals from six tricks
    left on: the tricks the mover's side takes after each legal card, by the solver and by
    DDS (``bench/solver.py --dds-compare`` runs the same on more deals)."""
    bench = load_bench_solver()
    compared, cards, unsettled, wrong = bench.dds_compare(range(3), 6, 30.0, dd)
    assert wrong == []
    assert unsettled == 0 and compared >= 40 and cards > compared
    positions = [p for seed in range(3) for p in bench.single_sar_positions(seed, 6)]
    assert len(positions) == compared and any(p.trick for p in positions)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_the_table_kept_between_calls_changes_no_answer(game: str,
                                                        options: dict[str, Any]) -> None:
    # a deal's positions solved from its end back (the table carrying over), then each again
    # from an empty table
    st = endgame(game, options, 77, 4 if game != "goat" else 3)
    line = [st]
    while (seat := line[-1].turn()) is not None:
        nxt = line[-1].clone()
        nxt.apply_id(seat, nxt.legal_ids(seat)[-1])
        line.append(nxt)
    clear_tables()
    warm = [solve(p, time_limit=30) for p in reversed(line[:-1])]
    for p, w in zip(reversed(line[:-1]), warm, strict=True):
        clear_tables()
        cold = solve(p, time_limit=30)
        assert (cold.value, cold.best, cold.exact) == (w.value, w.best, w.exact)
