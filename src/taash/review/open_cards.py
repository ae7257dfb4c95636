"""With all cards open: the best total a seat's side could still reach before an action and
after it, from DDS where it applies (four-player single sar) or else the own exact solver,
and the verdict on the action (best, mistake, blunder).  taash.review.analyse explains the
units and the verdicts, and puts this beside what ``hard`` would have played.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

from taash.games import CourtPiece, MatchState, game_class
from taash.games.goat import PACK as GOAT_PACK
from taash.games.goat import defeat_points
from taash.games.goat import points as goat_points
from taash.games.tricks import TrickPlay
from taash.review.replay import DealReplay

SOLVER = "taash.review.solver"
DDS = "taash.review.dds"

Verdict = Literal["best", "mistake", "blunder"]
Standing = Literal["won", "drawn", "lost"]
RANK: dict[str, int] = {"lost": 0, "drawn": 1, "won": 2}


@dataclass(frozen=True)
class Open:
    """With all cards open.  ``note`` says why there is no verdict when there is none ("not
    available", "not exact within 2 s", "out of turn"), or what was not exact beside one.
    ``before``/``after``: the side's best total for the deal before and after the action
    (tricks, or Goat card points); ``standing_*``: won, drawn or lost with best play from
    there; ``coat_*``: whether the side could still coat (court) the others (None where they
    already have a trick, the deal is not won, or the solver was not exact); ``best``: the
    best actions; ``defeat_*`` (Goat): the defeat points the side would
    take (counting the tricks it has so far); ``coated_*`` (single sar judged by DDS, a
    lost side with no trick yet): whether the others could keep it off every trick (a coat
    conceded is a mistake); ``solver``: which solver gave the values, "dds" or "taash"."""

    verdict: Verdict | None
    note: str | None = None
    unit: str = "tricks"
    before: int | None = None
    after: int | None = None
    standing_before: Standing | None = None
    standing_after: Standing | None = None
    coat_before: bool | None = None
    coat_after: bool | None = None
    best: tuple[str, ...] = ()
    defeat_before: int | None = None
    defeat_after: int | None = None
    solver: str | None = None
    coated_before: bool | None = None
    coated_after: bool | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"verdict": self.verdict, "note": self.note}
        if self.before is not None:
            out.update({"unit": self.unit, "before": self.before, "after": self.after,
                        "standing_before": self.standing_before,
                        "standing_after": self.standing_after, "best": list(self.best),
                        "solver": self.solver})
            if self.unit == "tricks":
                out.update({"coat_before": self.coat_before, "coat_after": self.coat_after})
                if self.coated_before is not None or self.coated_after is not None:
                    out.update({"coated_before": self.coated_before,
                                "coated_after": self.coated_after})
            else:
                out.update({"defeat_before": self.defeat_before,
                            "defeat_after": self.defeat_after})
        return out


def load_solver() -> ModuleType | None:
    """The exact solver's module, or None where it is not installed."""
    try:
        return importlib.import_module(SOLVER)
    except ModuleNotFoundError as e:
        if e.name != SOLVER:
            raise
        return None


def load_dds() -> ModuleType | None:
    """``taash.review.dds`` where endplay can be imported (DDS for single sar), else None."""
    mod = importlib.import_module(DDS)
    return mod if mod.available() else None


def is_single_sar(deal: DealReplay) -> bool:
    """Four-player Court Piece in single sar: the game DDS solves."""
    state = deal.positions[0].state if deal.positions else None
    return (game_class(deal.game) is CourtPiece and deal.num_seats == 4
            and not getattr(state, "double", False))


def so_far(deal: DealReplay, step: int, side: int) -> int:
    """What the side has before action ``step``: tricks taken (collected) in Court Piece,
    card points in Goat."""
    pos = deal.positions[step]
    if game_class(deal.game).deal_unit == "points":
        pts = deal.tricks[pos.tricks_done - 1].points if pos.tricks_done else None
        return pts[side] if pts is not None else 0
    return int(pos.view["tricks"][side])


def _standing(deal: DealReplay, state: MatchState, mine: int, side: int,
              tricks: tuple[int, int]) -> tuple[Standing, int | None]:
    """Won, drawn or lost with ``mine`` as the side's total (and its defeat points in Goat)."""
    if game_class(deal.game).deal_unit == "points":  # Goat: defeat points decide
        total = goat_points(GOAT_PACK.all_mask)
        pts = [0, 0]
        pts[side], pts[1 - side] = mine, total - mine
        d = defeat_points(pts, list(tricks))
        return ("lost" if d[side] else "won" if d[1 - side] else "drawn"), d[side]
    assert isinstance(state, TrickPlay)
    return ("won" if mine >= state.win_target else "lost"), None


def open_part(deal: DealReplay, step: int, solver: ModuleType | None,
              time_limit: float = 2.0, dds: ModuleType | None = None) -> Open:
    """With all cards open: the side's best total before and after action ``step``, from DDS
    (``dds``, ``taash.review.dds``) where it applies, else from the own ``solver``."""
    s = deal.steps[step]
    state = deal.positions[step].state
    use_dds = dds is not None and dds.applies(state)
    if solver is None and not use_dds:
        return Open(None, "not available: the exact solver is not installed")
    if state.turn() != s.seat:
        return Open(None, "not analysed: an out-of-turn molodka")
    seat = s.seat
    side = deal.side_of(seat)
    played = state.action_id(seat, s.action)
    legal = state.legal_ids(seat)
    have = so_far(deal, step, side)
    values: Mapping[int, int] | None = None
    used = "taash"
    if use_dds:
        assert dds is not None and isinstance(state, TrickPlay)
        try:
            values = dds.clamp(dds.action_values(state.clone()), have, state.win_target)
            used = "dds"
        except (RuntimeError, ValueError):
            values = None  # DDS refused it: the own solver answers
    if values is None:
        if solver is None:
            return Open(None, "not available: the exact solver is not installed")
        values = solver.action_values(state.clone(), time_limit=time_limit)
    limit = f"{time_limit:g} s"
    if played not in values or not set(legal) <= set(values):
        return Open(None, f"not exact within {limit}")
    best_v = max(values[a] for a in legal)
    before, after = have + best_v, have + values[played]
    best = tuple(sorted(state.action_text(a) for a in legal if values[a] == best_v))
    tricks = _sides_tricks(deal, step)
    sb, db = _standing(deal, state, before, side, tricks)
    sa, da = _standing(deal, state, after, side, tricks)
    unit = game_class(deal.game).deal_unit
    coat_b = coat_a = coated_b = coated_a = None
    note = None
    if unit == "tricks" and sb == "won" and _tricks_of(deal, step, 1 - side) == 0:
        coat_b, coat_a = _coats(deal, step, solver, time_limit, 1 - side)
        if coat_b is None or coat_a is None:
            note = f"whether a coat could be had: not exact within {limit}"
    elif used == "dds" and sb == "lost" and have == 0:
        # whist's counts do not see the stop at 7 a coat depends on: the own solver does
        coated_b, coated_a = _coats(deal, step, solver, time_limit, side)
        if coated_b is None or coated_a is None:
            note = f"whether a coat was conceded: not exact within {limit}"
    verdict: Verdict
    if RANK[sb] == 2 and RANK[sa] == 0:
        verdict = "blunder"
    elif (after < before or RANK[sa] < RANK[sb] or (coat_b and not coat_a)
          or (coated_b is False and coated_a)):
        verdict = "mistake"
    else:
        verdict = "best"
    return Open(verdict, note, unit, before, after, sb, sa, coat_b, coat_a, best, db, da,
                used, coated_b, coated_a)


def _sides_tricks(deal: DealReplay, step: int) -> tuple[int, int]:
    pos = deal.positions[step]
    counts = [0, 0]
    for t in deal.tricks[:pos.tricks_done]:
        counts[deal.side_of(t.winner)] += 1
    return counts[0], counts[1]


def _tricks_of(deal: DealReplay, step: int, team: int) -> int:
    return int(deal.positions[step].view["tricks"][team])


def _coats(deal: DealReplay, step: int, solver: ModuleType | None, time_limit: float,
           kept: int) -> tuple[bool | None, bool | None]:
    """Whether team ``kept`` could still be kept off every trick before and after action
    ``step`` (the solver counting its tricks gives 0): the mover's side coating the others
    (``kept`` the others) or conceding a coat (``kept`` its own side).  None: not settled
    in time, or no solver."""
    out: list[bool | None] = []
    for i in (step, step + 1):
        st = deal.positions[i].state
        if i > step and st.turn() is None:
            out.append(_tricks_of(deal, i, kept) == 0)
            continue
        if solver is None:
            out.append(None)
            continue
        sol = solver.solve(st.clone(), time_limit=time_limit, team=kept)
        out.append(sol.value == 0 if sol.exact else None)
    return out[0], out[1]
