"""The review routes: a finished deal step by step (a table's, or a record's in the body),
and its analysis in the server's worker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import APIRouter, Request

from taash.server.errors import BadRequest, Forbidden, Unauthorized
from taash.server.http.deps import SettingsDep
from taash.server.review.analyses import AnalysisStatus, record_review, table_review
from taash.server.review.deps import AnalysesDep
from taash.server.tables.access import bearer, seat_of
from taash.server.tables.deps import Rooms, RoomsDep

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.tables.room import Room

router = APIRouter()


async def _room(rooms: Rooms, settings: Settings, request: Request, table_id: str,
                token: str | None, seat: int | None) -> tuple[Room, bool]:
    """The table's room, and whether a seat asks (its token, or ``seat`` with the session's
    player: a ``seat`` that is not theirs is only where the page looks from): a seat
    reviews the deals over at the table, anyone else those over as spectators see it
    (``spectator_delay``)."""
    if bearer(request, token):
        room, _s = await seat_of(request, settings, table_id, token, seat, "read")
        return room, True
    if seat is not None:  # a page's seat (the session's player), else a spectator's review
        try:
            room, _s = await seat_of(request, settings, table_id, None, seat, "read")
            return room, True
        except (Unauthorized, Forbidden):
            pass
    return await rooms.room(table_id), False


@router.get("/api/tables/{table_id}/review", tags=["review"])
async def review_of_table(rooms: RoomsDep, settings: SettingsDep, request: Request,
                          table_id: str, deal: int | None = None, token: str | None = None,
                          seat: int | None = None) -> dict[str, object]:
    """A finished deal step by step for the review screen (default: the last one over);
    409 for a deal still being played (for a spectator: not yet seen to its end)."""
    room, seated = await _room(rooms, settings, request, table_id, token, seat)
    return table_review(room, deal, seated)


@router.get("/api/tables/{table_id}/analysis", tags=["review"])
async def table_analysis(analyses: AnalysesDep, rooms: RoomsDep, settings: SettingsDep,
                         request: Request, table_id: str, deal: int | None = None,
                         token: str | None = None, seat: int | None = None) -> AnalysisStatus:
    """Where the analysis of a finished deal stands: none, running (done of total
    actions), done (with it) or failed."""
    room, seated = await _room(rooms, settings, request, table_id, token, seat)
    return await analyses.for_table(room, deal, start=False, seated=seated)


@router.post("/api/tables/{table_id}/analysis", tags=["review"])
async def analyse_table(analyses: AnalysesDep, rooms: RoomsDep, settings: SettingsDep,
                        request: Request, table_id: str, deal: int | None = None,
                        token: str | None = None, seat: int | None = None) -> AnalysisStatus:
    """Analyse a finished deal in the server's worker (once: then it is kept)."""
    room, seated = await _room(rooms, settings, request, table_id, token, seat)
    return await analyses.for_table(room, deal, start=True, seated=seated)


@router.post("/api/review", tags=["review"])
async def review_of_record(request: Request, deal: int | None = None) -> dict[str, object]:
    """A deal (default: the last) of the taash-record/1 in the body, step by step; 400
    with the record's error for a malformed one."""
    return record_review(await request.body(), deal)


@router.post("/api/review/analysis", tags=["review"])
async def analyse_record(analyses: AnalysesDep, request: Request, deal: int | None = None
) -> AnalysisStatus:
    """Analyse a deal of the record in the body, as for a table's."""
    return await analyses.for_record(await request.body(), deal)


@router.get("/api/analyses/{key}", tags=["review"])
async def analysis(analyses: AnalysesDep, request: Request, key: str) -> AnalysisStatus:
    """Where the analysis of this key (as the analysis answers gave it) stands."""
    if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
        raise BadRequest("an analysis key is 64 hex digits")
    return await analyses.status(key)
