"""What the clubs API answers, typed (docs/API.md, "Clubs")."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from taash.server.events.service import EventJson
from taash.server.social.profiles import LeaderRow
from taash.server.social.seasons import RatingJson


class ClubSummary(TypedDict):
    """A club as lists show it; ``role`` is the asking player's (null: not a member)."""

    id: str
    name: str
    public: bool
    members: int
    role: str | None
    url: str


class MemberJson(TypedDict):
    player: str
    name: str
    role: str
    joined: str
    ratings: dict[str, RatingJson]  # per game the member has a rating in


class SeatJson(TypedDict):
    seat: int
    name: str | None
    player: str | None


class ClubTableJson(TypedDict):
    """A club table: who sits where, how many seats are free, and once the match is over
    (and its results written) each member's result (1 won, 0 drawn, -1 lost)."""

    id: str
    game: str
    live: bool
    over: bool
    created: str
    free_seats: int
    seats: list[SeatJson]
    results: dict[str, int]
    url: str


class InviteLink(TypedDict):
    token: str
    url: str


class ClubPage(TypedDict):
    """A club's page: shown to its members, and to anyone for a public club; ``invite``
    (its link) to its owner and admins only."""

    id: str
    name: str
    public: bool
    created: str
    closed: str | None
    role: str | None
    invited: bool
    members: list[MemberJson]
    tables: list[ClubTableJson]
    events: list[EventJson]
    invite: NotRequired[InviteLink]


class ClubsList(TypedDict):
    clubs: list[ClubSummary]


class MyClubs(TypedDict):
    """The asking player's clubs and the clubs that invited them by name."""

    clubs: list[ClubSummary]
    invited: list[ClubSummary]


class InviteResult(TypedDict):
    player: str
    state: str  # "invited", or "member" (they were one already)


class ClubSeat(TypedDict):
    """A seat at a club table: ``token`` (null when the seat was yours already: your session
    opens it) and the page's ``url``."""

    table: str
    seat: int
    token: str | None
    url: str


class Leaderboard(TypedDict):
    club: str
    game: str
    players: list[LeaderRow]
