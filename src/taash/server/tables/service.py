"""Tables' lifecycle and who may do what at them: seat tokens, creating a table, joining an
open one, leaving, a seat's notices, the rematch, a player's tables and the lobby."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from taash.bots import LEVELS
from taash.games import game_class
from taash.games.base import RecordError
from taash.server.errors import (
    BadRequest,
    Conflict,
    NotOver,
    RateLimited,
)
from taash.server.store.db import PlayerRow, SeatRow, TableRow
from taash.server.tables.authorize import Authorization
from taash.server.tables.host import Host
from taash.server.tables.match import build_match, check_seed, new_fair_row, turn_of
from taash.server.tables.seat_tokens import derived_token, new_token, token_hash
from taash.server.tables.seating import Seating
from taash.server.tables.shapes import LobbyRow
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.tables.room import Room

SeatSpec = Mapping[str, str | None]  # {"type": "human" | "bot", "level", "name"}


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


class Tables(Authorization, Seating):
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

    async def create(self, game: str, options: object, seat_specs: Sequence[SeatSpec] | None,
                     live: bool, open_: bool, bot_delay_ms: int | None,
                     turn_timer_s: float | None, first_seat: int | None,
                     rematch_of: str | None = None,
                     player: PlayerRow | None = None,
                     seed: str | None = None,
                     address: str | None = None,
                     chat_text: bool = False,
                     pass_and_play: bool = False,
                     wait: bool = False,
                     holders: Mapping[int, str] | None = None,
                     limit_bots: bool = True) -> tuple[TableRow, dict[int, str]]:
        """A new table (stored and opened here, unless a rematch's, which the store makes
        once) and the tokens of its human seats.  The creator's seat (the first human one)
        belongs to ``player``, if given, named after them unless it has a name; ``seed``: the
        creator's seed for the first deal (fair deals).  A table of bots only (nobody to sit
        at it) is for a few at a time per player, or per ``address`` without a session
        (unless ``limit_bots`` is False: a tournament's game between two bots).  ``holders``:
        the player each of these human seats belongs to, held for them (a tournament's
        pairing seats its entrants; each reaches the seat with their session or personal
        token)."""
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
        for seat, player_id in (holders or {}).items():
            if not (0 <= seat < n and rows[seat].type == "human"):
                raise BadRequest(f"seat {seat}: not a human seat of this table")
            rows[seat].player_id, rows[seat].claimed = player_id, True
        bots_only = (limit_bots and rematch_of is None
                     and all(r.type == "bot" for r in rows))
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
                     fair=[new_fair_row(0, n)],
                     # friends invited to a live table: nobody moves before they come
                     waiting=wait and live and rematch_of is None and not pass_and_play
                     and sum(r.type == "human" for r in rows) > 1)
        if seed is not None and creator is not None:
            t.fair[0].seeds[creator.seat] = check_seed(seed)
        state = build_match(t)
        t.to_move = turn_of(state)
        if rematch_of is None:
            await hub.store.create_table(t)
            await hub.install(t, state)
        if maker is not None:
            self.bot_only.setdefault(maker, set()).add(t.id)
        return t, tokens

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

    async def mine(self, tokens: Sequence[str]) -> list[dict[str, object]]:
        """The tables of these seat tokens, with whose turn it is."""
        rows = await self.hub.store.my_tables([token_hash(t) for t in tokens])
        return [self.my_row(r) for r in rows]

    @staticmethod
    def my_row(r: Mapping[str, object]) -> dict[str, object]:
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

    async def outcome(self, table_id: str) -> tuple[int | None, bool] | None:
        """How the table's match ended (the winning side, or None and True on a draw); None
        while it is played."""
        o = (await self.hub.room(table_id)).state.outcome()
        return None if o is None else (o.winner, o.draw)

    async def wake(self, table_id: str) -> None:
        """Keep a table playing that must end although nobody comes to it (a tournament's
        game between two absent entrants): its bots and turn timer play on as if a player had
        just come, rather than rest for being idle."""
        room = await self.hub.room(table_id)
        if not room.state.is_over():
            room.human_came()

    async def lobby(self) -> list[LobbyRow]:
        """Open tables with a free human seat."""
        return [{"id": t.id, "game": t.game, "options": t.options, "free_seats": free,
                 "created": iso(t.created), "live": t.live}
                for t, free in await self.hub.store.lobby()]
