"""The pure pairing and scoring of tournaments (docs/tournaments.md): Swiss rounds never repeat
a pairing while one without a repeat exists, pair everyone but at most one bye, and are the
same whatever order the entrants come in; standings and Buchholz as computed by hand; the
arena's streak bonus and pairing."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.server.tournaments.pairing import (
    WIN,
    Entrant,
    Game,
    Waiting,
    arena_pairs,
    arena_points,
    entrants_for_pairing,
    on_streak,
    swiss_pairing,
    swiss_standings,
)


def perfect_matchings(ids: list[int]) -> list[list[tuple[int, int]]]:
    if not ids:
        return [[]]
    first, rest = ids[0], ids[1:]
    out = []
    for k, other in enumerate(rest):
        for m in perfect_matchings(rest[:k] + rest[k + 1:]):
            out.append([(first, other), *m])
    return out


def repeat_free_exists(entrants: list[Entrant]) -> bool:
    """By brute force: a pairing with no repeat, its bye (if any) to one with fewest byes."""
    by_id = {e.id: e for e in entrants}
    ids = sorted(by_id)
    fewest = min(e.byes for e in entrants)
    byes: list[int | None] = ([i for i in ids if by_id[i].byes == fewest]
                              if len(ids) % 2 else [None])
    for bye in byes:
        rest = [i for i in ids if i != bye]
        for m in perfect_matchings(rest):
            if all(b not in by_id[a].opponents for a, b in m):
                return True
    return False


@st.composite
def fields(draw: st.DrawFn, max_n: int = 10) -> list[Entrant]:
    """A field after some rounds: random games played (pairs drawn from the field)."""
    n = draw(st.integers(2, max_n))
    rounds = draw(st.integers(0, n))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    games: list[Game] = []
    for r in range(1, rounds + 1):
        ids = list(range(n))
        rng.shuffle(ids)
        if n % 2:
            games.append(Game(r, ids.pop(), None, WIN))
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            games.append(Game(r, a, b, rng.choice((0, 1, 2))))
    return entrants_for_pairing({i: i for i in range(n)}, games)


def check_complete(entrants: list[Entrant], p: object) -> None:
    from taash.server.tournaments.pairing import Pairing

    assert isinstance(p, Pairing)
    seen = [x for pair in p.pairs for x in pair] + ([p.bye] if p.bye is not None else [])
    assert sorted(seen) == sorted(e.id for e in entrants)  # everyone once
    assert (p.bye is not None) == (len(entrants) % 2 == 1)  # one bye exactly when odd
    if p.bye is not None:  # to one with the fewest byes
        by_id = {e.id: e for e in entrants}
        assert by_id[p.bye].byes == min(e.byes for e in entrants)


@pytest.mark.slow  # 300 fields, each checked by brute force
@settings(max_examples=300, deadline=None)
@given(fields())
def test_everyone_is_paired_once_and_no_pair_repeats_while_one_can_avoid_it(
        entrants: list[Entrant]) -> None:
    p = swiss_pairing(entrants)
    check_complete(entrants, p)
    by_id = {e.id: e for e in entrants}
    repeats = sum(b in by_id[a].opponents for a, b in p.pairs)
    assert repeats == p.repeats
    if repeat_free_exists(entrants):
        assert repeats == 0, (entrants, p)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(fields(max_n=9), st.randoms(use_true_random=False))
def test_the_pairing_is_the_same_whatever_order_the_entrants_come_in(
        entrants: list[Entrant], rnd: random.Random) -> None:
    shuffled = list(entrants)
    rnd.shuffle(shuffled)
    assert swiss_pairing(shuffled) == swiss_pairing(entrants)


def test_the_first_round_pairs_by_seed_and_the_last_seed_has_the_bye() -> None:
    p = swiss_pairing([Entrant(i, i) for i in range(1, 8)])
    assert p.pairs == ((1, 2), (3, 4), (5, 6)) and p.bye == 7 and p.repeats == 0


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one() -> None:
    field = [Entrant(1, 1, 4), Entrant(2, 2, 2), Entrant(3, 3, 2, byes=1), Entrant(4, 4, 0),
             Entrant(5, 5, 0, byes=1)]
    assert swiss_pairing(field).bye == 4


def test_a_repeat_is_avoided_by_taking_the_next_ranked() -> None:
    # 1 and 2 met: 1 meets 3, 2 meets 4
    field = [Entrant(1, 1, 2, frozenset({2})), Entrant(2, 2, 2, frozenset({1})),
             Entrant(3, 3, 0, frozenset({4})), Entrant(4, 4, 0, frozenset({3}))]
    assert swiss_pairing(field).pairs == ((1, 3), (2, 4))


def test_the_search_backtracks_when_the_greedy_choice_strands_the_last_two() -> None:
    # greedy would pair 1-2 and leave 3-4, who met; the search gives 1-3, 2-4
    field = [Entrant(1, 1, 0, frozenset()), Entrant(2, 2, 0, frozenset()),
             Entrant(3, 3, 0, frozenset({4})), Entrant(4, 4, 0, frozenset({3}))]
    assert swiss_pairing(field).pairs == ((1, 3), (2, 4))


def test_with_no_pairing_left_without_a_repeat_everyone_is_still_paired() -> None:
    ids = [1, 2, 3, 4]
    field = [Entrant(i, i, 0, frozenset(set(ids) - {i})) for i in ids]
    p = swiss_pairing(field)
    assert p.repeats == 2 and sorted(x for pr in p.pairs for x in pr) == ids


def test_the_budget_ends_a_hopeless_search_with_the_greedy_pairing() -> None:
    field = [Entrant(i, i, 0, frozenset(set(range(12)) - {i})) for i in range(12)]
    p = swiss_pairing(field, budget=50)
    assert p.repeats == 6 and len(p.pairs) == 6


def test_a_field_of_one_or_a_repeated_id_is_refused() -> None:
    for bad in ([Entrant(1, 1)], [Entrant(1, 1), Entrant(1, 2)]):
        try:
            swiss_pairing(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_standings_and_buchholz_by_hand() -> None:
    # round 1: 1 beats 2, 3 draws 4, 5 has the bye; round 2: 1 beats 5, 3 beats 2, 4 bye
    games = [Game(1, 1, 2, 2), Game(1, 3, 4, 1), Game(1, 5, None, WIN),
             Game(2, 1, 5, 2), Game(2, 3, 2, 2), Game(2, 4, None, WIN)]
    rows = swiss_standings({i: i for i in range(1, 6)}, games)
    # scores (half points): 1: 4, 2: 0, 3: 3, 4: 1 + 2 = 3, 5: 2
    # Buchholz: 1: s2 + s5 = 2; 3: s4 + s2 = 3; 4: s3 = 3 (its bye adds nothing); 5: s1 = 4;
    # 2: s1 + s3 = 7
    got = [(s.id, s.score, s.buchholz, s.rank) for s in rows]
    assert got == [(1, 4, 2, 1), (3, 3, 3, 2), (4, 3, 3, 2), (5, 2, 4, 4), (2, 0, 7, 5)]
    assert (rows[2].byes, rows[2].played, rows[2].draws) == (1, 1, 1)


def test_no_permutation_of_a_small_field_breaks_determinism() -> None:
    field = entrants_for_pairing({i: i for i in range(5)},
                                 [Game(1, 0, 1, 2), Game(1, 2, 3, 0), Game(1, 4, None, WIN)])
    first = swiss_pairing(field)
    assert all(swiss_pairing(list(order)) == first for order in permutations(field))


def test_arena_points_double_on_a_streak_until_a_game_is_not_won() -> None:
    assert arena_points([2, 2, 2, 1, 2, 2, 2, 0, 2]) == [2, 2, 4, 2, 2, 2, 4, 0, 2]
    assert arena_points([0, 1, 2]) == [0, 1, 2]
    assert on_streak([0, 2, 2]) and not on_streak([2, 2, 1]) and not on_streak([2])


def test_arena_pairs_by_points_avoiding_the_last_opponent() -> None:
    waiting = [Waiting(1, 10, 1, last_opponent=2), Waiting(2, 9, 2, last_opponent=1),
               Waiting(3, 4, 3), Waiting(4, 0, 4), Waiting(5, 0, 5)]
    assert arena_pairs(waiting) == [(1, 3), (2, 4)]  # 5 waits
    # only the last opponent waits: they meet again
    assert arena_pairs([Waiting(1, 0, 1, 2), Waiting(2, 0, 2, 1)]) == [(1, 2)]
    # the greedy order would leave 3 and 4, who just met: the search keeps them apart
    assert arena_pairs([Waiting(1, 9, 1), Waiting(2, 8, 2), Waiting(3, 0, 3, 4),
                        Waiting(4, 0, 4, 3)]) == [(1, 3), (2, 4)]


@st.composite
def waiting_rooms(draw: st.DrawFn) -> list[Waiting]:
    n = draw(st.integers(0, 9))
    lasts = [draw(st.one_of(st.none(), st.integers(0, n + 2))) for _ in range(n)]
    points = [draw(st.integers(0, 12)) for _ in range(n)]
    return [Waiting(i, points[i], i, None if lasts[i] == i else lasts[i]) for i in range(n)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(waiting_rooms())
def test_arena_pairs_everyone_but_one_and_avoid_the_last_opponent_when_they_can(
        waiting: list[Waiting]) -> None:
    pairs = arena_pairs(waiting)
    seen = [x for p in pairs for x in p]
    assert len(seen) == len(set(seen)) and len(pairs) == len(waiting) // 2
    if len(waiting) % 2:  # the lowest-ranked waits
        low = sorted(waiting, key=lambda w: (-w.points, w.seed, w.id))[-1]
        assert low.id not in seen
    by_id = {w.id: w for w in waiting}

    def just_met(a: int, b: int) -> bool:
        return by_id[a].last_opponent == b or by_id[b].last_opponent == a

    ids = sorted(seen)
    possible = any(all(not just_met(a, b) for a, b in m) for m in perfect_matchings(ids))
    if possible:
        assert not any(just_met(a, b) for a, b in pairs), pairs
