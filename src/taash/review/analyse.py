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

The all-cards-open half is taash.review.open_cards's (``open_part``; ``Open`` and the loaders
are importable from here too).  ``analyse_deal`` does both for the seats asked (every seat by
default) and sums them up per seat: blunders, mistakes, plays that matched the best play and
plays that matched ``hard``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from taash.bots import make_bot
from taash.review.open_cards import Open, is_single_sar, load_dds, load_solver, open_part
from taash.review.replay import DealReplay

# The hard bot's budget per decision (None: the level's default, as at a table; counted in
# work, not time: taash.bots.pimc) and the seeds' base.
BOT_BUDGET_MS: float | None = None
BOT_SEED = 26


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


def hard_search(deal: DealReplay, step: int, budget_ms: float | None = BOT_BUDGET_MS
                ) -> tuple[str | None, dict[str, tuple[float, int]] | None]:
    """What ``hard`` plays for the seat of action ``step`` from that seat's view just before
    it (a bot of its own, seeded from the deal and the step), and its search's candidates:
    (mean score, samples) each, None where it decided without a search."""
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
