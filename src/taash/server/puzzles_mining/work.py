"""The miner's work on one finished match, run in a worker process (``Mining``'s pool):
``taash.puzzles.mine`` over each of its deals, the record checked first as ``taash record
verify`` checks one.

Only finished deals are searched (a deal whose actions stop before it ends is left out), and
what comes back is each puzzle as the shipped set's entries are (``Puzzle.as_json()``): the
deal's cards and the moves before the position, no seat's name or player.
"""

from __future__ import annotations

from collections.abc import Mapping

from taash.puzzles.mine import Limits, mine_deal, single_deals
from taash.record import replay, validate
from taash.review.replay import load_record


class Unminable(ValueError):
    """A queued record that cannot be mined (malformed, an illegal action, a fair deal whose
    proof fails): mining it again would fail again.  One line, plain text (it crosses from
    the worker process)."""


def finished(one: object) -> bool:
    """Whether a one-deal record's deal was played to its end."""
    state = replay(validate(one))
    return state.needs_deal() or state.is_over()


def mine_match(text: str, time_limit: float, max_deals: int) -> list[Mapping[str, object]]:
    """Every puzzle of the first ``max_deals`` deals of a finished match's record (JSON text,
    as the queue keeps it), the solver given ``time_limit`` seconds a position.  Unminable if
    the record does not check."""
    try:
        rec, _ = load_record(text)
    except ValueError as e:  # RecordError, ReplayError, NotFair, or not JSON at all
        raise Unminable(f"{type(e).__name__}: {e}") from None
    limits = Limits(time_limit=time_limit)
    out: list[Mapping[str, object]] = []
    for one in list(single_deals(rec))[:max_deals]:
        if finished(one):
            out += [p.as_json() for p in mine_deal(one, limits)]
    return out
