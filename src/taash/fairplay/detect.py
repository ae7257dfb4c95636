"""The detector: over records, who chooses the full-information best action where what they
could know would lead elsewhere.

For every decision of a record with a real choice, two answers are compared:

- **with every card open**: the best actions (``taash.fairplay.open_best``);
- **with what the seat knew**: what the ``hard`` bot plays from the seat's view, its samples
  of the hidden cards read from the play (``taash.review.analyse.hard_choice``).

A decision is an **opportunity** when the open best actions are not all of the legal ones and
hard's choice is not among them: the seat's information, as hard reads it, leads elsewhere.  A
**hit** is an opportunity where the player played one of the best actions anyway.  An honest
player hits now and then (a guess, another reading of the play, a mistake that happens to be
right); someone who sees the cards hits far more often.  Each opportunity's chance of a hit for
an honest player is the rate of its game and position kind in the honest reference population
(``reference.json``, made by ``bench/fairplay_reference.py``), so a player's hits under honesty
follow a Poisson-binomial law, and the p-value is its upper tail at the hits seen.  The score is
``-log10(p)``.  A partnership (the two seats of a four-player side) pools its seats'
opportunities.  The deals that weigh most are those whose hits are least likely for an honest
player (the sum over its opportunities of ``-log(q)`` for a hit, ``log(1 - q)`` else).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources

from taash.fairplay.open_best import KINDS, best_actions, open_values, position_kind
from taash.games import CourtPiece
from taash.games.base import Json
from taash.review import solver
from taash.review.analyse import hard_choice
from taash.review.replay import DealReplay, replay_deal

#: the p-value at or below which a player is flagged for a person to review (never banned)
ALPHA = 0.001
#: seconds the solver may spend on one position
SOLVE_S = 0.5
#: unsettled positions in a row after which a deal's earlier positions are left out
GIVE_UP = 3
#: how many deals of a player to list as weighing most
TOP_DEALS = 3


@dataclass(frozen=True, slots=True)
class Opportunity:
    """One decision where hard's choice was not among the open best actions."""

    source: str
    deal: int
    step: int
    seat: int
    game: str  # the reference's key: court-piece/single, court-piece/double, ...
    kind: str
    hit: bool


@dataclass(slots=True)
class Scan:
    """A record's decisions: per seat the decisions judged (with a real choice, settled by
    the solver) and the opportunities among them."""

    source: str
    names: list[str]
    partnerships: list[tuple[int, ...]]
    judged: list[int]
    deals: int
    opportunities: list[Opportunity] = field(default_factory=list)


def game_key(rec: Mapping[str, Json]) -> str:
    game = str(rec["game"])
    if game == CourtPiece.game_id:  # its two sars are told apart
        opts = rec.get("options")
        sar = opts.get("sar", "single") if isinstance(opts, dict) else "single"
        return f"court-piece/{sar}"
    return game


def seat_names(rec: Mapping[str, Json], source: str, seats: int) -> list[str]:
    """Each seat's player: the name a table's record gives it (``seats[i].name``), else the
    file and the seat."""
    listed = rec.get("seats")
    out = []
    for s in range(seats):
        entry = listed[s] if isinstance(listed, list) and s < len(listed) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        out.append(name if isinstance(name, str) and name else f"{source} seat {s}")
    return out


def scan_record(rec: dict[str, Json], summary: Mapping[str, Json], source: str, *,
                budget_ms: float | None, time_limit: float = SOLVE_S,
                wanted: Callable[[str], bool] = lambda _n: True,
                progress: Callable[[str], None] | None = None) -> Scan:
    """Every decision of the seats ``wanted`` (by name), and of their partners (for the
    partnership's statistics), in a checked record."""
    deals: Sequence[Json] = rec["deals"]
    n_deals = len(deals)
    first = replay_deal(rec, 0, summary) if n_deals else None
    seats = first.num_seats if first else 0
    names = seat_names(rec, source, seats)
    sides: list[tuple[int, ...]] = [(0, 2), (1, 3)] if seats == 4 else []
    scan = Scan(source, names, sides, [0] * seats, n_deals)
    key = game_key(rec)
    seen = {s for s in range(seats) if wanted(names[s])}
    seen |= {t for side in sides if seen & set(side) for t in side}
    for d in range(n_deals):
        deal = first if d == 0 and first is not None else replay_deal(rec, d, summary)
        if progress is not None:
            progress(f"{source}: deal {d + 1} of {n_deals}")
        _scan_deal(scan, deal, key, budget_ms, time_limit, seen)
    return scan


def _scan_deal(scan: Scan, deal: DealReplay, key: str, budget_ms: float | None,
               time_limit: float, seats: set[int]) -> None:
    solver.clear_tables()
    # From the last decision back: the solver's table then serves the earlier positions.  The
    # solver settles a deal from its end back to some trick (all of it in single sar, by
    # DDS); past GIVE_UP positions in a row it could not settle, the earlier ones are left.
    unsettled = 0
    for step in reversed(deal.steps):
        if unsettled >= GIVE_UP:
            break
        seat = step.seat
        if seat not in seats:
            continue
        state = deal.positions[step.index].state
        if state.turn() != seat:
            continue  # an out-of-turn molodka: nobody had to move
        legal = state.legal_ids(seat)
        if len(legal) < 2:
            continue
        vals = open_values(state, seat, time_limit)
        if vals is None:
            unsettled += 1
            continue
        unsettled = 0
        best = best_actions(vals, legal)
        scan.judged[seat] += 1
        if len(best) == len(legal):
            continue  # every action is as good: nothing to see
        hard = hard_choice(deal, step.index, budget_ms)
        if hard is None or state.action_id(seat, hard) in best:
            continue
        played = state.action_id(seat, step.action)
        scan.opportunities.append(Opportunity(
            scan.source, deal.deal, step.index, seat, key,
            position_kind(state, seat, step.action), played in best))


# -- the reference and the score --------------------------------------------------------------

@dataclass(frozen=True)
class Reference:
    """Honest hit rates per game and position kind, and how they were made."""

    rates: Mapping[str, Mapping[str, float]]
    meta: Mapping[str, Json]

    def rate(self, game: str, kind: str) -> float:
        per = self.rates.get(game) or {}
        if kind in per:
            return per[kind]
        return float(per.get("all", 0.5))  # an unmeasured kind: the game's overall rate


def rates_from_counts(counts: Mapping[str, Mapping[str, Sequence[int]]]
                      ) -> dict[str, dict[str, float]]:
    """Hit rates from (opportunities, hits) per game and kind, with one hit and one miss
    added (so that a kind seen rarely is not given a rate of 0 or 1)."""
    return {g: {k: round((h + 1) / (n + 2), 4) for k, (n, h) in per.items()}
            for g, per in counts.items()}


def load_reference(path: str | None = None) -> Reference:
    """The shipped reference (``reference.json`` beside this module), or one from ``path``."""
    if path is None:
        text = resources.files("taash.fairplay").joinpath("reference.json").read_text("utf-8")
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    data = json.loads(text)
    return Reference(rates_from_counts(data["counts"]), data.get("meta", {}))


def upper_tail(qs: Sequence[float], k: int) -> float:
    """P(K >= k) where K is the number of successes of independent trials with chances
    ``qs`` (the Poisson-binomial law), exactly, by dynamic programming."""
    if k <= 0:
        return 1.0
    dist = [1.0]
    for q in qs:
        nxt = [0.0] * (len(dist) + 1)
        for i, p in enumerate(dist):
            nxt[i] += p * (1 - q)
            nxt[i + 1] += p * q
        dist = nxt
    return min(1.0, sum(dist[k:]))


@dataclass(frozen=True)
class Verdict:
    """One player's (or partnership's) statistics and score."""

    name: str
    seats: tuple[str, ...]
    judged: int
    opportunities: int
    hits: int
    expected: float
    p_value: float
    kinds: Mapping[str, Mapping[str, float]]
    deals: tuple[Mapping[str, Json], ...]
    flagged: bool

    @property
    def score(self) -> float:
        return -math.log10(max(self.p_value, 1e-300))

    def as_json(self) -> dict[str, Json]:
        return {"name": self.name, "seats": list(self.seats), "judged": self.judged,
                "opportunities": self.opportunities, "hits": self.hits,
                "expected": round(self.expected, 3), "p_value": self.p_value,
                "score": round(self.score, 3), "flagged": self.flagged,
                "kinds": {k: dict(v) for k, v in self.kinds.items()},
                "deals": [dict(d) for d in self.deals]}


def verdict(name: str, members: Sequence[str], judged: int, ops: Iterable[Opportunity],
            ref: Reference, alpha: float = ALPHA) -> Verdict:
    """The score of one player or partnership over its opportunities."""
    ops = list(ops)
    qs = [ref.rate(o.game, o.kind) for o in ops]
    hits = sum(o.hit for o in ops)
    p = upper_tail(qs, hits)
    kinds: dict[str, dict[str, float]] = {}
    for o, q in zip(ops, qs, strict=True):
        k = kinds.setdefault(o.kind, {"opportunities": 0, "hits": 0, "expected": 0.0})
        k["opportunities"] += 1
        k["hits"] += o.hit
        k["expected"] += q
    for k in kinds.values():
        k["expected"] = round(k["expected"], 3)
    weight: dict[tuple[str, int], list[float]] = {}
    for o, q in zip(ops, qs, strict=True):
        w = weight.setdefault((o.source, o.deal), [0.0, 0, 0])
        w[0] += -math.log(q) if o.hit else math.log(1 - q)
        w[1] += 1
        w[2] += o.hit
    top = sorted(weight.items(), key=lambda kv: (-kv[1][0], kv[0]))[:TOP_DEALS]
    deals = tuple({"record": src, "deal": d, "weight": round(w[0], 3),
                   "opportunities": int(w[1]), "hits": int(w[2])}
                  for (src, d), w in top if w[0] > 0)
    ordered = {k: kinds[k] for k in KINDS if k in kinds}
    return Verdict(name, tuple(members), judged, len(ops), hits, sum(qs), p, ordered, deals,
                   p <= alpha)


def verdicts(scans: Sequence[Scan], ref: Reference, alpha: float = ALPHA,
             player: str | None = None) -> tuple[list[Verdict], list[Verdict]]:
    """Every player's verdict and every partnership's (of the player, with ``player``)."""
    by_player: dict[str, list[Opportunity]] = {}
    judged: dict[str, int] = {}
    pairs: dict[tuple[str, ...], list[Opportunity]] = {}
    pair_judged: dict[tuple[str, ...], int] = {}
    for sc in scans:
        for seat, name in enumerate(sc.names):
            judged[name] = judged.get(name, 0) + sc.judged[seat]
            by_player.setdefault(name, [])
        for o in sc.opportunities:
            by_player[sc.names[o.seat]].append(o)
        for side in sc.partnerships:
            members = tuple(sorted({sc.names[s] for s in side}))
            if len(members) < 2 or (player is not None and player not in members):
                continue
            pairs.setdefault(members, []).extend(
                o for o in sc.opportunities if o.seat in side)
            pair_judged[members] = pair_judged.get(members, 0) + sum(sc.judged[s] for s in side)
    players = [verdict(n, (n,), judged[n], ops, ref, alpha) for n, ops in by_player.items()
               if player is None or n == player]
    partners = [verdict(" & ".join(m), m, pair_judged[m], ops, ref, alpha)
                for m, ops in pairs.items()]
    key: Callable[[Verdict], tuple[float, str]] = lambda v: (v.p_value, v.name)  # noqa: E731
    return sorted(players, key=key), sorted(partners, key=key)


__all__ = ["ALPHA", "KINDS", "Opportunity", "Reference", "Scan", "Verdict", "game_key",
           "load_reference", "rates_from_counts", "scan_record", "upper_tail", "verdict",
           "verdicts"]
