"""An exact perfect-information solver for all three games, on the core's fast path.

Every card is known (a deal replayed from its record: the deck is known, and so is Goat's
stock order once the deal is over).  ``solve(state)`` gives the best result the side to move
can force from ``state``, and the actions reaching it; ``action_values(state)`` the result
after each legal action of the seat to move.

The unit is the deal's own:

- **Court Piece, single sar, and two-player Court Piece** (CP-6, TW-4): tricks the counted
  team (by default the side to move's; a seat in two-player) *takes from now until the deal
  ends as the rules end it*: the moment a side has 7 tricks, the rest unplayed.  The counted
  side maximises it and the other side minimises it.  So with ``a`` tricks taken already the
  side wins the deal exactly when ``a + value >= 7`` (winning lines all give ``7 - a``, losing
  ones at most ``6 - a``); it is coated (court in two-player) when ``a == 0`` and ``value ==
  0``.  Whether the side to move can coat the others: ``solve(state, team=other).value == 0``
  with the others on no trick yet (the mover's side can keep them off every trick until the
  end; the deal then ends with the mover's side on 7).
- **Double sar** (CP-7, CP-8): tricks the counted team *collects* from now until the deal ends
  (a side has collected 7, or the 13th trick collects the pile); won and coat as above
  (won: ``a + value >= 7`` with ``a`` collected so far).
- ``play_out=True`` (Court Piece): every card is played to the 13th trick, the stop at 7
  ignored, as a double-dummy solver counts; in single sar the counts then equal DDS's (the
  deal is won exactly when ``a + value >= 7`` either way; the coat needs the default).
- **Goat** (GT-7..GT-10): card points the counted team takes from now to the game's end (the
  120 are shared out, so the other team takes the rest of what is still out).  A molodka out
  of turn (GT-8) is modelled as a choice each eligible seat makes, before the seat to move
  acts, at every moment of the trick (``solver_goat``).  Goat is solved exactly where the time
  allows, which is the endgame (stock empty, four cards or fewer each) and a few tricks
  before; earlier the result is a bound (``exact`` False).

With ``exact`` False the time limit (or the node budget) stopped the search: ``value`` is then
a proven *lower* bound on the counted side's result when that side is the side to move (it
reaches at least ``value``), and a proven *upper* bound when the counted side is the other one;
``best`` holds the actions proven to reach ``value`` (the first legal action if none was).

The search is alpha-beta with null-window tests on the result (a binary search on the value,
as DDS does), a transposition table keyed on the position (every hand, the trick so far and
its leader, and what else the result from here depends on: tricks taken towards the stop at 7,
the double-sar pile and who may collect it; the cards played squeezed out of the ranks), kept
between calls (``clear_tables``), Court Piece moves grouped by equivalent cards (ranks of one
hand with no card between them still out), and bounds from the tricks left and, in single sar
and two-player, the leader's quick tricks.  Solving a deal's positions from the last back to
the first lets each reuse the work of the later ones.

**Budgets.**  ``time_limit`` is wall-clock seconds, so what a search settles depends on the
machine and its load.  ``nodes`` bounds the positions searched instead (checked every 1,024
positions in Court Piece, 256 in Goat): the same position, with the same transposition table
(the same calls since ``clear_tables``), then gives the same answer on any machine.  Both may
be given; whichever runs out first stops the search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter
from typing import cast

from taash.games.base import MatchState
from taash.games.goat_play import GoatPlay
from taash.games.tricks_play import PLAY, TrickPlay
from taash.review.solver_court import NO_LIMIT, CourtSearch, Timeout, clear_tables, table
from taash.review.solver_goat import GoatSearch


@dataclass(frozen=True)
class Solution:
    """The solver's answer for one position (the module's docstring says the units).

    ``value``: the counted team's best result from here; ``best``: the action ids of the seat
    to move reaching it (every equivalent one); ``exact``: False if the time limit stopped the
    search (``value`` then a bound, see the module); ``nodes``: positions searched."""

    value: int
    best: tuple[int, ...]
    exact: bool
    nodes: int


Child = Callable[[int, int, int], int]  # (action, alpha, beta) -> the result after it


def _test(child: Child, actions: list[int], target: int, maximise: bool) -> tuple[bool, int]:
    """Null-window test of the root: is the result ``>= target``?  Returns (the answer, a
    bound: a lower one ``>= target`` if yes, an upper one ``< target`` if not)."""
    bound = -1 if maximise else 1 << 20
    for a in actions:
        v = child(a, target - 1, target)
        if maximise:
            if v >= target:
                return True, v
            bound = max(bound, v)
        else:
            if v < target:
                return False, v
            bound = min(bound, v)
    return not maximise, bound


def _root(child: Child, actions: list[int], hi: int, maximise: bool) -> int:
    """Binary search of the root's result in ``0..hi`` by null-window tests; on Timeout the
    bounds proven so far are its args (lo, up)."""
    lo, up = 0, hi
    try:
        while lo < up:
            t = (lo + up + 1) // 2
            ok, bound = _test(child, actions, t, maximise)
            if ok:
                lo = min(bound, up)
            else:
                up = max(bound, lo)
    except Timeout:
        raise Timeout(lo, up) from None
    return lo


def _exact_child(child: Child, a: int, hi: int) -> int:
    """The exact result after action ``a`` (a binary search on null windows)."""
    lo, up = 0, hi
    while lo < up:
        t = (lo + up + 1) // 2
        v = child(a, t - 1, t)
        if v >= t:
            lo = min(v, up)
        else:
            up = max(lo, v)
    return lo


def _engine(state: MatchState, team: int | None, play_out: bool, deadline: float,
            limit: int = NO_LIMIT) -> tuple[Child, list[int], int, bool, Callable[[], int]]:
    """What the root needs: the child function, the mover's actions (one per class of
    equivalent ones), the most the counted team can get, whether the mover maximises, and a
    node counter; plus (through ``_expand``) each action's equivalents."""
    seat = state.to_move if isinstance(state, (TrickPlay, GoatPlay)) else -1
    if isinstance(state, TrickPlay):
        me = seat & 1 if team is None else team
        eng = CourtSearch(state, me, not play_out, deadline, limit)
        reps = eng.ordered(seat, -1)
        return eng.play, reps, eng.upper(), (seat & 1) == me, lambda: eng.nodes
    assert isinstance(state, GoatPlay)
    me = seat & 1 if team is None else team
    g = GoatSearch(state, me, deadline, Timeout, table((state.game_id, state.trump, me)), limit)
    return g.child, g.actions(), g.upper(), (seat & 1) == me, lambda: g.nodes


def _expand(state: MatchState, reps: list[int]) -> tuple[int, ...]:
    """Every legal action equivalent to one of ``reps`` (Court Piece classes), sorted."""
    if not isinstance(state, TrickPlay):
        return tuple(sorted(reps))
    eng = CourtSearch(state, 0, True, 0.0)
    out: list[int] = []
    for rep, mask in eng.classes(state.to_move):
        if rep in reps:
            out.extend(c for c in range(52) if mask >> c & 1)
    return tuple(sorted(out))


def _playable(state: MatchState) -> bool:
    if isinstance(state, TrickPlay):
        return state.phase == PLAY and state.to_move >= 0
    if isinstance(state, GoatPlay):
        return state.turn() is not None
    raise TypeError(f"no solver for {type(state).__name__}")


def solve(state: MatchState, *, time_limit: float = 2.0, team: int | None = None,
          play_out: bool = False, nodes: int | None = None) -> Solution:
    """The counted team's best result from ``state`` (see the module for units and bounds).

    ``team``: whose tricks or points to count (default: the side to move's; in two-player
    Court Piece a seat); the seat to move then maximises it or, on the other side, minimises
    it, and ``best`` are its actions doing so.  ``play_out``: Court Piece played to the 13th
    trick (DDS's count).  ``nodes``: the most positions to search (the module's "Budgets").
    Before the trump call, the call is searched too (rarely exact in time).  A finished
    deal, or a state nobody moves in, gives ``Solution(0, (), True, 0)``."""
    deadline = perf_counter() + time_limit
    limit = NO_LIMIT if nodes is None else max(1, nodes)
    if not _playable(state):
        if isinstance(state, TrickPlay) and state.phase == 0 and state.to_move >= 0:
            return _solve_call(state, deadline, team, play_out, limit)
        return Solution(0, (), True, 0)
    child, actions, hi, maximise, counted = _engine(state, team, play_out, deadline, limit)
    try:
        value = _root(child, actions, hi, maximise)
    except Timeout as t:
        lo, up = t.args
        return Solution(lo if maximise else up, _expand(state, actions[:1]), False, counted())
    best: list[int] = []
    try:
        for a in actions:
            v = child(a, value - 1, value) if maximise else child(a, value, value + 1)
            if (v >= value) if maximise else (v <= value):
                best.append(a)
    except Timeout:
        return Solution(value, _expand(state, best or actions[:1]), False, counted())
    return Solution(value, _expand(state, best), True, counted())


@dataclass(frozen=True)
class Bounds:
    """What the search proved about the counted team's best result from a position in its
    time: ``lower <= best <= upper`` whoever is to move (``exact``: settled, the two equal).
    ``lower`` is a result the counted team can force, ``upper`` one it cannot beat; ``most``
    the top of the range the search began with (an ``upper`` that high proves nothing)."""

    lower: int
    upper: int
    exact: bool
    nodes: int
    most: int


def bounds(state: MatchState, *, time_limit: float = 2.0, team: int | None = None,
           play_out: bool = False, probes: int = 0) -> Bounds:
    """Both bounds the search proved on the counted team's result from ``state``, a position
    in play (after the trump call), within ``time_limit`` (units and options as ``solve``).

    ``probes`` 0: the range is halved by null-window tests as ``solve`` does, until the time
    runs out (a test it cuts short proves nothing).  ``probes`` n: that halving has only
    ``time_limit / n`` (enough where the result is in easy reach), and then each further test
    has as much, closing in from both ends in turn by a quarter of the range left (a test cut
    short is tried again nearer its end), so that where the exact result is out of reach the
    bounds still move in from both sides."""
    if not _playable(state):
        raise ValueError("bounds are searched from a position in play")
    end = perf_counter() + time_limit
    first = end if probes <= 0 else min(end, perf_counter() + time_limit / probes)
    child, actions, hi, maximise, nodes = _engine(state, team, play_out, first)
    try:
        value = _root(child, actions, hi, maximise)
        return Bounds(value, value, True, nodes(), hi)
    except Timeout as t:
        lo, up = t.args
    searched = nodes()
    if probes <= 0:
        return Bounds(lo, up, False, searched, hi)
    parts = [4, 4]  # per end: the step is the range left over this
    raising = True
    while lo < up and perf_counter() < end:
        slice_end = min(end, perf_counter() + time_limit / probes)
        child, actions, _, maximise, nodes = _engine(state, team, play_out, slice_end)
        side = 0 if raising else 1
        step = max(1, (up - lo) // parts[side])
        target = lo + step if raising else up - step + 1  # is the result >= target?
        try:
            ok, bound = _test(child, actions, target, maximise)
            if ok:
                lo = min(bound, up)
            else:
                up = max(bound, lo)
            parts[side] = max(2, parts[side] // 2)
        except Timeout:
            parts[side] *= 2  # nearer that end next time: an easier test
        searched += nodes()
        raising = not raising
    return Bounds(lo, up, lo == up, searched, hi)


def action_values(state: MatchState, *, time_limit: float = 2.0, team: int | None = None,
                  play_out: bool = False, nodes: int | None = None) -> dict[int, int]:
    """The counted team's result after each legal action of the seat to move (same unit and
    options as ``solve``), every equivalent action given its class's value.  Actions the time
    limit or the node budget (``nodes``, for all the actions together) left unsolved are
    missing from the dict."""
    deadline = perf_counter() + time_limit
    limit = NO_LIMIT if nodes is None else max(1, nodes)
    if not _playable(state):
        if isinstance(state, TrickPlay) and state.phase == 0 and state.to_move >= 0:
            out: dict[int, int] = {}
            used = 0
            for a in state.legal_ids(state.to_move):
                if used >= limit:
                    break
                c = state.clone()
                c.apply_id(state.to_move, a)
                s = solve(c, time_limit=max(0.0, deadline - perf_counter()), team=team,
                          play_out=play_out, nodes=limit - used)
                used += s.nodes
                if s.exact:
                    out[a] = s.value
            return out
        return {}
    child, actions, hi, _, _ = _engine(state, team, play_out, deadline, limit)
    out = {}
    for a in actions:
        try:
            v = _exact_child(child, a, hi)
        except Timeout:
            break
        for eq in _expand(state, [a]):
            out[eq] = v
    return out


def _solve_call(state: TrickPlay, deadline: float, team: int | None,
                play_out: bool, limit: int = NO_LIMIT) -> Solution:
    """The trump call searched as the root's first move (the caller's team counted)."""
    caller = state.to_move
    me = caller & 1 if team is None else team
    maximise = (caller & 1) == me
    vals: dict[int, int] = {}
    exact = True
    nodes = 0
    for a in state.legal_ids(caller):
        if nodes >= limit:
            exact = False
            break
        c = state.clone()
        c.apply_id(caller, a)
        s = solve(cast(MatchState, c), time_limit=max(0.0, deadline - perf_counter()), team=me,
                  play_out=play_out, nodes=limit - nodes)
        nodes += s.nodes
        if not s.exact:
            exact = False
            continue
        vals[a] = s.value
    if not vals:
        return Solution(0 if maximise else 13, tuple(state.legal_ids(caller)[:1]), False, nodes)
    pick = max(vals.values()) if maximise else min(vals.values())
    return Solution(pick, tuple(sorted(a for a, v in vals.items() if v == pick)), exact, nodes)


__all__ = ["Bounds", "Solution", "action_values", "bounds", "clear_tables", "solve"]
