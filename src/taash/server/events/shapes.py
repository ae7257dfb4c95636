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
    common_line: list[str]  # the entrant's own actions, the whole board
    common_line_count: int
    common_first_trick: list[str]  # "seat:action", the first play of each seat
    common_first_trick_count: int


class BoardReview(TypedDict):
    """An entrant's board against the best result with every hand open (from the first
    card, after the trump call the entrant's board had): ``unit`` "tricks" or "points";
    ``status`` "computing" (ask again in ``retry`` seconds; ``elapsed`` of ``budget`` since its
    search began, None while it waits for a worker) or "done".  Done, the search proved
    ``lower <= best <= upper`` (``lower``: a result the side could force, a line the solver
    found; ``upper``: one it could not beat) in ``seconds`` (of ``budget``) with ``solver``
    ("dds" or "taash"); ``proven`` when they meet, and only then ``best`` (and ``lost``: how
    far short of it the entrant's side came); ``most``: the top of the range the search began
    with (a ``lower`` of 0 or an ``upper`` of ``most`` proves nothing); ``review``: the page
    that steps through the board move by move."""

    event: str
    board: int
    unit: str
    yours: int
    status: str
    best: int | None
    proven: bool
    lower: int | None
    upper: int | None
    most: int | None
    solver: str | None
    seconds: float | None
    budget: float | None
    elapsed: float | None
    retry: int | None
    lost: int | None
    opening: list[str]
    review: str


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
