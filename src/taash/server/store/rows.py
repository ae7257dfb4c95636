"""The rows the server reads from the store: a table, its seats, its fair deals, a player, a
session, an action (the SQL tables are in ``schema``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeatRow:
    seat: int
    type: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    webhook: str | None = None
    email: str | None = None
    player_id: str | None = None


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, object]
    seed: int
    first_seat: int
    live: bool
    open: bool
    bot_delay_ms: int
    turn_timer_s: float | None
    created: float
    updated: float
    version: int = 0
    over: bool = False
    to_move: int | None = None
    rematch_id: str | None = None
    rematch_of: str | None = None
    chat_text: bool = False
    pass_and_play: bool = False
    waiting: bool = False  # made to wait for its invited friends (``Room.waiting_for``)
    spectator_delay: str = "none"  # none, trick, deal or hidden (``tables.watch``)
    seats: list[SeatRow] = field(default_factory=list)
    fair: list[FairRow] = field(default_factory=list)

    def waiting_for(self) -> list[int]:
        """The human seats a table made to wait for its invited friends waits for still:
        those not claimed yet (none once everyone came or the host started it)."""
        if not self.waiting:
            return []
        return [s.seat for s in self.seats if s.type == "human" and not s.claimed]


@dataclass
class FairRow:
    """One deal's fair-deal secret and seeds (``dealt``: the seeds are fixed)."""

    deal: int
    secret: str
    seeds: list[str]
    dealt: bool = False


@dataclass
class PlayerRow:
    id: str
    name: str
    language: str
    created: float
    email: str | None = None  # confirmed, lower-cased
    puzzle_consent: bool = False  # "my finished deals may become puzzles" (0027)


@dataclass(frozen=True)
class SessionRow:
    id: str
    player_id: str
    created: float
    last_seen: float
    expires: float
    user_agent: str | None
    guest_id: str | None = None  # the guest this sign-in replaced, its tables not yet merged


@dataclass(frozen=True)
class ActionRow:
    version: int
    seat: int
    action: str
    client_id: str | None
    events: list[dict[str, object]]


def table_row_of(r: Any) -> TableRow:  # Any: a SQLAlchemy Row, its columns as attributes
    return TableRow(id=r.id, game=r.game, options=json.loads(r.options), seed=r.seed,
                    first_seat=r.first_seat, live=bool(r.live), open=bool(r.open),
                    bot_delay_ms=r.bot_delay_ms, turn_timer_s=r.turn_timer_s,
                    created=r.created, updated=r.updated, version=r.version,
                    over=bool(r.over), to_move=r.to_move, rematch_id=r.rematch_id,
                    rematch_of=r.rematch_of, chat_text=bool(r.chat_text),
                    pass_and_play=bool(r.pass_and_play), waiting=bool(r.waiting),
                    spectator_delay=r.spectator_delay)


def seat_row_of(r: Any) -> SeatRow:  # Any: as table_row_of
    return SeatRow(seat=r.seat, type=r.type, level=r.level, name=r.name,
                   token_hash=r.token_hash, claimed=bool(r.claimed), webhook=r.webhook,
                   email=r.email, player_id=r.player_id)
