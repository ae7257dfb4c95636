"""Seats: joining an open table, claiming an invite, one seat per player unless the table
is for pass and play, a new invite link, leaving (a bot takes the seat), a seat's notices.
A mixin of ``service.Tables``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from taash.ratings import bot_rating
from taash.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Full,
    InviteUsed,
    SeatedAlready,
    Unauthorized,
)
from taash.server.store.db import PlayerRow, SeatRow
from taash.server.tables.host import Host
from taash.server.tables.seat_tokens import new_token, token_hash

if TYPE_CHECKING:
    from taash.server.tables.room import Room


def could_be_rated(game: str, seats: list[SeatRow], pass_and_play: bool) -> bool:
    """Whether a match at these seats may be rated when it ends (as social's ``rated_seats``
    decides then): not one for pass and play, and every bot of a level with a rating."""
    return not pass_and_play and all(s.type != "bot" or bot_rating(game, s.level or "")
                                     is not None for s in seats)


async def check_rated(hub: Host, game: str, seats: list[SeatRow], pass_and_play: bool,
                      player_id: str) -> None:
    """Forbidden, with the reason, for a player barred from a table that could be rated."""
    if hub.bars is not None and could_be_rated(game, seats, pass_and_play):
        why = await hub.bars(player_id)
        if why is not None:
            raise Forbidden(why)


class Seating:
    hub: Host

    async def join(self, table_id: str, seat: int | None, name: str | None,
                   player: PlayerRow | None = None, admitted: bool = False) -> tuple[int, str]:
        """Claim a free human seat of an open table (or of any table, ``admitted``: the
        caller has checked that the player may sit there, as a club does for its tables):
        the seat and its new token; the seat belongs to ``player``, if given (named after
        them unless ``name``)."""
        hub = self.hub
        room = await hub.room(table_id)
        await room.reload_meta()
        if not room.meta.open and not admitted:
            raise Forbidden("this table is not open to join: ask for an invite")
        if room.state.is_over():
            raise Full("this match is over")
        seated = [s.player_id for s in room.meta.seats if s.player_id is not None]
        if player is not None and await hub.blocked_by_any(seated, player.id):
            raise Forbidden("you cannot join this table")
        if player is not None:
            self._one_seat(room, player.id)
            await check_rated(hub, room.meta.game, room.meta.seats, room.meta.pass_and_play,
                              player.id)
        free = [s.seat for s in room.meta.seats
                if s.type == "human" and not s.claimed and s.player_id is None]
        if seat is not None:
            if seat not in free:
                raise Full(f"seat {seat} is not free")
            free = [seat]
        for s in free:
            token = new_token()
            values: dict[str, str | bool] = {"token_hash": token_hash(token), "claimed": True}
            if player is not None:
                values["player_id"] = player.id
            if name or player is not None:
                values["name"] = name or (player.name if player is not None else "")
            if await hub.store.update_seat(table_id, s, only_unclaimed=True, **values):
                await room.reload_meta()
                await hub.meta_changed(room)
                return s, token
        raise Full("no free seat at this table")

    async def claim(self, table_id: str, token: str, player: PlayerRow) -> tuple[int, str | None]:
        """An invite link opened by a player: the seat of its token becomes theirs, with a new
        token (returned), and the link stops working.  Opened again by them: their seat, no
        token (None); by anyone else: InviteUsed."""
        hub = self.hub
        room = await hub.room(table_id)
        h = token_hash(token)
        spent = await hub.store.spent_seat(h)
        if spent is not None and spent[0] == table_id:
            if spent[2] == player.id:
                return spent[1], None
            raise InviteUsed("this invite link has been used: another player has taken the "
                             "seat. Ask for a new link")
        found = room.seat_of_hash(h)
        if found is None:
            await room.reload_meta()
            found = room.seat_of_hash(h)
        if found is None:
            where = await hub.store.seat_by_token(h)
            if where is not None:
                raise Forbidden("this token is for another table")
            raise Unauthorized("unknown or withdrawn seat token")
        row = room.seat_row(found)
        if row.player_id not in (None, player.id):
            raise InviteUsed(f"seat {found} belongs to another player")
        self._one_seat(room, player.id, found)
        await check_rated(hub, room.meta.game, room.meta.seats, room.meta.pass_and_play,
                          player.id)
        new = new_token()
        if not await hub.store.claim_seat(table_id, found, h, token_hash(new), player.id,
                                          None if row.name else player.name):
            raise InviteUsed("this invite link has just been used by another player")
        room.forget_tokens({h})
        await room.reload_meta()  # the invite token's live connections end
        await hub.withdraw(table_id, [h])
        await hub.meta_changed(room)
        room.last_used = time.monotonic()
        return found, new

    @staticmethod
    def _one_seat(room: Room, player_id: str, seat: int | None = None) -> None:
        """A player holds one seat of a table (other than ``seat``), unless its creator made
        it for pass and play: SeatedAlready otherwise."""
        if room.meta.pass_and_play:
            return
        held = [s.seat for s in room.meta.seats if s.player_id == player_id and s.seat != seat]
        if held:
            raise SeatedAlready(f"you already sit at seat {held[0]} of this table: a player "
                                "holds one seat of a table, unless its creator made it for "
                                "pass and play")

    async def invite(self, room: Room, by: int, seat: int) -> str:
        """A new invite link (its token) for a seat no player has taken, made by the table's
        creator (its first human seat); the seat's old token stops working."""
        m = room.meta
        creator = next((s.seat for s in m.seats if s.type == "human"), None)
        if by != creator:
            raise Forbidden("only the table's creator (its first human seat) makes invite links")
        if not 0 <= seat < len(m.seats) or seat == by:
            raise BadRequest(f"no other seat {seat} at this table")
        row = room.seat_row(seat)
        if row.type != "human":
            raise Conflict(f"seat {seat} is a bot's")
        if row.player_id is not None:
            raise Conflict(f"seat {seat} belongs to a player now: it needs no invite")
        if room.state.is_over():
            raise Full("this match is over")
        token = new_token()
        old = row.token_hash
        await self.hub.store.update_seat(room.id, seat, token_hash=token_hash(token),
                                         spent_hash=None)
        if old is not None:
            room.forget_tokens({old})
        await room.reload_meta()  # the old token's live connections end
        await self.hub.withdraw(room.id, [old] if old is not None else [])
        await self.hub.meta_changed(room)
        return token

    async def leave(self, room: Room, seat: int) -> None:
        """Give the seat to a bot: its token stops working, on every instance, before this
        returns."""
        old = room.seat_row(seat).token_hash
        await self.hub.store.update_seat(room.id, seat, type="bot", level="easy",
                                         token_hash=None, claimed=True, webhook=None,
                                         email=None, player_id=None)
        if old is not None:
            room.forget_tokens({old})
        await self.hub.seat_left(room.id, seat)  # its notices' subscriptions go
        await room.reload_meta()
        await self.hub.withdraw(room.id, [old] if old is not None else [])
        await self.hub.meta_changed(room)
        room.kick()

    async def set_notify(self, room: Room, seat: int, webhook: str | None,
                         email: str | None) -> None:
        await self.hub.store.update_seat(room.id, seat, webhook=webhook, email=email)
        await room.reload_meta()
        await self.hub.meta_changed(room)
