"""The search of the hard level: perfect-information Monte Carlo over sampled deals.

``pimc`` is given the candidate actions, the rules-of-thumb choice (the *prior*), a sampler of
deals consistent with the seat's view and an evaluation that plays a candidate out on a sampled
state.  The same samples serve every candidate (common random numbers); candidates clearly
behind are dropped as samples come in (racing); and the prior stands unless another candidate
is better by a clear paired margin (``Z_OVERRULE`` standard errors), since a noisy argmax is
worse than the rules.  The games' parts (what to sample, how to play out) are in
``taash.bots.hard`` (Court Piece) and ``taash.bots.hard_goat``.

The budget is counted in work (actions applied in playouts, likelihood factors), converted
from milliseconds by ``STEPS_PER_MS``, rates measured on one reference core, so a seeded bot
makes the same choices on any machine; a wall-clock cap (``cap_ms``: four times the budget, at
least 200 ms) only guards against a machine far slower than the reference.  Within
``work_only()`` that cap is off, so the choices are the same on any machine whatever its load
(the fair-play detector's use: a loaded machine is only slower).  The measured strength and
speed at each budget are in bench/RESULTS.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

from taash.games import CourtPiece, CourtPiece2P, Goat

# A sampled state: whatever the game's sampler builds and its evaluation plays out.
S = TypeVar("S")

DEFAULT_BUDGET_MS = 200.0
# Playout actions per millisecond of one reference core (measured with bench/ arena runs):
# the work budget is budget_ms times this, so the median move stays near or under budget_ms.
STEPS_PER_MS = {CourtPiece.game_id: 150.0, CourtPiece2P.game_id: 150.0, Goat.game_id: 40.0}

_WORK_ONLY: ContextVar[bool] = ContextVar("taash_pimc_work_only", default=False)


@contextmanager
def work_only() -> Iterator[None]:
    """Searches started inside stop on their work budget alone, never on the wall-clock cap."""
    token = _WORK_ONLY.set(True)
    try:
        yield
    finally:
        _WORK_ONLY.reset(token)


@dataclass(frozen=True)
class Search:
    """What one search found: the ``choice``; for every candidate id its weighted mean
    playout score (``means``) over the samples it was played out on (``samples``: fewer for
    a candidate dropped by the race), in the game's score (``hard.cp_score``,
    ``hard_goat.goat_score``: 1 a won deal, plus a little for the margin)."""

    choice: int
    prior: int
    means: dict[int, float]
    samples: dict[int, int]


def pimc(ids: list[int], prior: int, sample: Callable[[], tuple[S, float, float] | None],
         evaluate: Callable[[S, int], tuple[float, int]], work: float, cap_ms: float,
         min_samples: int = 2) -> int:
    """The candidate with the best weighted mean playout score over common samples (each
    sample weighted by how well it explains the play so far).  The prior (the rules-of-thumb
    choice) stands unless the search finds a clearly better one.

    ``evaluate(state, id)`` plays the candidate out on (a clone of) the sampled state and
    returns its score and the actions it took.  Candidates clearly worse than the leader are
    dropped as the samples come in (racing), so the budget goes to the close calls; the
    search stops early when every remaining candidate has scored the same so far."""
    return search(ids, prior, sample, evaluate, work, cap_ms, min_samples).choice


def search(ids: list[int], prior: int, sample: Callable[[], tuple[S, float, float] | None],
           evaluate: Callable[[S, int], tuple[float, int]], work: float, cap_ms: float,
           min_samples: int = 2) -> Search:
    """``pimc``'s search, with every candidate's mean score over its samples (``Search``):
    the same samples, the same choice; the means are summed once, after the search."""
    scores: list[list[float]] = [[] for _ in ids]
    weights: list[float] = []
    alive = list(range(len(ids)))
    done = 0.0
    if _WORK_ONLY.get():
        cap_ms = math.inf
    t0 = time.perf_counter()
    samples = fails = 0
    while True:
        got = sample()  # (state, weight, cost in playout actions) or None
        if got is None:
            done += 30
            fails += 1
            if fails > 10 and samples == 0:
                return Search(prior, prior, {}, {})
        else:
            st, w, cost = got
            done += cost
            weights.append(w)
            for i in alive:
                sc, steps = evaluate(st, ids[i])
                done += 1 + steps
                scores[i].append(sc)
            samples += 1
            if samples >= RACE_FROM and samples % 2 == 0:
                alive = race(alive, scores, weights)
                if len(alive) == 1:
                    break
                if samples >= 8 and all(scores[i] == scores[alive[0]] for i in alive):
                    break  # nothing the seat does now changes how these deals end
        if samples >= min_samples and (done >= work or
                                       (time.perf_counter() - t0) * 1000 >= cap_ms):
            break
    if len(alive) == 1:
        choice = ids[alive[0]]
    else:
        choice = choose_best([ids[i] for i in alive], prior, [scores[i] for i in alive],
                             weights)
    means: dict[int, float] = {}
    counts: dict[int, int] = {}
    for i, a in enumerate(ids):
        ws = weights[:len(scores[i])]
        tw = sum(ws)
        if scores[i] and tw > 0:
            means[a] = sum(w * x for w, x in zip(ws, scores[i], strict=True)) / tw
            counts[a] = len(scores[i])
    return Search(choice, prior, means, counts)


# Racing: from this many samples on, a candidate more than Z_DROP standard errors (paired)
# below the leader is dropped.
RACE_FROM = 6
Z_DROP = 2.5


def race(alive: list[int], scores: list[list[float]], weights: list[float]) -> list[int]:
    """The candidates still in the race (see ``pimc``)."""
    tw = sum(weights)
    if tw <= 0:
        return alive
    n_eff = tw * tw / sum(w * w for w in weights)
    means = {i: sum(w * x for w, x in zip(weights, scores[i], strict=True)) / tw
             for i in alive}
    lead = max(alive, key=lambda i: means[i])
    keep = []
    for i in alive:
        d = means[lead] - means[i]
        if i == lead or d <= 0:
            keep.append(i)
            continue
        var = sum(w * (a - b - d) ** 2 for w, a, b in zip(weights, scores[lead], scores[i],
                                                          strict=True)) / tw
        if d * d * n_eff <= Z_DROP * Z_DROP * var:
            keep.append(i)
    return keep


# How sure the search must be before it overrules the rules of thumb: the paired difference
# of means in standard errors.  Few samples are noisy, and a noisy argmax is worse than the
# rules of thumb; the same samples for every candidate make the paired test sharp.
Z_OVERRULE = 1.5


def choose_best(ids: list[int], prior: int, scores: list[list[float]],
                weights: list[float] | None = None) -> int:
    """The best candidate by weighted mean score, if it beats the prior by a clear paired
    margin (in standard errors, over the effective number of samples)."""
    n = len(scores[0])
    w = weights or [1.0] * n
    tw = sum(w)
    if tw <= 0:
        w, tw = [1.0] * n, float(n)
    means = [sum(wi * x for wi, x in zip(w, xs, strict=True)) / tw for xs in scores]
    best = max(range(len(ids)), key=lambda i: means[i])
    if prior not in ids or ids[best] == prior:
        return ids[best]
    p = ids.index(prior)
    d = means[best] - means[p]
    n_eff = tw * tw / sum(wi * wi for wi in w)
    if n_eff < 2 or d <= 0:
        return prior
    var = sum(wi * (a - b - d) ** 2 for wi, a, b in zip(w, scores[best], scores[p],
                                                         strict=True)) / tw
    if d * d * n_eff > Z_OVERRULE * Z_OVERRULE * var:
        return ids[best]
    return prior
