"""Finding puzzles in finished deals: positions where, with all hands open, one card (or one
group of equivalent cards) alone keeps the best result and the obvious card costs something.

A position is the state before one action of a deal, with a seat to move in its turn (not a
trump call, not a molodka out of turn).  It is a **puzzle** when, with the exact solver
(``taash.review.solver.action_values``, every legal action solved exactly within the time
limit):

1. the legal actions reaching the best result for the mover's side are **one group**: in Court
   Piece one class of equivalent cards as the solver groups them (touching ranks of one suit
   with no card still out between them: any of them does the same), in Goat one action;
2. the **obvious** action is not in it and costs at least ``MIN_LOSS`` of the game's unit: the
   obvious action is the one the ``easy`` bot (``taash.bots``, its rules of thumb, seeded 0)
   plays from the mover's own view.  Court Piece counts tricks the side takes until the deal
   stops at 7 (``taash.review.solver``), so a difference of one is a trick or the deal
   itself; Goat counts card points, and the obvious action must give up at least 10 of them
   (a ten's worth).

Only late positions are searched (``Limits``): in Court Piece the mover's hand holds at most
``court_cards`` cards (``court_2p_cards`` in two-player), in Goat the stock is empty (the
endgame, where the solver is exact in time).  A deal's positions are taken from the last back
to the first, so that the solver's tables carry over.

A puzzle's position is a record prefix (RECORD.md): one deal, dealt as it was, with the actions
before the puzzle.  Its ``id`` is a hash of that prefix (game, options, first seat, deck, trump
card, actions), so the same position has the same id wherever it is found.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from taash.bots import make_bot
from taash.games import game_class
from taash.games.base import IllegalAction, Json, MatchState, RecordError
from taash.games.goat_play import GoatPlay
from taash.games.tricks_play import PLAY, TrickPlay
from taash.puzzles.glicko import Rating
from taash.puzzles.themes import court_themes, goat_themes
from taash.record import FORMAT, replay, validate
from taash.review import dds
from taash.review.solver import action_values, solve
from taash.review.solver_court import CourtSearch

MIN_LOSS = {"tricks": 1, "points": 10}
CONTINUATION = 24  # actions of the best line kept after the solution at most
OBVIOUS_SEED = 0


@dataclass(frozen=True)
class Limits:
    """Which positions are searched, and the solver's time per position (seconds)."""

    court_cards: int = 8
    court_2p_cards: int = 13
    time_limit: float = 1.0


@dataclass(frozen=True)
class Puzzle:
    """One puzzle.  ``record``: the position as a one-deal record prefix; ``seat``: the seat
    to move; ``solution``: every action (canonical text) of the one best group; ``obvious``:
    the easy bot's action; ``best``/``obvious_value``: the mover's side's result from here
    after each (``unit``: tricks or card points); ``line``: the continuation after the
    solution, (seat, action) each; ``themes``: ``taash.puzzles.themes``."""

    id: str
    game: str
    options: dict[str, Json]
    record: dict[str, Json]
    seat: int
    solution: tuple[str, ...]
    obvious: str
    best: int
    obvious_value: int
    unit: str
    line: tuple[tuple[int, str], ...]
    themes: tuple[str, ...]
    rating: Rating = field(default_factory=Rating)

    def as_json(self) -> dict[str, Json]:
        return {"id": self.id, "game": self.game, "options": self.options,
                "record": self.record, "seat": self.seat, "solution": list(self.solution),
                "obvious": self.obvious,
                "value": {"unit": self.unit, "best": self.best, "obvious": self.obvious_value},
                "continuation": [{"seat": s, "action": a} for s, a in self.line],
                "themes": list(self.themes), "rating": self.rating.as_json()}

    @classmethod
    def from_json(cls, data: Json) -> Puzzle:
        """A puzzle from ``as_json``'s object (ValueError saying what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("a puzzle must be a JSON object")
        try:
            value = data["value"]
            return cls(str(data["id"]), str(data["game"]), dict(data["options"]),
                       dict(data["record"]), int(data["seat"]),
                       tuple(str(a) for a in data["solution"]), str(data["obvious"]),
                       int(value["best"]), int(value["obvious"]), str(value["unit"]),
                       tuple((int(x["seat"]), str(x["action"])) for x in data["continuation"]),
                       tuple(str(t) for t in data["themes"]), Rating.from_json(data["rating"]))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"puzzle {data.get('id', '?')}: malformed ({e})") from None

    def position(self) -> MatchState:
        """The puzzle's position, rebuilt through the core from its record prefix."""
        return replay(validate(self.record))


def position_id(rec: dict[str, Json]) -> str:
    """A stable id of a one-deal record prefix: 16 hex digits of its SHA-256."""
    cls = game_class(rec["game"])
    d = rec["deals"][0]
    key = [rec["game"], rec["options"], rec[cls.first_seat_key], d["deck"],
           d.get("trump_card"), [[a["seat"], a["action"]] for a in d["actions"]]]
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def single_deals(rec: dict[str, Json]) -> Iterator[dict[str, Json]]:
    """Each deal of a checked record as a one-deal record of its own: the same deck and
    actions, first seat the deal's dealer (caller in two-player).  A deal that does not replay
    alone (its first seat came from an earlier deal in a way a new match does not repeat) is
    left out."""
    cls = game_class(rec["game"])
    key = cls.first_seat_key
    state = cls(rec["options"], rec[key], None)
    for d in rec["deals"]:
        tc = d.get("trump_card")
        state.deal(d["deck"], tc) if tc else state.deal(d["deck"])
        first = int(getattr(state, "caller" if key == "first_caller" else "dealer"))
        one: dict[str, Json] = {"format": FORMAT, "game": rec["game"],
                                "options": rec["options"], key: first,
                                "deals": [{k: d[k] for k in ("deck", "trump_card", "actions")
                                           if k in d}]}
        for a in d["actions"]:
            state.apply(a["seat"], a["action"])
        try:
            replay(validate(one))
        except (IllegalAction, RecordError, ValueError):
            continue
        yield one


def _prefix(one: dict[str, Json], n: int) -> dict[str, Json]:
    d = dict(one["deals"][0])
    d["actions"] = [dict(a) for a in d["actions"][:n]]
    return {**one, "deals": [d]}


def _late(state: MatchState, seat: int, limits: Limits) -> bool:
    if isinstance(state, TrickPlay):
        cap = limits.court_cards if state.num_seats == 4 else limits.court_2p_cards
        return state.phase == PLAY and state.hands[seat].bit_count() <= cap
    if isinstance(state, GoatPlay):
        return state.stock_pos >= len(state.deck)
    return False


def groups(state: MatchState, seat: int) -> dict[int, int]:
    """Each legal action's group: equivalent cards share one (Court Piece), else its own."""
    if isinstance(state, TrickPlay):
        out: dict[int, int] = {}
        for rep, mask in CourtSearch(state, 0, True, 0.0).classes(seat):
            for c in range(52):
                if mask >> c & 1:
                    out[c] = rep
        return out
    return {a: a for a in state.legal_ids(seat)}


@dataclass(frozen=True)
class Found:
    """What makes a position a puzzle (``find``): the one best group's actions (ids), the
    obvious action, the mover's side's result after each, the best line after the solution,
    and the themes."""

    seat: int
    solution: tuple[int, ...]
    obvious: int
    best: int
    obvious_value: int
    line: tuple[tuple[int, str], ...]
    themes: tuple[str, ...]


def obvious_action(state: MatchState, seat: int) -> int | None:
    """The obvious action: the easy bot's (seeded ``OBVIOUS_SEED``) from the seat's view."""
    text = make_bot(state.game_id, "easy", seed=OBVIOUS_SEED).act(state.view(seat))
    return None if text is None else state.action_id(seat, text)


def find(state: MatchState, limits: Limits = Limits(), obvious: int | None = None,
         late: bool = True) -> Found | None:
    """Whether ``state`` is a puzzle for the seat to move (the module says when), and why.
    ``obvious``: the obvious action if not the easy bot's; ``late`` False: any position,
    not only the late ones ``limits`` allows."""
    seat = state.turn()
    if seat is None or (late and not _late(state, seat, limits)):
        return None
    group = groups(state, seat)
    if len(set(group.values())) < 2:
        return None
    if obvious is None:
        obvious = obvious_action(state, seat)
        if obvious is None:
            return None
    if not _dds_candidate(state, seat, group, obvious):
        return None
    # the cheap test first: the best actions (one null-window test each), then every value
    first = solve(state.clone(), time_limit=limits.time_limit)
    if not first.exact or obvious in first.best or len({group[a] for a in first.best}) != 1:
        return None
    vals = action_values(state.clone(), time_limit=limits.time_limit)
    if not set(group) <= set(vals):
        return None
    best = max(vals[a] for a in group)
    winners = {group[a] for a in group if vals[a] == best}
    unit = game_class(state.game_id).deal_unit
    if len(winners) != 1 or group[obvious] in winners or best - vals[obvious] < MIN_LOSS[unit]:
        return None
    solution = tuple(sorted(a for a in group if vals[a] == best))
    line = _line(state, seat, solution[0], limits.time_limit)
    return Found(seat, solution, obvious, best, vals[obvious], line,
                 themes_of(state, seat, solution, obvious, line))


def themes_of(state: MatchState, seat: int, solution: Sequence[int], obvious: int,
              line: Sequence[tuple[int, str]]) -> tuple[str, ...]:
    """The themes (``taash.puzzles.themes``) of the position ``state`` with this solution,
    obvious action and best line after the solution (played out on a clone for the tricks'
    winners)."""
    if isinstance(state, GoatPlay):
        return tuple(goat_themes(state, seat, solution[0], obvious))
    assert isinstance(state, TrickPlay)
    c = state.clone()
    winners: list[int] = []
    for s, text in ((seat, state.action_text(solution[0])), *line):
        winners += [int(e["winner"]) for e in c.apply(s, text) if e["type"] == "trick"]
    return tuple(court_themes(state, seat, solution, winners[0] if winners else None,
                              winners[1] if len(winners) > 1 else None))


def retag(p: Puzzle) -> Puzzle:
    """The puzzle with its themes recomputed by the current definitions (no solving: the
    position is rebuilt and the stored line played out)."""
    state = p.position()
    solution = [state.action_id(p.seat, a) for a in p.solution]
    themes = themes_of(state, p.seat, sorted(solution), state.action_id(p.seat, p.obvious),
                       p.line)
    return replace(p, themes=themes)


def examine(one: dict[str, Json], n: int, state: MatchState,
            limits: Limits = Limits()) -> Puzzle | None:
    """The puzzle at the position before action ``n`` of the one-deal record ``one``
    (``state``, the core's state there), or None if it is not one."""
    f = find(state, limits)
    if f is None:
        return None
    rec = _prefix(one, n)
    return Puzzle(position_id(rec), state.game_id, dict(one["options"]), rec, f.seat,
                  tuple(state.action_text(a) for a in f.solution), state.action_text(f.obvious),
                  f.best, f.obvious_value, game_class(state.game_id).deal_unit, f.line,
                  f.themes)


def _dds_candidate(state: MatchState, seat: int, group: dict[int, int], obvious: int) -> bool:
    """A quick sieve where DDS applies (four-player single sar, ``taash.review.dds``): with
    whist's counts cut at 7, the obvious card is not a best one.  It only spares
    the own solver positions that are unlikely puzzles; the own solver decides."""
    if not isinstance(state, TrickPlay) or not dds.applies(state) or not dds.available():
        return True
    try:
        vals = dds.clamp(dds.action_values(state.clone()), state.won[seat & 1],
                         state.win_target)
    except (RuntimeError, ValueError):
        return True
    return obvious in vals and vals[obvious] < max(vals.values())


def _line(state: MatchState, seat: int, action: int, time_limit: float
          ) -> tuple[tuple[int, str], ...]:
    """The best line after the solution: each mover's first best action, while the solver is
    exact, up to ``CONTINUATION`` actions or the deal's end."""
    c = state.clone()
    c.apply_id(seat, action)
    line: list[tuple[int, str]] = []
    while len(line) < CONTINUATION and not (c.needs_deal() or c.is_over()):
        s = c.turn()
        if s is None:
            break
        sol = solve(c.clone(), time_limit=time_limit)
        if not sol.exact or not sol.best:
            break
        line.append((s, c.action_text(sol.best[0])))
        c.apply_id(s, sol.best[0])
    return tuple(line)


def mine_deal(one: dict[str, Json], limits: Limits = Limits()) -> list[Puzzle]:
    """Every puzzle of a one-deal record (``single_deals``), last position first."""
    state = replay(validate({**one, "deals": [{**one["deals"][0], "actions": []}]}))
    states: list[tuple[int, MatchState]] = []
    for i, a in enumerate(one["deals"][0]["actions"]):
        states.append((i, state.clone()))
        state.apply(a["seat"], a["action"])
    out = []
    for i, st in reversed(states):
        p = examine(one, i, st, limits)
        if p is not None:
            out.append(p)
    return out


def check(p: Puzzle, time_limit: float = 30.0) -> str | None:
    """None if a stored puzzle holds, rebuilt from its record prefix through the core and
    solved afresh (``action_values``, every legal action): the seat to move, one best group
    and it the solution, the obvious action costing at least ``MIN_LOSS``, the values as
    stored.  Else what does not hold, in a few words."""
    state = p.position()
    if state.turn() != p.seat:
        return f"seat {p.seat} is not the one to move"
    group = groups(state, p.seat)
    vals = action_values(state.clone(), time_limit=time_limit)
    if not set(group) <= set(vals):
        return f"not solved exactly within {time_limit:g} s"
    best = max(vals[a] for a in group)
    tops = [a for a in group if vals[a] == best]
    if len({group[a] for a in tops}) != 1:
        return "more than one best group: " + " ".join(state.action_text(a) for a in tops)
    if {state.action_text(a) for a in tops} != set(p.solution):
        return "the best group is " + " ".join(state.action_text(a) for a in tops)
    ob = state.action_id(p.seat, p.obvious)
    if best - vals[ob] < MIN_LOSS[p.unit] or (best, vals[ob]) != (p.best, p.obvious_value):
        return f"values: best {best}, obvious {vals[ob]} (stored {p.best}, {p.obvious_value})"
    return None


__all__ = ["CONTINUATION", "Found", "Limits", "MIN_LOSS", "OBVIOUS_SEED", "Puzzle", "examine",
           "check", "find", "groups", "mine_deal", "obvious_action", "position_id", "retag",
           "single_deals", "themes_of"]
