"""Who may act at a table: a seat's token (or the player it belongs to) checked against
the room, a claimed invite's spent token answered, and a spectator's watching.  A mixin
of ``service.Tables``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from taash.server.errors import (
    BadRequest,
    Forbidden,
    Unauthorized,
)
from taash.server.tables import waiting
from taash.server.tables.host import Host
from taash.server.tables.seat_tokens import token_hash

if TYPE_CHECKING:
    from taash.server.tables.room import Room


class Authorization:
    hub: Host

    async def authorize(self, table_id: str, token: str | None,
                        seat: int | None = None,
                        player_id: str | None = None) -> tuple[Room, int]:
        """The room and seat of a seat token (and of ``seat``, if given, which must match);
        without a token, of the player's seat there (``seat``, or their first)."""
        hub = self.hub
        if not token and player_id is not None:
            room = await hub.room(table_id)
            return await self._claimed(room, await self._player_seat(room, player_id, seat))
        if not token:
            raise Unauthorized("a seat token is needed: Authorization: Bearer TOKEN")
        room = await hub.room(table_id)
        h = token_hash(token)
        found = room.seat_of_hash(h)
        # deaf to the bus, an instance may have missed a withdrawal: the store decides
        if (found is not None and hub.bus.shared and not hub.bus.live
                and await hub.store.seat_by_token(h) != (table_id, found)):
            room.forget_tokens({h})
            found = None
        if found is None:
            where = await hub.store.seat_by_token(h)
            if where is None:
                raise Unauthorized("unknown or withdrawn seat token")
            if where[0] != table_id:
                raise Forbidden("this token is for another table")
            await room.reload_meta()  # changed by another instance
            found = room.seat_of_hash(h)
            if found is None:
                raise Unauthorized("unknown or withdrawn seat token")
        if seat is not None and seat != found:
            raise Forbidden(f"this token is for seat {found}, not seat {seat}")
        return await self._claimed(room, found)

    async def _player_seat(self, room: Room, player_id: str, seat: int | None) -> int:
        """The player's seat at the room's table: ``seat`` if theirs, else their first."""
        for attempt in range(2):
            mine = [s.seat for s in room.meta.seats if s.player_id == player_id]
            if (seat is not None and seat in mine) or (seat is None and mine):
                return seat if seat is not None else mine[0]
            if attempt == 0:
                await room.reload_meta()  # taken here since, or through another instance
        if seat is not None and not 0 <= seat < len(room.meta.seats):
            raise BadRequest(f"no seat {seat} at this table")
        if seat is not None:
            raise Forbidden(f"seat {seat} is not yours: it belongs to another player, "
                            "or only its seat token opens it")
        raise Forbidden("you have no seat at this table")

    async def _claimed(self, room: Room, found: int) -> tuple[Room, int]:
        """The seat, marked claimed (its player has come)."""
        hub = self.hub
        table_id = room.id
        row = room.seat_row(found)
        if not row.claimed:
            row.claimed = True
            # kept, whatever the table: the seats are read back from the store when another
            # seat is claimed (and by the other instances), and a seat shown as not joined
            # yet when its player is there tells everyone at the table something false
            await hub.store.update_seat(table_id, found, claimed=True)
            await hub.meta_changed(room)
            if not await waiting.settle(room):  # the last invited friend came: it starts
                room.announce()
        room.last_used = time.monotonic()
        room.human_came()
        return room, found

    async def watch_or_authorize(self, table_id: str, token: str | None,
                                 seat: int | None = None,
                                 player_id: str | None = None) -> tuple[Room, int | None]:
        """A seat's room and seat, or without a token or seat a spectator's:
        ``(room, None)``."""
        if not token and seat is None:
            return await self.hub.room(table_id), None
        return await self.authorize(table_id, token, seat, player_id)
