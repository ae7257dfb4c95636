"""Running tournaments (docs/tournaments.md): the start, each round's pairing and tables (made
through the tables' public service), results as the tables end, the arena's pairing as its
entrants finish, and the page with its standings.

Every step is ``advance``: it looks at what the store holds and does what is missing (tables
for the games that have none, the next round once every game of this one has its result, the
end), so a process that stopped half-way goes on at the next sweep.  The tables' turn timer
plays for an entrant who does not come (their seat's move, by the server's timer bot), so
every round ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from taash.games import game_class
from taash.server.errors import Conflict, DomainError
from taash.server.store.db import PlayerRow
from taash.server.store.tournaments import EntrantRow, GameRow, TournamentRow
from taash.server.tables.service import SeatSpec, Tables
from taash.server.tournaments import standings as page
from taash.server.tournaments.pairing import (
    DRAW,
    LOSS,
    WIN,
    Waiting,
    arena_pairs,
    arena_points,
    entrants_for_pairing,
    swiss_pairing,
)
from taash.server.tournaments.service import Tournaments, ends_at, members, partnered
from taash.server.tournaments.shapes import TournamentPage

log = logging.getLogger("taash.server")


class Running:
    """Tournaments under way: their rounds, tables and results."""

    def __init__(self, tournaments: Tournaments, tables: Tables) -> None:
        self.t = tournaments
        self.store = tournaments.store
        self.tables = tables
        self._locks: dict[str, asyncio.Lock] = {}

    # -- the page ----------------------------------------------------------------------------
    async def page(self, tournament_id: str, player_id: str | None) -> TournamentPage:
        t = await self.t.seen(tournament_id, player_id)
        entrants = await self.store.entrants(t.id)
        games = await self.store.games(t.id)
        mine = player_id is not None and any(player_id in members(e) for e in entrants)
        final = page.final_board(t, games)
        head = self.t.json(t, len(entrants), mine)
        return {**head,
                "entrant_list": [page.entrant_json(e) for e in entrants],
                "standings": (page.swiss_json(entrants, games) if t.kind == "swiss"
                              else page.arena_json(entrants, games)),
                "games": page.games_json(t, games),
                "final_table": final.table_id if final is not None else None,
                "my_table": page.my_table(t, entrants, games, player_id)}

    async def finals(self) -> set[str]:
        """The tables of the finals being played, for home's featured tables: each running
        Swiss tournament's last round's top board, not yet over (not a club's: those are its
        members')."""
        out = set()
        for t in await self.store.listing(("running",), 50):
            if t.club_id is None and t.kind == "swiss" and t.round >= t.rounds:
                final = page.final_board(t, await self.store.games(t.id))
                if final is not None and final.table_id and final.result is None:
                    out.add(final.table_id)
        return out

    # -- the start ---------------------------------------------------------------------------
    async def start(self, tournament_id: str, me: PlayerRow) -> TournamentPage:
        """The organiser starts the tournament now (before its start time)."""
        t = await self.t.tournament(tournament_id)
        self.t.organiser(t, me)
        if t.state != "scheduled":
            raise Conflict(f"the tournament is {t.state}: it cannot be started")
        if len(await self.store.entrants(t.id)) < 2:
            raise Conflict("a tournament needs two entrants at least to start")
        await self._start(t)
        return await self.page(t.id, me.id)

    async def _start(self, t: TournamentRow) -> None:
        """Lone players of a partnership game are paired in seed order (one left over is
        taken out); fewer than two entrants: cancelled."""
        now = self.t.clock()
        entrants = await self.store.entrants(t.id)
        if partnered(t.game):
            lone = [e for e in entrants if e.bot is None and e.partner_id is None]
            for a, b in zip(lone[::2], lone[1::2], strict=False):
                await self.store.set_partner(t.id, a.seed, b, f"{a.name} & {b.name}"[:140])
            if len(lone) % 2:
                await self.store.remove_entrant(t.id, lone[-1].seed)
            entrants = await self.store.entrants(t.id)
        if len(entrants) < 2:
            await self.store.set_state(t.id, "scheduled", "cancelled", ended=now)
            return
        if await self.store.set_state(t.id, "scheduled", "running", started=now):
            await self.advance(t.id)

    async def tick(self, starting: bool) -> None:
        """Each sweep: start the tournaments whose time has come, and advance the running
        ones (an arena's end, a step a stopped process left undone)."""
        for tournament_id in await self.store.due(self.t.clock()):
            try:
                t = await self.t.tournament(tournament_id)
                if t.state == "scheduled":
                    await self._start(t)
                else:
                    await self.advance(t.id, collect=True)
            except Exception:
                log.exception("tournament %s: could not advance", tournament_id)

    # -- results -----------------------------------------------------------------------------
    async def table_over(self, table_id: str) -> None:
        """A table's match ended: its game's result, if it is a tournament's."""
        found = await self.store.game_of_table(table_id)
        if found is None:
            return
        tournament_id, g = found
        if await self._take_result(tournament_id, g):
            await self.advance(tournament_id)

    async def _take_result(self, tournament_id: str, g: GameRow) -> bool:
        """The result of a game whose table is over (the winning side 0: the first
        entrant's); False while it is played."""
        if g.table_id is None or g.result is not None:
            return False
        try:
            ended = await self.tables.outcome(g.table_id)
        except DomainError:  # another instance's table: its own match_ended tells
            return False
        if ended is None:
            return False
        winner, draw = ended
        result = DRAW if draw or winner is None else WIN if winner == 0 else LOSS
        return await self.store.set_result(tournament_id, g.round, g.board, result,
                                           self.t.clock())

    async def advance(self, tournament_id: str, collect: bool = False) -> None:
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            t = await self.t.tournament(tournament_id)
            if t.state != "running":
                self._locks.pop(tournament_id, None)
                return
            entrants = {e.seed: e for e in await self.store.entrants(t.id)}
            games = await self.store.games(t.id)
            if collect:  # each sweep: results missed, tables nobody comes to kept playing
                for g in games:
                    if await self._take_result(t.id, g):
                        games = await self.store.games(t.id)
                    elif g.table_id is not None and g.result is None:
                        await self._wake(g.table_id)
            if t.kind == "swiss":
                await self._swiss(t, entrants, games)
            else:
                await self._arena(t, entrants, games)

    async def _swiss(self, t: TournamentRow, entrants: dict[int, EntrantRow],
                     games: list[GameRow]) -> None:
        now = self.t.clock()
        current = [g for g in games if g.round == t.round]
        await self._open_tables(t, current, entrants)
        if any(g.result is None for g in current):
            return
        if t.round >= t.rounds:
            await self.store.set_state(t.id, "running", "over", ended=now)
            return
        pairing = swiss_pairing(entrants_for_pairing({s: s for s in entrants},
                                                     page.games_of(games)))
        r = t.round + 1
        rows = [GameRow(r, n + 1, a, b, created=now) for n, (a, b) in enumerate(pairing.pairs)]
        if pairing.bye is not None:
            rows.append(GameRow(r, len(rows) + 1, pairing.bye, None, None, WIN, now, now))
        if await self.store.add_round(t.id, t.round, rows):
            t.round = r
            await self._open_tables(t, rows, entrants)

    async def _arena(self, t: TournamentRow, entrants: dict[int, EntrantRow],
                     games: list[GameRow]) -> None:
        now = self.t.clock()
        playing = [g for g in games if g.result is None]
        await self._open_tables(t, playing, entrants)
        end = ends_at(t)
        if end is not None and now >= end:  # no new games; over once the last has ended
            if not playing:
                await self.store.set_state(t.id, "running", "over", ended=now)
            return
        busy = {s for g in playing for s in (g.a, g.b)}
        results = page.arena_results(list(entrants.values()), games)
        last: dict[int, int] = {}
        for g in sorted(games, key=lambda g: g.round):
            if g.b is not None:
                last[g.a], last[g.b] = g.b, g.a
        waiting = [Waiting(s, sum(arena_points(results[s])), s, last.get(s))
                   for s in entrants if s not in busy]
        number = max((g.round for g in games), default=0)
        for a, b in arena_pairs(waiting):
            number += 1
            row = GameRow(number, 1, a, b, created=now)
            if await self.store.add_game(t.id, row):
                await self._open_tables(t, [row], entrants)

    # -- tables ------------------------------------------------------------------------------
    async def _wake(self, table_id: str) -> None:
        """The turn timer plays on at a table whose players are all away (the round must
        end), where the table would otherwise rest for being idle."""
        with contextlib.suppress(DomainError):  # another instance's: its own sweep wakes it
            await self.tables.wake(table_id)

    async def _open_tables(self, t: TournamentRow, games: Sequence[GameRow],
                           entrants: dict[int, EntrantRow]) -> None:
        for g in games:
            if g.b is None or g.table_id is not None or g.result is not None:
                continue
            specs, holders = await self._seats(t.game, entrants[g.a], entrants[g.b])
            table, _ = await self.tables.create(
                t.game, t.options, specs, True, False, None, t.turn_timer_s, None,
                holders=holders, limit_bots=False, spectator_delay=t.spectator_delay)
            if await self.store.set_table(t.id, g.round, g.board, table.id):
                g.table_id = table.id

    async def _seats(self, game: str, a: EntrantRow,
                     b: EntrantRow) -> tuple[list[SeatSpec], dict[int, str]]:
        """The table's seats: ``a``'s side the game's first team, ``b``'s the second; a
        player's seat held for them, a bot entrant's seats its bots."""
        teams = game_class(game).teams
        specs: list[SeatSpec] = [{"type": "bot"} for _ in range(sum(map(len, teams)))]
        holders: dict[int, str] = {}
        for side, e in ((0, a), (1, b)):
            people = members(e)
            for k, seat in enumerate(teams[side]):
                if e.bot is not None or not people:
                    specs[seat] = {"type": "bot", "level": e.bot or "easy", "name": e.name}
                    continue
                pid = people[k % len(people)]
                who = await self.t.base.player(pid)
                if who is None:  # a deleted account: an easy bot, as at its tables then
                    specs[seat] = {"type": "bot", "level": "easy", "name": "deleted player"}
                    continue
                specs[seat] = {"type": "human", "name": who.name}
                holders[seat] = pid
        return specs, holders
