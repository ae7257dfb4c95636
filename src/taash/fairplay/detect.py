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
``-log10(p)``.  The deals that weigh most are those whose hits are least likely for an honest
player (the sum over its opportunities of ``-log(q)`` for a hit, ``log(1 - q)`` else).

A partnership (the two seats of a four-player side, two players) is judged on its own
statistic, **partner-fit** (``taash.fairplay.partner``): at every decision of either seat with a
choice, hard's choice from the seat's view is set against the choice of the same bot told the
partner's hand; where they differ (the partner's hidden cards change the best guess) the
decision is a *partner opportunity*, and a *hit* when the seat played the partner-seeing choice.
Its honest rates are the reference's ``pair_counts``; the score is the same Poisson-binomial
tail over the partnership's partner opportunities; in Goat (``score.PARTNER_STAT``), where that
caught fewer colluders, a partnership is scored on its two seats' open-best opportunities
pooled, and partner-fit is not asked for.

The solver's budget is counted in positions searched (``solver_ms`` reference milliseconds,
``open_best.node_budget``) and the hard bot's in work with its wall-clock cap off, so the same
records give the same scan on any machine, whatever its load.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from taash.bots.pimc import work_only
from taash.fairplay.open_best import (
    KINDS,
    SOLVE_MS,
    best_actions,
    node_budget,
    open_values,
    position_kind,
)
from taash.fairplay.partner import PARTNER_GAMES, pair_choice
from taash.fairplay.score import (
    ALPHA,
    PARTNER_STAT,
    Opportunity,
    Reference,
    Scan,
    Verdict,
    load_reference,
    rates_from_counts,
    upper_tail,
    verdict,
    verdicts,
)
from taash.games import CourtPiece
from taash.games.base import Json
from taash.review import solver
from taash.review.analyse import hard_choice
from taash.review.replay import DealReplay, replay_deal

#: unsettled positions in a row after which a deal's earlier positions are left out
GIVE_UP = 3


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
                budget_ms: float | None, solver_ms: float = SOLVE_MS,
                time_limit: float = math.inf,
                wanted: Callable[[str], bool] = lambda _n: True,
                progress: Callable[[str], None] | None = None,
                partners: bool = True,
                pair_wanted: Callable[[str], bool] | None = None) -> Scan:
    """Every decision of the seats ``wanted`` (by name), and of their partners (for the
    partnership's statistics), in a checked record.  ``solver_ms``: the solver's budget per
    position in reference milliseconds, counted in positions searched; ``time_limit``: a
    wall-clock limit besides (none by default: a scan is then the same on any machine).
    ``partners``: the partner-fit statistic of each side of two players (its cost: two hard
    searches a decision of those seats), of the sides whose every player is ``pair_wanted``
    (by name; None: every side of two players)."""
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
    pairs: set[int] = set()
    if partners and str(rec["game"]) in PARTNER_GAMES and PARTNER_STAT.get(key, "fit") == "fit":
        pairs = {t for side in sides if set(side) <= seen
                 and len({names[x] for x in side}) == len(side)
                 and (pair_wanted is None or all(pair_wanted(names[x]) for x in side))
                 for t in side}
    nodes = node_budget(str(rec["game"]), solver_ms)
    with work_only():
        for d in range(n_deals):
            deal = first if d == 0 and first is not None else replay_deal(rec, d, summary)
            if progress is not None:
                progress(f"{source}: deal {d + 1} of {n_deals}")
            hards = _scan_deal(scan, deal, key, budget_ms, time_limit, nodes, seen)
            if pairs:
                _pair_deal(scan, deal, key, budget_ms, pairs, hards)
    return scan


def _pair_deal(scan: Scan, deal: DealReplay, key: str, budget_ms: float | None,
               seats: set[int], hards: dict[int, str | None]) -> None:
    """The partner-fit opportunities of ``seats`` in one deal (``hards``: hard's choices the
    open-best scan already asked for, by step)."""
    for step in deal.steps:
        seat = step.seat
        if seat not in seats:
            continue
        state = deal.positions[step.index].state
        if state.turn() != seat or len(state.legal_ids(seat)) < 2:
            continue
        kind = position_kind(state, seat, step.action)
        if kind == "call":
            continue  # the partner-seeing bot calls as hard does: nothing to compare
        own = hards[step.index] if step.index in hards else hard_choice(
            deal, step.index, budget_ms)
        pair = pair_choice(deal, step.index, budget_ms)
        if own is None or pair is None:
            continue
        pair_id = state.action_id(seat, pair)
        if state.action_id(seat, own) == pair_id:
            continue
        scan.pair_ops.append(Opportunity(scan.source, deal.deal, step.index, seat, key, kind,
                                         state.action_id(seat, step.action) == pair_id))


def _scan_deal(scan: Scan, deal: DealReplay, key: str, budget_ms: float | None,
               time_limit: float, nodes: int, seats: set[int]) -> dict[int, str | None]:
    """The open-best opportunities of ``seats`` in one deal; returns hard's choices asked
    for, by step."""
    hards: dict[int, str | None] = {}
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
        vals = open_values(state, seat, time_limit, nodes)
        if vals is None:
            unsettled += 1
            continue
        unsettled = 0
        best = best_actions(vals, legal)
        scan.judged[seat] += 1
        if len(best) == len(legal):
            continue  # every action is as good: nothing to see
        hard = hards[step.index] = hard_choice(deal, step.index, budget_ms)
        if hard is None or state.action_id(seat, hard) in best:
            continue
        played = state.action_id(seat, step.action)
        scan.opportunities.append(Opportunity(
            scan.source, deal.deal, step.index, seat, key,
            position_kind(state, seat, step.action), played in best))
    return hards


__all__ = ["ALPHA", "KINDS", "SOLVE_MS", "Opportunity", "Reference", "Scan", "Verdict",
           "game_key",
           "load_reference", "rates_from_counts", "scan_record", "upper_tail", "verdict",
           "verdicts"]
