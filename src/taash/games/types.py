"""The shapes of what the core hands out as JSON: each game's view, public view, events and
summary, as TypedDicts.  ``taash.games.schema`` writes them into docs/API.md and checks real
values against them (the tests do so over random matches), so the documents, the page, the
server and external bots read one contract.

Field names follow the wire format exactly; ``Json`` marks values that are truly free-form
(a game's options object).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from taash.games.base import Json

# -- shared pieces -----------------------------------------------------------------------------


class SeatAction(TypedDict):
    """One action of a deal's history: the seat and the canonical action text."""

    seat: int
    action: str


class SeatCard(TypedDict):
    """A card of a Court Piece trick and who played it."""

    seat: int
    card: str


class CollectorJson(TypedDict):
    """Double sar (CP-7, CP-8): tricks in the pile, who collects it by winning the trick in
    progress (null: no one has a pair going), and whether this is the 13th trick."""

    pile: int
    seat: int | None
    last: bool


# -- Court Piece (both games) --------------------------------------------------------------------


class CourtLastTrick(TypedDict):
    winner: int
    cards: list[SeatCard]


class CourtDealHead(TypedDict):
    """The roles and trump of a Court Piece deal, in every deal summary of both games."""

    dealer: int
    caller: int
    trump: str | None


class CourtPieceDeal(CourtDealHead):
    """One deal of a four-player summary; the result fields are null while it is played."""

    complete: bool
    winner: int | None
    tricks: list[int] | None
    coat: bool | None


class CourtPieceMatch(TypedDict):
    """``winner``: a team, ``"draw"`` (CP-11 deals ended level) or null while not over."""

    over: bool
    winner: int | str | None
    deals_won: list[int]
    coats: list[int]


class CourtPiece2PDeal(CourtDealHead):
    complete: bool
    winner: int | None
    tricks: list[int] | None
    court: bool | None
    scored: list[int] | None


class CourtPiece2PMatch(TypedDict):
    over: bool
    winner: int | None
    points: list[int]


CourtPhase = Literal["trump", "play", "waiting", "over"]


class CourtPublicHead(TypedDict):
    """The fields of a Court Piece public view that both games share (``over`` aside)."""

    game: str
    options: dict[str, Json]
    seats: int
    phase: CourtPhase
    deal_number: int
    dealer: int | None
    caller: int | None
    trump: str | None
    to_move: int | None
    actors: list[int]
    leader: int | None
    trick: list[SeatCard]
    winning: int | None
    last_trick: CourtLastTrick | None
    hand_counts: list[int]
    tricks_played: int
    tricks: list[int]
    history: list[SeatAction]


class CourtSeatPart(TypedDict):
    """What ``view(seat)`` adds to the public view in Court Piece."""

    seat: int
    hand: list[str]
    legal_actions: list[str]
    trump_hint: NotRequired[list[str]]


class CourtPiecePublicView(CourtPublicHead):
    """``public_view()`` of four-player Court Piece (spectators see this)."""

    pile: int
    teams: list[list[int]]
    collector: CollectorJson | None
    deals: list[CourtPieceDeal]
    match: CourtPieceMatch
    over: bool


class CourtPieceView(CourtPiecePublicView):
    """``view(seat)``: the public view plus the seat's hand and legal actions; the caller
    sees ``trump_hint`` (the most-held suits) while trump is to be called."""

    seat: int
    hand: list[str]
    legal_actions: list[str]
    trump_hint: NotRequired[list[str]]


class CourtPiece2PPublicView(CourtPublicHead):
    """``public_view()`` of two-player Court Piece; ``out_of_play`` counts unseen cards."""

    out_of_play: int
    deals: list[CourtPiece2PDeal]
    match: CourtPiece2PMatch
    over: bool


class CourtPiece2PView(CourtPiece2PPublicView):
    seat: int
    hand: list[str]
    legal_actions: list[str]
    trump_hint: NotRequired[list[str]]


class CourtActionEvent(TypedDict):
    type: Literal["action"]
    seat: int
    action: str
    deal: int


class CourtTrickEvent(TypedDict):
    """A finished trick: its cards in playing order from ``leader``."""

    type: Literal["trick"]
    winner: int
    leader: int
    cards: list[str]


class CourtPieceDealOver(CourtPieceDeal):
    type: Literal["deal_over"]
    deal: int


class CourtPiece2PDealOver(CourtPiece2PDeal):
    type: Literal["deal_over"]
    deal: int


class CourtPieceMatchOver(CourtPieceMatch):
    type: Literal["match_over"]


class CourtPiece2PMatchOver(CourtPiece2PMatch):
    type: Literal["match_over"]


class CourtPieceSummary(TypedDict):
    game: str
    deals: list[CourtPieceDeal]
    match: CourtPieceMatch


class CourtPiece2PSummary(TypedDict):
    game: str
    deals: list[CourtPiece2PDeal]
    match: CourtPiece2PMatch


# -- Goat -------------------------------------------------------------------------------------


GoatVerb = Literal["lead", "beat", "pass", "molodka"]
GoatPhase = Literal["play", "waiting", "over"]


class GoatPlayJson(TypedDict):
    """One play of a trick; ``cards`` is absent for a face-down pass the viewer did not make."""

    seat: int
    verb: GoatVerb
    count: int
    cards: NotRequired[list[str]]


class GoatLastTrick(TypedDict):
    winner: int
    plays: list[GoatPlayJson]


class GoatDeal(TypedDict):
    """One game of a Goat summary; points, eggs and defeat are null while it is played."""

    dealer: int
    trump: str
    complete: bool
    trump_card: str
    leader: int
    points: list[int] | None
    eggs: bool | None
    defeat: list[int] | None


class GoatMatch(TypedDict):
    """``loser``: the goat (GT-12), null while not over; ``defeat``: points per team."""

    over: bool
    loser: int | None
    defeat: list[int]


class GoatPublicView(TypedDict):
    """``public_view()`` of Goat.  ``k``: cards per play in this trick; ``top``/``top_seat``:
    the cards on top and whose (``winning`` is the same seat)."""

    game: str
    options: dict[str, Json]
    seats: int
    phase: GoatPhase
    deal_number: int
    dealer: int | None
    trump: str | None
    trump_card: str | None
    to_move: int | None
    actors: list[int]
    leader: int | None
    k: int
    molodka_played: bool
    trick: list[GoatPlayJson]
    top: list[str]
    top_seat: int | None
    winning: int | None
    last_trick: GoatLastTrick | None
    history: list[GoatPlayJson]
    stock: int
    hand_counts: list[int]
    tricks: list[int]
    teams: list[list[int]]
    deals: list[GoatDeal]
    match: GoatMatch
    over: bool


class GoatView(GoatPublicView):
    """``view(seat)``: the seat's own face-down passes show their cards; ``can_molodka``:
    whether it may play a molodka now (GT-8), in turn or not."""

    seat: int
    hand: list[str]
    legal_actions: list[str]
    can_molodka: bool


class GoatActionEvent(TypedDict):
    """A face-down pass carries ``count``, every other action its ``action`` text."""

    type: Literal["action"]
    seat: int
    verb: GoatVerb
    deal: int
    count: NotRequired[int]
    action: NotRequired[str]


class GoatTrickEvent(TypedDict):
    """A finished trick: its plays (after any molodka) as a spectator sees them."""

    type: Literal["trick"]
    winner: int
    leader: int
    plays: list[GoatPlayJson]


class GoatDealOver(GoatDeal):
    type: Literal["deal_over"]
    deal: int


class GoatMatchOver(GoatMatch):
    type: Literal["match_over"]


class GoatSummary(TypedDict):
    game: str
    deals: list[GoatDeal]
    match: GoatMatch


GoatEvent = GoatActionEvent | GoatTrickEvent | GoatDealOver | GoatMatchOver


# What each game hands out, by game id: view, public view, the events of ``apply``, summary.
SCHEMAS: dict[str, dict[str, tuple[object, ...]]] = {
    "court-piece": {
        "view": (CourtPieceView,), "public_view": (CourtPiecePublicView,),
        "events": (CourtActionEvent, CourtTrickEvent, CourtPieceDealOver, CourtPieceMatchOver),
        "summary": (CourtPieceSummary,)},
    "court-piece-2p": {
        "view": (CourtPiece2PView,), "public_view": (CourtPiece2PPublicView,),
        "events": (CourtActionEvent, CourtTrickEvent, CourtPiece2PDealOver,
                   CourtPiece2PMatchOver),
        "summary": (CourtPiece2PSummary,)},
    "goat": {
        "view": (GoatView,), "public_view": (GoatPublicView,),
        "events": (GoatActionEvent, GoatTrickEvent, GoatDealOver, GoatMatchOver),
        "summary": (GoatSummary,)},
}
