"""The detector's score: what a scan found (``Opportunity``, ``Scan``), the honest reference
population's hit rates and the Poisson-binomial p-value of a player's or a partnership's hits
(``verdict``, ``verdicts``).  The scan itself is ``taash.fairplay.detect``'s, which re-exports
all of this."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources

from taash.fairplay.open_best import KINDS
from taash.games import Goat
from taash.games.base import Json

#: the p-value at or below which a player is flagged for a person to review (never banned)
ALPHA = 0.001
#: how many deals of a player to list as weighing most
TOP_DEALS = 3
#: per game (the reference's key), the statistic a partnership is scored on: "fit"
#: (partner-fit) unless listed; in Goat the pooled open-best opportunities of its two seats
#: caught more colluding partnerships than partner-fit did (bench/RESULTS.md, 2026-12-07)
PARTNER_STAT = {Goat.game_id: "open"}
#: the prefix of a partner-fit kind in a verdict's ``kinds``
PAIR = "partner:"


@dataclass(frozen=True, slots=True)
class Opportunity:
    """One decision where hard's choice was not among the open best actions (or, for the
    partner-fit statistic, not the partner-seeing bot's choice)."""

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
    #: partner-fit: decisions where the partner's hand changed hard's choice (hit: the seat
    #: played the partner-seeing choice)
    pair_ops: list[Opportunity] = field(default_factory=list)


@dataclass(frozen=True)
class Reference:
    """Honest hit rates per game and position kind (``pair_rates``: of the partner-fit
    statistic), and how they were made."""

    rates: Mapping[str, Mapping[str, float]]
    meta: Mapping[str, Json]
    pair_rates: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    def rate(self, game: str, kind: str) -> float:
        return _rate(self.rates, game, kind)

    def pair_rate(self, game: str, kind: str) -> float:
        return _rate(self.pair_rates, game, kind)


def _rate(rates: Mapping[str, Mapping[str, float]], game: str, kind: str) -> float:
    per = rates.get(game) or {}
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
    return Reference(rates_from_counts(data["counts"]), data.get("meta", {}),
                     rates_from_counts(data.get("pair_counts", {})))


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
            ref: Reference, alpha: float = ALPHA,
            pair_ops: Iterable[Opportunity] = ()) -> Verdict:
    """The score of one player or partnership over its opportunities (``ops``, open-best)
    and its partner-fit opportunities (``pair_ops``, kinds prefixed ``partner:``)."""
    trials = [(o, ref.rate(o.game, o.kind), o.kind) for o in ops]
    trials += [(o, ref.pair_rate(o.game, o.kind), PAIR + o.kind) for o in pair_ops]
    qs = [q for _o, q, _k in trials]
    hits = sum(o.hit for o, _q, _k in trials)
    p = upper_tail(qs, hits)
    kinds: dict[str, dict[str, float]] = {}
    weight: dict[tuple[str, int], list[float]] = {}
    for o, q, label in trials:
        k = kinds.setdefault(label, {"opportunities": 0, "hits": 0, "expected": 0.0})
        k["opportunities"] += 1
        k["hits"] += o.hit
        k["expected"] += q
        w = weight.setdefault((o.source, o.deal), [0.0, 0, 0])
        w[0] += -math.log(q) if o.hit else math.log(1 - q)
        w[1] += 1
        w[2] += o.hit
    for k in kinds.values():
        k["expected"] = round(k["expected"], 3)
    top = sorted(weight.items(), key=lambda kv: (-kv[1][0], kv[0]))[:TOP_DEALS]
    deals = tuple({"record": src, "deal": d, "weight": round(w[0], 3),
                   "opportunities": int(w[1]), "hits": int(w[2])}
                  for (src, d), w in top if w[0] > 0)
    order = [*KINDS, *(PAIR + k for k in KINDS)]
    ordered = {k: kinds[k] for k in order if k in kinds}
    return Verdict(name, tuple(members), judged, len(trials), hits, sum(qs), p, ordered, deals,
                   p <= alpha)


def verdicts(scans: Sequence[Scan], ref: Reference, alpha: float = ALPHA,
             player: str | None = None) -> tuple[list[Verdict], list[Verdict]]:
    """Every player's verdict and every partnership's (of the player, with ``player``).  A
    partnership is scored on its partner-fit opportunities, or in a game ``PARTNER_STAT``
    lists as "open", on its two seats' open-best opportunities pooled."""
    by_player: dict[str, list[Opportunity]] = {}
    judged: dict[str, int] = {}
    pairs: dict[tuple[str, ...], tuple[list[Opportunity], list[Opportunity]]] = {}
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
            opened, fits = pairs.setdefault(members, ([], []))
            opened.extend(o for o in sc.opportunities
                          if o.seat in side and PARTNER_STAT.get(o.game) == "open")
            fits.extend(o for o in sc.pair_ops
                        if o.seat in side and PARTNER_STAT.get(o.game, "fit") == "fit")
            pair_judged[members] = pair_judged.get(members, 0) + sum(sc.judged[s] for s in side)
    players = [verdict(n, (n,), judged[n], ops, ref, alpha) for n, ops in by_player.items()
               if player is None or n == player]
    partners = [verdict(" & ".join(m), m, pair_judged[m], opened, ref, alpha, fits)
                for m, (opened, fits) in pairs.items()]
    key: Callable[[Verdict], tuple[float, str]] = lambda v: (v.p_value, v.name)  # noqa: E731
    return sorted(players, key=key), sorted(partners, key=key)


__all__ = ["ALPHA", "PAIR", "PARTNER_STAT", "Opportunity", "Reference", "Scan", "Verdict",
           "load_reference", "rates_from_counts", "upper_tail", "verdict", "verdicts"]
