"""The shapes of what the tables send that are the server's own (docs/API.md): a table's
info, a new table and its seats, a seat's link, the lobby, an action's answer, the "while you
were away" recap.  The views and the record are the core's (``taash.games.types`` states them
per game; ``MatchState`` hands them out as mappings), with the server's fields added, so the
server passes them on as ``dict[str, object]``.

TypedDicts from ``typing_extensions``: pydantic reads a route's answer from these only
(before Python 3.12), and FastAPI states them in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired

from typing_extensions import TypedDict

Event = Mapping[str, object]  # one of the core's events (taash.games.types: CourtActionEvent, ...)
# a seat of one's at a table, with whose turn it is (``Tables.my_row``: the store's row shaped)
MyTable = dict[str, object]


class FairView(TypedDict):
    """A deal's fair-deal proof as a view shows it: its commit and its seeds once dealt, and
    the next deal's commit; never a secret of a deal not over."""

    scheme: str
    table: str
    deal: int
    commit: str
    seeds: list[str] | None
    next_commit: str | None


class FairProof(TypedDict):
    """A deal's ``fair`` object in a record: its ``secret`` only once the deal is over."""

    scheme: str
    table: str
    commit: str
    seeds: list[str]
    secret: NotRequired[str]


class SeatInfo(TypedDict):
    """A seat as the table's info shows it (public: no token, no player)."""

    seat: int
    type: str
    level: str | None
    name: str | None
    claimed: bool
    connected: bool


class TableInfo(TypedDict):
    """A table's info, in every view (``table``) and in ``table`` messages."""

    id: str
    game: str
    options: dict[str, object]
    live: bool
    open: bool
    bot_delay_ms: int
    turn_timer_s: float | None
    turn_ends: str | None
    created: str
    updated: str
    version: int
    over: bool
    to_move: int | None
    rematch: str | None
    rematch_of: str | None
    chat_text: bool
    pass_and_play: bool
    waiting: list[int]  # the human seats it waits for before anyone moves (tables/waiting.py)
    fair: FairView | None
    idle: bool
    spectator_delay: str  # none, trick, deal or hidden (tables/watch.py)
    spectators: int  # live connections without a seat, here
    seats: list[SeatInfo]


class RecordSeat(TypedDict):
    """Who sat in a seat, in a record (for stats by opponent kind)."""

    type: str
    level: str | None
    name: str | None
    player: str | None


class CreatedSeat(TypedDict):
    """A seat of a new table: a bot's level; a human seat's token and invite url."""

    seat: int
    type: str
    level: NotRequired[str | None]
    token: NotRequired[str]
    url: NotRequired[str]


class Created(TypedDict):
    id: str
    url: str
    seats: list[CreatedSeat]


class SeatLink(TypedDict):
    """A seat and its link: with a token, or (null) none where the seat is its player's."""

    id: str
    seat: int
    token: str | None
    url: str


class LobbyRow(TypedDict):
    """An open table with a free human seat."""

    id: str
    game: str
    options: dict[str, object]
    free_seats: list[int]
    created: str
    live: bool


class Answer(TypedDict):
    """What a submitted action is answered: the version it made and its events."""

    version: int
    events: Sequence[Event]


class SeedTaken(TypedDict):
    """A seat's seed taken for deal ``deal`` (its commit published)."""

    deal: int
    commit: str
    seed: str


class Hint(TypedDict):
    """What the easy bot would do for the seat now (null: nothing to do)."""

    action: str | None
    trump_hint: list[str]
    version: int


class Move(TypedDict):
    version: int
    seat: int
    events: list[dict[str, object]]


class Away(TypedDict):
    """The moves since the seat's own last one (``since``), the last ones of them; ``more``:
    how many earlier ones are left out."""

    id: str
    seat: int
    since: int
    version: int
    more: int
    moves: list[Move]


class Started(TypedDict):
    """A table that waited for its invited friends, started (``started``: it was waiting)."""

    id: str
    started: bool
    waiting: list[int]


class Left(TypedDict):
    """A seat given to a bot."""

    id: str
    seat: int
    type: Literal["bot"]
    level: str
