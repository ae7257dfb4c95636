"""Club tables and club events (docs/clubs.md), made through the tables' and the events'
public services.

A club table is made by a member, who sits at its first human seat; it is not open to the
lobby, and the club's members (only they) take its other free human seats from the club's
page.  A club event is a duplicate event made by the club's owner or an admin: it is left out
of the public listing, and only the club's members may enter it (the events' ``Gate``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from taash.server.clubs.service import Clubs
from taash.server.clubs.shapes import ClubSeat
from taash.server.errors import BadRequest, NotFound
from taash.server.events.service import EventJson
from taash.server.store.db import PlayerRow
from taash.server.tables.service import SeatSpec, Tables


class ClubPlay:
    def __init__(self, clubs: Clubs, tables: Tables) -> None:
        self.clubs = clubs
        self.tables = tables

    async def create_table(self, club_id: str, me: PlayerRow, game: str, options: object,
                           live: bool, seats: Sequence[SeatSpec] | None) -> ClubSeat:
        c, _ = await self.clubs.member(club_id, me.id)
        if seats is not None and not any(s.get("type") == "human" for s in seats):
            raise BadRequest("seats: a club table has a human seat at least (yours)")
        t, tokens = await self.tables.create(game, options, seats, live, False, None, None,
                                             None, player=me)
        await self.clubs.store.add_table(c.id, t.id, time.time())
        mine = next(s.seat for s in t.seats if s.player_id == me.id)
        return {"table": t.id, "seat": mine, "token": tokens[mine],
                "url": f"/t/{t.id}?seat={mine}&token={tokens[mine]}"}

    async def join_table(self, club_id: str, me: PlayerRow, table_id: str) -> ClubSeat:
        """A free seat of a club table for a member; theirs already: that seat again."""
        c, _ = await self.clubs.member(club_id, me.id)
        if not await self.clubs.store.is_club_table(c.id, table_id):
            raise NotFound(f"no table {table_id!r} in this club")
        held = await self.clubs.store.seat_of(table_id, me.id)
        if held is not None:
            return {"table": table_id, "seat": held, "token": None,
                    "url": f"/t/{table_id}?seat={held}"}
        seat, token = await self.tables.join(table_id, None, None, me, admitted=True)
        return {"table": table_id, "seat": seat, "token": token,
                "url": f"/t/{table_id}?seat={seat}&token={token}"}

    async def create_event(self, club_id: str, me: PlayerRow, game: str, options: object,
                           boards: int, opens: float, closes: float) -> EventJson:
        c, _ = await self.clubs.member(club_id, me.id, "owner", "admin")
        e = await self.clubs.events.create(me.id, game, options, boards, opens, closes)
        await self.clubs.store.add_event(c.id, e["id"], time.time())
        return e
