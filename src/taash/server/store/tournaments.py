"""The store's queries for tournaments (migration 0020; docs/tournaments.md): tournaments,
their entrants and their games.

A round's games are written in one transaction with the tournament's round number, guarded by
``WHERE round = previous``: of two instances (or two tables ending at once) that pair the next
round, one writes it and the other reads it.  A game's table is set once (``WHERE table_id IS
NULL``), its result once (``WHERE result IS NULL``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.tournament_schema import (
    tournament_entrants,
    tournament_games,
    tournaments,
)


@dataclass
class TournamentRow:
    id: str
    name: str
    kind: str
    game: str
    options: dict[str, object]
    rounds: int
    minutes: int
    starts: float
    turn_timer_s: float
    organiser: str
    club_id: str | None
    state: str
    round: int
    created: float
    started: float | None = None
    ended: float | None = None
    spectator_delay: str = "deal"


@dataclass
class EntrantRow:
    seed: int
    player_id: str | None
    partner_id: str | None
    bot: str | None
    name: str
    registered: float


@dataclass
class GameRow:
    round: int
    board: int
    a: int
    b: int | None
    table_id: str | None = None
    result: int | None = None
    created: float = 0.0
    finished: float | None = None


def _tournament(r: object) -> TournamentRow:
    m = r._mapping  # type: ignore[attr-defined]
    return TournamentRow(m["id"], m["name"], m["kind"], m["game"], json.loads(m["options"]),
                         int(m["rounds"]), int(m["minutes"]), float(m["starts"]),
                         float(m["turn_timer_s"]), m["organiser"], m["club_id"], m["state"],
                         int(m["round"]), float(m["created"]), m["started"], m["ended"],
                         m["spectator_delay"])


def _entrant(r: object) -> EntrantRow:
    m = r._mapping  # type: ignore[attr-defined]
    return EntrantRow(int(m["seed"]), m["player_id"], m["partner_id"], m["bot"], m["name"],
                      float(m["registered"]))


def _game(r: object) -> GameRow:
    m = r._mapping  # type: ignore[attr-defined]
    return GameRow(int(m["round"]), int(m["board"]), int(m["a"]),
                   None if m["b"] is None else int(m["b"]), m["table_id"],
                   None if m["result"] is None else int(m["result"]), float(m["created"]),
                   m["finished"])


class TournamentStore:
    """Tournaments, entrants and games, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, t: TournamentRow) -> bool:
        """Keep a new tournament; False if its id is taken."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(tournaments.insert().values(
                    id=t.id, name=t.name, kind=t.kind, game=t.game,
                    options=json.dumps(t.options), rounds=t.rounds, minutes=t.minutes,
                    starts=t.starts, turn_timer_s=t.turn_timer_s, organiser=t.organiser,
                    club_id=t.club_id, state=t.state, round=t.round, created=t.created,
                    started=None, ended=None, spectator_delay=t.spectator_delay))
        except IntegrityError:
            return False
        return True

    async def get(self, tournament_id: str) -> TournamentRow | None:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(tournaments)
                                    .where(tournaments.c.id == tournament_id))).first()
        return _tournament(r) if r is not None else None

    async def listing(self, states: Sequence[str], limit: int) -> list[TournamentRow]:
        """Tournaments in these states, the soonest start first."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(tournaments).where(tournaments.c.state.in_(list(states)))
                .order_by(tournaments.c.starts, tournaments.c.id).limit(limit))).all()
        return [_tournament(r) for r in rows]

    async def of_player(self, player_id: str, limit: int) -> list[TournamentRow]:
        """The tournaments a player entered (alone or as a partner), the latest start first."""
        e = tournament_entrants
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(tournaments).join(e, e.c.tournament_id == tournaments.c.id)
                .where(or_(e.c.player_id == player_id, e.c.partner_id == player_id))
                .order_by(tournaments.c.starts.desc()).limit(limit))).all()
        return [_tournament(r) for r in rows]

    async def due(self, now: float) -> list[str]:
        """Tournaments to look at: scheduled whose start has come, and running ones."""
        t = tournaments
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(t.c.id).where(or_(
                and_(t.c.state == "scheduled", t.c.starts <= now),
                t.c.state == "running")))).all()
        return [str(r.id) for r in rows]

    async def set_state(self, tournament_id: str, expected: str, state: str,
                        **values: float | None) -> bool:
        """Move a tournament from ``expected`` to ``state``; False if it was not there."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            r = await conn.execute(update(tournaments).where(and_(
                tournaments.c.id == tournament_id, tournaments.c.state == expected))
                .values(state=state, **values))
        return bool(r.rowcount)

    # -- entrants ------------------------------------------------------------------------
    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(tournament_entrants)
                .where(tournament_entrants.c.tournament_id == tournament_id)
                .order_by(tournament_entrants.c.seed))).all()
        return [_entrant(r) for r in rows]

    async def counts(self, ids: Sequence[str]) -> dict[str, int]:
        if not ids:
            return {}
        e = tournament_entrants
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(e.c.tournament_id, func.count().label("n"))
                .where(e.c.tournament_id.in_(list(ids))).group_by(e.c.tournament_id))).all()
        return {str(r.tournament_id): int(r.n) for r in rows}

    async def add_entrant(self, tournament_id: str, row: EntrantRow) -> EntrantRow | None:
        """Register an entrant (its seed: one more than the highest); None if its player is
        entered already."""
        e = tournament_entrants
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                top = (await conn.execute(select(func.max(e.c.seed)).where(
                    e.c.tournament_id == tournament_id))).scalar()
                row.seed = int(top or 0) + 1
                await conn.execute(e.insert().values(
                    tournament_id=tournament_id, seed=row.seed, player_id=row.player_id,
                    partner_id=row.partner_id, bot=row.bot, name=row.name,
                    registered=row.registered))
        except IntegrityError:
            return None
        return row

    async def remove_entrant(self, tournament_id: str, seed: int) -> None:
        e = tournament_entrants
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(e).where(and_(e.c.tournament_id == tournament_id,
                                                    e.c.seed == seed)))

    async def set_partner(self, tournament_id: str, seed: int, partner: EntrantRow,
                          name: str) -> None:
        """Two lone entrants as one pair: ``partner``'s player joins ``seed``'s entry."""
        e = tournament_entrants
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(e).where(and_(e.c.tournament_id == tournament_id,
                                                    e.c.seed == partner.seed)))
            await conn.execute(update(e).where(and_(
                e.c.tournament_id == tournament_id, e.c.seed == seed))
                .values(partner_id=partner.player_id, name=name))

    # -- games ---------------------------------------------------------------------------
    async def games(self, tournament_id: str) -> list[GameRow]:
        g = tournament_games
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(g).where(g.c.tournament_id == tournament_id)
                                       .order_by(g.c.round, g.c.board))).all()
        return [_game(r) for r in rows]

    async def add_round(self, tournament_id: str, previous: int, rows: Sequence[GameRow],
                        state: str = "running") -> bool:
        """A round's games, and the tournament's round moved from ``previous`` to theirs;
        False (nothing written) if another wrote that round first."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                r = await conn.execute(update(tournaments).where(and_(
                    tournaments.c.id == tournament_id, tournaments.c.round == previous))
                    .values(round=rows[0].round if rows else previous + 1, state=state))
                if not r.rowcount:
                    raise _Lost
                for row in rows:
                    await conn.execute(tournament_games.insert().values(
                        tournament_id=tournament_id, round=row.round, board=row.board,
                        a=row.a, b=row.b, table_id=row.table_id, result=row.result,
                        created=row.created, finished=row.finished))
        except (_Lost, IntegrityError):
            return False
        return True

    async def add_game(self, tournament_id: str, row: GameRow) -> bool:
        """One arena game; False if its number is taken."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(tournament_games.insert().values(
                    tournament_id=tournament_id, round=row.round, board=row.board, a=row.a,
                    b=row.b, table_id=row.table_id, result=row.result, created=row.created,
                    finished=row.finished))
        except IntegrityError:
            return False
        return True

    async def set_table(self, tournament_id: str, round_: int, board: int,
                        table_id: str) -> bool:
        g = tournament_games
        async with self.store._writing(), self.store.engine.begin() as conn:
            r = await conn.execute(update(g).where(and_(
                g.c.tournament_id == tournament_id, g.c.round == round_, g.c.board == board,
                g.c.table_id.is_(None))).values(table_id=table_id))
        return bool(r.rowcount)

    async def game_of_table(self, table_id: str) -> tuple[str, GameRow] | None:
        g = tournament_games
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(g).where(g.c.table_id == table_id))).first()
        return (str(r._mapping["tournament_id"]), _game(r)) if r is not None else None

    async def set_result(self, tournament_id: str, round_: int, board: int, result: int,
                         now: float) -> bool:
        g = tournament_games
        async with self.store._writing(), self.store.engine.begin() as conn:
            r = await conn.execute(update(g).where(and_(
                g.c.tournament_id == tournament_id, g.c.round == round_, g.c.board == board,
                g.c.result.is_(None))).values(result=result, finished=now))
        return bool(r.rowcount)


class _Lost(Exception):
    """Another wrote the round first."""
