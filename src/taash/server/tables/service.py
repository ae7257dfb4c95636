"""Tables' lifecycle and who may do what at them: seat tokens, creating a table, joining an
open one, leaving, a seat's notices, the rematch, a player's tables and the lobby."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from taash.bots import LEVELS
from taash.games import game_class
from taash.games.base import Json, RecordError
from taash.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    Full,
    InviteUsed,
    NotOver,
    RateLimited,
    SeatedAlready,
    Unauthorized,
)
from taash.server.store.db import PlayerRow, SeatRow, TableRow
from taash.server.tables.match import build_match, check_seed, new_fair_row, turn_of
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.games.base import MatchState
    from taash.server.config import Settings
    from taash.server.notify.push import Pusher
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus
    from taash.server.tables.room import Room

class Host(Protocol):
    """What the tables need of the process (``tables.hub.Hub`` is one): its rooms, the store,
    and the telling of the other instances when a table's seats change."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store: ...

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def push(self) -> Pusher: ...

    @property
    def bus(self) -> Bus: ...

    async def room(self, table_id: str) -> Room: ...

    def install(self, t: TableRow, state: MatchState) -> Room: ...

    async def blocked_by_any(self, players: list[str], player_id: str) -> bool: ...

    async def meta_changed(self, room: Room) -> None: ...

    async def withdraw(self, table_id: str, hashes: list[str]) -> None: ...


SeatSpec = Mapping[str, str | None]  # {"type": "human" | "bot", "level", "name"}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def derived_token(token: str, salt: str) -> str:
    """A token only the holder of ``token`` can compute (a rematch seat's token)."""
    mac = hmac.new(token.encode(), salt.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:32]


def new_table_id() -> str:
    return secrets.token_urlsafe(8).replace("-", "x").replace("_", "y")


def seat_rows(specs: Sequence[SeatSpec], tokens: dict[int, str] | None) -> list[SeatRow]:
    """The seats of a new table; a new token in ``tokens`` for each human seat (none for a
    rematch's, ``tokens`` None: their players derive theirs)."""
    rows: list[SeatRow] = []
    for i, spec in enumerate(specs):
        kind = spec.get("type")
        if kind == "bot":
            level = spec.get("level") or "easy"
            if level not in LEVELS:
                raise BadRequest(f"seat {i}: unknown bot level {level!r} "
                                 f"(levels: {', '.join(LEVELS)})")
            rows.append(SeatRow(i, "bot", level=level, name=spec.get("name"), claimed=True))
        elif kind == "human":
            h = None
            if tokens is not None:
                tokens[i] = new_token()
                h = token_hash(tokens[i])
            rows.append(SeatRow(i, "human", name=spec.get("name"), token_hash=h))
        else:
            raise BadRequest(f"seat {i}: type must be human or bot")
    return rows


class Tables:
    """The tables of one hub, as their players and the lobby reach them."""

    def __init__(self, hub: Host) -> None:
        self.hub = hub
        # the tables of bots only made here, by the address (``a:``) or player (``p:``) that
        # made them: each may have only a few playing at once
        self.bot_only: dict[str, set[str]] = {}

    def _bot_only_room(self, player: PlayerRow | None, address: str | None) -> str:
        """Who makes a table of bots only (its key in ``bot_only``), if they may make one
        more now: RateLimited if that many of theirs still play."""
        s = self.hub.settings
        key, cap = ((f"p:{player.id}", s.bot_tables_per_player) if player is not None
                    else (f"a:{address or '?'}", s.bot_tables_per_address))
        mine = self.bot_only.get(key, set())
        for table_id in list(mine):  # those over, or resting for being idle, count no more
            room = self.hub.rooms.get(table_id)
            if room is None or room.state.is_over() or not room.autoplay.active():
                mine.discard(table_id)
        if not mine:
            self.bot_only.pop(key, None)
        # --rate-limit 0 (benchmarks, tests) turns off every per-client limit, this one too
        if s.rate_limit > 0 and cap >= 0 and len(mine) >= cap:
            who = "a player" if player is not None else "an address without a session"
            raise RateLimited(f"{who} may have {cap} tables of bots only playing at once: "
                              "wait for one to end, or take a seat at one"
                              + ("" if player is not None else ", or open the site first"))
        return key

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

    async def create(self, game: str, options: object, seat_specs: Sequence[SeatSpec] | None,
                     live: bool, open_: bool, bot_delay_ms: int | None,
                     turn_timer_s: float | None, first_seat: int | None,
                     rematch_of: str | None = None,
                     player: PlayerRow | None = None,
                     seed: str | None = None,
                     address: str | None = None,
                     chat_text: bool = False,
                     pass_and_play: bool = False) -> tuple[TableRow, dict[int, str]]:
        """A new table (stored and opened here, unless a rematch's, which the store makes
        once) and the tokens of its human seats.  The creator's seat (the first human one)
        belongs to ``player``, if given, named after them unless it has a name; ``seed``: the
        creator's seed for the first deal (fair deals).  A table of bots only (nobody to sit
        at it) is for a few at a time per player, or per ``address`` without a session."""
        hub = self.hub
        try:
            cls = game_class(game)
            opts = cls.check_options(options, bounded=True)
        except RecordError as e:
            raise BadRequest(str(e)) from None
        n = cls.num_seats
        specs = seat_specs if seat_specs is not None else [{"type": "human"}] * n
        if len(specs) != n:
            raise BadRequest(f"{game} has {n} seats, not {len(specs)}")
        if first_seat is not None and not 0 <= first_seat < n:
            raise BadRequest(f"first_seat must be a seat 0..{n - 1}")
        tokens: dict[int, str] = {}
        rows = seat_rows(specs, None if rematch_of is not None else tokens)
        bots_only = rematch_of is None and all(r.type == "bot" for r in rows)
        maker = self._bot_only_room(player, address) if bots_only else None
        creator = next((r for r in rows if r.type == "human"), None)
        if open_ and creator is not None:  # the creator holds it; the others are free to join
            creator.claimed = True
        if player is not None and creator is not None:
            creator.player_id = player.id
            creator.name = creator.name or player.name
        now = time.time()
        fs = first_seat if first_seat is not None else secrets.randbelow(n)
        t = TableRow(id=new_table_id(), game=game, options=opts, seed=secrets.randbits(62),
                     first_seat=fs, live=live, open=open_,
                     bot_delay_ms=(hub.settings.bot_delay_ms if live else 0)
                     if bot_delay_ms is None else bot_delay_ms,
                     turn_timer_s=turn_timer_s, created=now, updated=now, rematch_of=rematch_of,
                     chat_text=chat_text, pass_and_play=pass_and_play, seats=rows,
                     fair=[new_fair_row(0, n)])
        if seed is not None and creator is not None:
            t.fair[0].seeds[creator.seat] = check_seed(seed)
        state = build_match(t)
        t.to_move = turn_of(state)
        if rematch_of is None:
            await hub.store.create_table(t)
            hub.install(t, state)
        if maker is not None:
            self.bot_only.setdefault(maker, set()).add(t.id)
        return t, tokens

    async def join(self, table_id: str, seat: int | None, name: str | None,
                   player: PlayerRow | None = None) -> tuple[int, str]:
        """Claim a free human seat of an open table: the seat and its new token; the seat
        belongs to ``player``, if given (named after them unless ``name``)."""
        hub = self.hub
        room = await hub.room(table_id)
        await room.reload_meta()
        if not room.meta.open:
            raise Forbidden("this table is not open to join: ask for an invite")
        if room.state.is_over():
            raise Full("this match is over")
        seated = [s.player_id for s in room.meta.seats if s.player_id is not None]
        if player is not None and await hub.blocked_by_any(seated, player.id):
            raise Forbidden("you cannot join this table")
        if player is not None:
            self._one_seat(room, player.id)
        free = [s.seat for s in room.meta.seats if s.type == "human" and not s.claimed]
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
        await self.hub.push.store.drop_seat(room.id, seat)
        await room.reload_meta()
        await self.hub.withdraw(room.id, [old] if old is not None else [])
        await self.hub.meta_changed(room)
        room.kick()

    async def set_notify(self, room: Room, seat: int, webhook: str | None,
                         email: str | None) -> None:
        await self.hub.store.update_seat(room.id, seat, webhook=webhook, email=email)
        await room.reload_meta()
        await self.hub.meta_changed(room)

    async def rematch(self, room: Room, seat: int,
                      token: str | None) -> tuple[str, str | None]:
        """The rematch table (made once, whoever asks first) and this seat's token there
        (asked for by the seat's player, without a token: the seat is theirs there, with no
        token)."""
        hub = self.hub
        if not room.state.is_over():
            raise NotOver("a rematch is for a finished match")
        m = room.meta
        specs = [{"type": s.type, "level": s.level, "name": s.name} for s in m.seats]
        new, _ = await self.create(m.game, m.options, specs, m.live, False, m.bot_delay_ms,
                                   m.turn_timer_s, (m.first_seat + 1) % len(specs),
                                   rematch_of=m.id, chat_text=m.chat_text,
                                   pass_and_play=m.pass_and_play)
        rid = await hub.store.set_rematch(m.id, new)
        m.rematch_id = rid
        room.announce()
        if rid == new.id:
            await hub.meta_changed(room)
        target = await hub.room(rid)
        if target.seat_row(seat).type != "human":
            raise Conflict("your seat in the rematch is a bot's")
        owner = room.seat_row(seat).player_id
        row = target.seat_row(seat)
        if token is None:
            if row.player_id != owner:
                if row.player_id is not None or row.claimed:
                    raise Conflict("this seat of the rematch is taken")
                await hub.store.update_seat(rid, seat, player_id=owner, claimed=True)
                await target.reload_meta()
                await hub.meta_changed(target)
            return rid, None
        tok = derived_token(token, f"rematch:{rid}:{seat}")
        h = token_hash(tok)
        if row.token_hash != h:
            if row.token_hash is not None:
                raise Conflict("this seat of the rematch is taken")
            keep = row.player_id if owner is None or row.player_id not in (None, owner) else owner
            await hub.store.update_seat(rid, seat, token_hash=h, claimed=True, player_id=keep)
            await target.reload_meta()
            await hub.meta_changed(target)
        return rid, tok

    async def mine(self, tokens: Sequence[str]) -> list[dict[str, Json]]:
        """The tables of these seat tokens, with whose turn it is."""
        rows = await self.hub.store.my_tables([token_hash(t) for t in tokens])
        return [self.my_row(r) for r in rows]

    @staticmethod
    def my_row(r: Mapping[str, Json]) -> dict[str, Json]:
        """One seat of a player's at a table (a row of the store's), as "my tables" say it:
        with whose turn it is (``to_move``, null when over) and who sits at each seat (as the
        public view names them; nothing private)."""
        updated = r["updated"]
        assert isinstance(updated, float | int)
        over = bool(r["over"])
        return {"id": r["id"], "game": r["game"], "seat": r["seat"],
                "your_turn": (not over) and r["to_move"] == r["seat"],
                "over": over, "version": r["version"], "live": bool(r["live"]),
                "updated": iso(updated), "to_move": None if over else r["to_move"],
                "seats": r.get("table_seats", [])}

    async def lobby(self) -> list[dict[str, Json]]:
        """Open tables with a free human seat."""
        return [{"id": t.id, "game": t.game, "options": t.options, "free_seats": free,
                 "created": iso(t.created), "live": t.live}
                for t, free in await self.hub.store.lobby()]
