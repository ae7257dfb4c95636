"""What the events API answers, typed (docs/API.md, "Events")."""

from __future__ import annotations

from typing_extensions import TypedDict


class BoardView(TypedDict):
    """A board as the entrant's seat sees it; ``version`` counts the entrant's moves, and a
    move sent on another version is refused."""

    event: str
    board: int
    boards: int
    version: int
    done: bool
    seat: int
    commit: str
    view: dict[str, object]
    result: dict[str, object] | None
    next: int | None


class EntryResult(TypedDict):
    player: str
    name: str | None
    result: dict[str, object] | None
    percent: float


class Spread(TypedDict):
    result: dict[str, object] | None
    count: int


class BoardResults(TypedDict):
    """How the field played a board: each entrant's result and percentage, the distribution
    of results (best first) and the entrants' most common line."""

    event: str
    board: int
    field: int
    entries: list[EntryResult]
    distribution: list[Spread]
    common_line: list[str]


class StandingJson(TypedDict):
    rank: int
    player: str
    name: str | None
    percent: float
    boards: int
    finished: bool


class StandingsJson(TypedDict):
    event: str
    provisional: bool
    standings: list[StandingJson]
