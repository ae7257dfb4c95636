"""What each action of a replayed deal cost, two ways, labelled plainly.

- **With only what the player knew**: what the ``hard`` bot (``taash.bots``) plays from that
  seat's view at that moment (the core's ``view(seat)``: its own hand and what was public),
  and whether the player did the same.  Each decision gets a bot of its own, seeded from the
  deal and the action's index, with the level's own budget (counted in work, not time:
  ``taash.bots.pimc``), so the answer is the one ``hard`` gives at a table, the same each time.
- **With all cards open**: the best result the seat's side could still reach before the
  action and after it, from the exact solver ``taash.review.solver`` (``action_values`` and
  ``solve``; another module, imported lazily: where it is not installed this part says "not
  available").  Units: tricks taken (collected in double sar) in Court Piece, card points in
  Goat, as totals for the deal (what the side had before, plus what it can still get).  A play
  that turns a won deal into a lost one is a **blunder**; one that gives up tricks, points or a
  coat (court) is a **mistake**; one of the best actions is **best**.  Where the solver is not
  exact within its time limit (early Goat positions, say) the action is marked "not exact" and
  not judged.

Four-player single sar is whist with a trump suit, so there the tricks come from DDS, the bridge
solver (``taash.review.dds``, through ``endplay``), wherever it can be imported: exact for every
position in milliseconds.  DDS plays every trick out; the deal stops at 7 tricks, so its counts
are cut there (``dds.clamp``): exact in taash's unit on a won line, whist's count (every trick
played) on a lost one, where a coat conceded is asked of the own solver instead.  Whether a
coat can still be had needs the stop at 7, so the own solver answers that in both cases.
Elsewhere, or without endplay, the own solver does it all.  ``DealAnalysis.solver`` and each
``Open.solver`` say which solver gave the tricks: "dds" or "taash".

``analyse_deal`` does both for the seats asked (every seat by default) and sums them up per
seat: blunders, mistakes, plays that matched the best play and plays that matched ``hard``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Literal

from taash.games import MatchState
from taash.games.goat import PACK as GOAT_PACK
from taash.games.goat import defeat_points
from taash.games.goat import points as goat_points
from taash.games.tricks import TrickPlay
from taash.review.replay import DealReplay

# The hard bot's budget per decision (None: the level's default, as at a table; counted in
# work, not time: taash.bots.pimc) and the seeds' base.
BOT_BUDGET_MS: float | None = None
BOT_SEED = 26
SOLVER = "taash.review.solver"
DDS = "taash.review.dds"

Verdict = Literal["best", "mistake", "blunder"]
Standing = Literal["won", "drawn", "lost"]
RANK: dict[str, int] = {"lost": 0, "drawn": 1, "won": 2}


@dataclass(frozen=True)
class Known:
    """With only what the player knew: the ``hard`` bot's action from the seat's view (None:
    it would not have acted now, an out-of-turn molodka declined) and whether it matched.
    Where ``hard`` searched: ``scores``, each candidate's mean playout score over its samples
    (``taash.bots.pimc.Search``; 1 is a won deal, plus a little for the margin; "" a molodka
    declined), ``samples`` (of hard's choice) and ``gain``, how much better hard's choice
    scored than the player's action (None: the same action, or the player's was not one of
    the candidates hard searched).  Two answers are equal when hard's choice is: the scores
    may differ a little where a slow machine's time cap (``taash.bots.pimc``) cut a search
    short."""

    bot: str | None
    matched: bool
    scores: Mapping[str, float] | None = field(default=None, compare=False)
    samples: int | None = field(default=None, compare=False)
    gain: float | None = field(default=None, compare=False)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"hard": self.bot, "matched": self.matched}
        if self.scores is not None:
            out.update({"scores": {a: round(v, 4) for a, v in self.scores.items()},
                        "samples": self.samples,
                        "gain": None if self.gain is None else round(self.gain, 4)})
        return out


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


@dataclass(frozen=True)
class ActionReview:
    """One action of the deal and what it cost (``known``/``open`` None: not analysed)."""

    step: int
    trick: int
    seat: int
    action: str
    known: Known | None
    open: Open | None

    def as_json(self) -> dict[str, object]:
        return {"step": self.step, "trick": self.trick, "seat": self.seat,
                "action": self.action,
                "known": self.known.as_json() if self.known is not None else None,
                "open": self.open.as_json() if self.open is not None else None}


@dataclass
class SeatSummary:
    """Per seat: actions analysed, blunders, mistakes, plays matching the best play (with all
    cards open), plays judged (the solver exact), and plays matching ``hard``."""

    seat: int
    actions: int = 0
    blunders: int = 0
    mistakes: int = 0
    best: int = 0
    judged: int = 0
    matched_hard: int = 0

    def as_json(self) -> dict[str, int]:
        return {"seat": self.seat, "actions": self.actions, "blunders": self.blunders,
                "mistakes": self.mistakes, "best": self.best, "judged": self.judged,
                "matched_hard": self.matched_hard}


@dataclass(frozen=True)
class DealAnalysis:
    """``solver``: which exact solver gave the open-cards values: "dds", "taash", both as
    "dds+taash" (DDS refused a position), or None (none was available, or not asked)."""

    actions: tuple[ActionReview, ...]
    seats: tuple[SeatSummary, ...]
    solver: str | None
    notes: tuple[str, ...] = field(default=())

    def for_step(self, step: int) -> ActionReview | None:
        return next((a for a in self.actions if a.step == step), None)


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
    return (deal.game == "court-piece" and deal.num_seats == 4
            and not getattr(state, "double", False))


def hard_search(deal: DealReplay, step: int, budget_ms: float | None = BOT_BUDGET_MS
                ) -> tuple[str | None, dict[str, tuple[float, int]] | None]:
    """What ``hard`` plays for the seat of action ``step`` from that seat's view just before
    it (a bot of its own, seeded from the deal and the step), and its search's candidates:
    (mean score, samples) each, None where it decided without a search."""
    from taash.bots import make_bot

    seat = deal.steps[step].seat
    state = deal.positions[step].state
    bot = make_bot(deal.game, "hard", BOT_SEED * 100_003 + deal.deal * 1009 + step, budget_ms)
    choice = bot.act(state.view(seat))
    scores = getattr(bot, "last_scores", None)
    return choice, scores() if callable(scores) else None


def hard_choice(deal: DealReplay, step: int, budget_ms: float | None = BOT_BUDGET_MS) -> str | None:
    """What ``hard`` plays for the seat of action ``step`` (see ``hard_search``)."""
    return hard_search(deal, step, budget_ms)[0]


def known_part(deal: DealReplay, step: int, budget_ms: float | None = BOT_BUDGET_MS) -> Known:
    s = deal.steps[step]
    choice, found = hard_search(deal, step, budget_ms)
    state = deal.positions[step].state

    def canonical(text: str) -> str:
        return state.action_text(state.action_id(s.seat, text)) if text else ""

    canon = None if choice is None else canonical(choice)
    if found is None:
        return Known(canon, canon == s.action)
    scores = {canonical(a): v for a, (v, _) in found.items()}
    samples = {canonical(a): n for a, (_, n) in found.items()}
    mine = scores.get(s.action)
    theirs = scores.get(canon or "")
    gain = None
    if canon != s.action and mine is not None and theirs is not None:
        gain = theirs - mine
    return Known(canon, canon == s.action, scores, samples.get(canon or ""), gain)


def so_far(deal: DealReplay, step: int, side: int) -> int:
    """What the side has before action ``step``: tricks taken (collected) in Court Piece,
    card points in Goat."""
    pos = deal.positions[step]
    if deal.game == "goat":
        pts = deal.tricks[pos.tricks_done - 1].points if pos.tricks_done else None
        return pts[side] if pts is not None else 0
    return int(pos.view["tricks"][side])


def _standing(deal: DealReplay, state: MatchState, mine: int, side: int,
              tricks: tuple[int, int]) -> tuple[Standing, int | None]:
    """Won, drawn or lost with ``mine`` as the side's total (and its defeat points in Goat)."""
    if deal.game == "goat":
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
    unit = "points" if deal.game == "goat" else "tricks"
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


def analyse_deal(deal: DealReplay, seats: Iterable[int] | None = None, *,
                 hard: bool = True, open_cards: bool = True, time_limit: float = 2.0,
                 budget_ms: float | None = BOT_BUDGET_MS,
                 progress: Callable[[int, int], None] | None = None,
                 use_dds: bool = True) -> DealAnalysis:
    """Every action of ``seats`` (all by default) reviewed both ways, and a summary per seat;
    ``progress(done, total)`` is called after each action; ``use_dds`` False: the own
    solver even where DDS applies (to compare them)."""
    wanted = set(range(deal.num_seats) if seats is None else seats)
    solver = load_solver() if open_cards else None
    dds = load_dds() if open_cards and use_dds and is_single_sar(deal) else None
    todo = [s for s in deal.steps if s.seat in wanted]
    out: list[ActionReview] = []
    summaries = {seat: SeatSummary(seat) for seat in sorted(wanted)}
    for n, s in enumerate(todo):
        known = known_part(deal, s.index, budget_ms) if hard else None
        opened = open_part(deal, s.index, solver, time_limit, dds) if open_cards else None
        out.append(ActionReview(s.index, s.trick, s.seat, s.action, known, opened))
        sm = summaries[s.seat]
        sm.actions += 1
        if known is not None and known.matched:
            sm.matched_hard += 1
        if opened is not None and opened.verdict is not None:
            sm.judged += 1
            if opened.verdict == "blunder":
                sm.blunders += 1
            elif opened.verdict == "mistake":
                sm.mistakes += 1
            else:
                sm.best += 1
        if progress is not None:
            progress(n + 1, len(todo))
    notes = []
    used = sorted({r.open.solver for r in out if r.open is not None and r.open.solver})
    label = "+".join(used) if used else ("dds" if dds is not None else
                                        "taash" if solver is not None else None)
    if open_cards and label is None:
        notes.append("with all cards open: not available (the exact solver is not installed)")
    return DealAnalysis(tuple(out), tuple(summaries.values()), label, tuple(notes))


__all__ = ["ActionReview", "BOT_BUDGET_MS", "DealAnalysis", "Known", "Open", "SeatSummary",
           "analyse_deal", "hard_choice", "hard_search", "is_single_sar", "load_dds",
           "load_solver", "open_part"]
