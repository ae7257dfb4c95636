"""What the fair-play API answers, typed (docs/API.md, "Fair play")."""

from __future__ import annotations

from typing_extensions import TypedDict


class CaseSummary(TypedDict):
    """A case as the queue lists it: the flagged player (a partnership's case: its two players,
    ``player`` and ``partner``), how unlikely their play is for an honest player (``p_value``;
    ``score`` = -log10 p), over how many deals, and its state."""

    id: str
    player: str
    name: str
    profile: str
    partner: str | None  # a partnership's case: its second player (None: a player's case)
    partner_name: str | None
    partner_profile: str | None
    status: str  # open, cleared, warned, banned
    opened: str
    updated: str
    p_value: float
    score: float
    deals: int
    url: str
    lifted: str | None  # a ban this case decided, lifted since: when


class Decision(TypedDict):
    decision: str  # cleared, warned or banned
    by: str | None
    by_name: str | None
    at: str
    note: str
    players: list[str]  # whom a warning or a ban applies to (cleared: nobody)


class DealToReplay(TypedDict):
    """One of the deals that weigh most: its hits least likely for an honest player."""

    table: str
    deal: int
    weight: float
    opportunities: int
    hits: int
    replay: str  # the page's review of that deal


class Lift(TypedDict):
    """A ban lifted by a moderator: whose, who lifted it, when and why."""

    player: str
    by: str
    by_name: str | None
    at: str
    note: str


class CaseJson(CaseSummary):
    """A case with its evidence (the detector's statistics over the player's, or the
    partnership's, recent finished deals when flagged, refreshed while it is open; a
    partnership's also names its ``players`` and its ``statistic``), once decided the decision,
    and the lift of the ban it decided, if it was lifted (the latest, on a partnership's)."""

    evidence: dict[str, object]
    replay: list[DealToReplay]
    decision: Decision | None
    lift: Lift | None


class Queue(TypedDict):
    """The open cases, the least likely play first, and the latest decided ones."""

    open: list[CaseSummary]
    decided: list[CaseSummary]


class Notice(TypedDict):
    """A decision about the player, told to them: its kind (``warned``; ``banned`` from rated
    play; ``lifted``, their ban) and when.  Nothing of the evidence, the note or who decided."""

    id: str
    kind: str
    at: str


class Notices(TypedDict):
    """The player's notices not read yet (the newest first), whom to write to about them
    (the server's ``fairplay_contact``; None: the page says the server's host), and whether
    they are banned from rated play now."""

    notices: list[Notice]
    contact: str | None
    banned: bool
