"""A table's match: how it is built from its stored row, copied and stepped.

A table created with fair deals (``TableRow.fair``, taash-shuffle/1 in RECORD.md) deals each
deal from its server secret and its seats' seeds (``deal_next``); a table stored before fair
deals (no fair rows) deals from its seed as it always did."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taash import fair
from taash.games import game_class, new_match
from taash.games.base import MatchState, RecordError
from taash.server.errors import BadRequest
from taash.server.store.db import TableRow
from taash.server.store.rows import FairRow
from taash.server.tables.shapes import Event, FairProof, FairView


@dataclass
class Step:
    """One accepted action: the version it made, its events, the match after it."""

    version: int
    events: Sequence[Event]
    state: MatchState


_SEED = re.compile(r"[!-~]{0,64}")  # a seat's seed (RECORD.md, "Fair deals")


def check_seed(seed: object) -> str:
    """A seat's seed as sent (BadRequest saying the rule otherwise)."""
    if not isinstance(seed, str) or not _SEED.fullmatch(seed):
        raise BadRequest("seed: must be \"\" or 1-64 printable ASCII characters from ! to ~ "
                         "(no spaces)")
    return seed


def new_fair_row(deal: int, num_seats: int) -> FairRow:
    """A deal's fair row: a fresh secret from the OS (never the table's seed), no seeds yet."""
    return FairRow(deal=deal, secret=secrets.token_bytes(32).hex(), seeds=[""] * num_seats)


def build_match(t: TableRow) -> MatchState:
    """The table's match before its first action (its first deal dealt)."""
    if not t.fair:
        return new_match(t.game, t.options, seed=t.seed, first_seat=t.first_seat)
    state = game_class(t.game).new_match(t.options, deal=False, first_seat=t.first_seat)
    deal_next(t, state)
    return state


def deal_next(t: TableRow, state: MatchState) -> bool:
    """Deal the match's next deal from the table's fair rows if it waits for one (True); the
    row dealt is marked so (its seeds fixed) and the following deal's row made if missing."""
    if not t.fair or not state.needs_deal() or state.is_over():
        return False
    k = len(state.record()["deals"])
    if k >= len(t.fair):
        raise RecordError(f"table {t.id}: no fair secret for deal {k}")
    row = t.fair[k]
    state.deal(*fair.derive(t.game, t.id, k, row.seeds, row.secret))
    row.dealt = True
    if len(t.fair) == k + 1:
        t.fair.append(new_fair_row(k + 1, state.num_seats))
    return True


def next_fair_row(t: TableRow) -> FairRow | None:
    """The row of the deal not dealt yet (the one seeds are sent for), if any."""
    return next((f for f in t.fair if not f.dealt), None)


def fair_view(t: TableRow, deal: int) -> FairView | None:
    """What a view says of deal ``deal``'s proof: its commit and seeds, and the next deal's
    commit (``next_commit``); never a secret of a deal not over."""
    if not 0 <= deal < len(t.fair):
        return None
    row = t.fair[deal]
    nxt = t.fair[deal + 1] if deal + 1 < len(t.fair) else None
    return {"scheme": fair.SCHEME, "table": t.id, "deal": deal, "commit": fair.commit(row.secret),
            "seeds": list(row.seeds) if row.dealt else None,
            "next_commit": fair.commit(nxt.secret) if nxt is not None else None}


def fair_record(t: TableRow, rec: Mapping[str, object]) -> None:
    """Add each deal's ``fair`` object to a record (hiding the current deal): with its
    ``secret`` only for a deal that is over."""
    deals = rec["deals"]
    assert isinstance(deals, list)  # the core's record
    for i, d in enumerate(deals):
        if i >= len(t.fair):
            break
        row = t.fair[i]
        obj: FairProof = {"scheme": fair.SCHEME, "table": t.id,
                                "commit": fair.commit(row.secret), "seeds": list(row.seeds)}
        if not d.get("hidden"):
            obj["secret"] = row.secret
        d["fair"] = obj


def fork(state: MatchState) -> MatchState:
    """An independent copy of a match that still deals its next deals (its rng copied)."""
    return state.clone(keep_rng=True)


def turn_of(state: MatchState) -> int | None:
    """The seat whose turn it is (Goat: not the optional molodka holders)."""
    return state.turn()
