"""The tournaments service: create Swiss and arena tournaments, list them, register and
unregister, the organiser's bots (docs/tournaments.md).  Running them (pairing rounds, making
their tables, taking results) is ``taash.server.tournaments.play``.

A tournament is organised by any signed-in player, or for a club by its owner or an admin
(its members only may then register).  Registration is open while it is scheduled; it starts
at its start time (the services' sweep) or earlier when its organiser starts it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from taash.bots import LEVELS
from taash.games import CLASSES, game_class
from taash.games.base import RecordError
from taash.server.errors import BadRequest, Conflict, Forbidden, NotFound
from taash.server.store.db import PlayerRow, Store
from taash.server.store.tournaments import EntrantRow, TournamentRow, TournamentStore
from taash.server.tournaments.shapes import TournamentJson, TournamentsList

NAME_MAX = 64
MAX_ROUNDS = 15
MAX_MINUTES = 24 * 60
MAX_ENTRANTS = 512
MAX_AHEAD_S = 90 * 86400  # a tournament starts within 90 days
TIMER_MIN_S, TIMER_MAX_S = 0.05, 3 * 86400
LIST_LIMIT = 50
KINDS = ("swiss", "arena")
# how far behind spectators see a tournament's tables (tables.watch's delays; "none" is not
# offered: a tournament table is rated, and issue 48 keeps rated tables behind)
WATCHED = ("trick", "deal", "hidden")


class ClubRoles(Protocol):
    """What the tournaments ask of the clubs (``clubs.service.Clubs`` is one)."""

    async def member(self, club_id: str, player_id: str, *roles: str) -> tuple[object, str]:
        """The player's role in the open club, which must be one of ``roles`` (any, if none);
        the refusal if not."""

    async def visible(self, club_id: str, player_id: str | None,
                      token: str | None = None) -> tuple[object, str | None]:
        """The club, if the player may see it; NotFound if not."""


def partnered(game: str) -> bool:
    """Whether the game's entrants are pairs of partners (two seats a side)."""
    return len(game_class(game).teams[0]) == 2


def ends_at(t: TournamentRow) -> float | None:
    if t.kind != "arena":
        return None
    return (t.started if t.started is not None else t.starts) + 60 * t.minutes


def members(e: EntrantRow) -> list[str]:
    return [p for p in (e.player_id, e.partner_id) if p is not None]


class Tournaments:
    """Tournaments and their entrants; the clock is given so tests can move it."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.base = store
        self.store = TournamentStore(store)
        self.clock = clock
        self.clubs: ClubRoles | None = None

    def json(self, t: TournamentRow, entrants: int, registered: bool) -> TournamentJson:
        now = self.clock()
        return {"id": t.id, "name": t.name, "kind": t.kind, "game": t.game,
                "options": t.options, "rounds": t.rounds, "minutes": t.minutes,
                "starts": t.starts, "ends": ends_at(t),
                "seconds_to_start": (round(max(0.0, t.starts - now), 3)
                                     if t.state == "scheduled" else None),
                "state": t.state, "round": t.round, "organiser": t.organiser,
                "club": t.club_id, "turn_timer_s": t.turn_timer_s,
                "partners": partnered(t.game), "entrants": entrants, "registered": registered,
                "spectator_delay": t.spectator_delay}

    async def tournament(self, tournament_id: str) -> TournamentRow:
        t = await self.store.get(tournament_id) if len(tournament_id) <= 24 else None
        if t is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        return t

    async def create(self, me: PlayerRow, name: str, kind: str, game: str, options: object,
                     rounds: int, minutes: int, starts: float, turn_timer_s: float,
                     club_id: str | None, spectator_delay: str = "deal") -> TournamentJson:
        """A new tournament; BadRequest saying what is wrong, and nothing made.
        ``spectator_delay``: how far behind spectators see its tables (trick, deal, or hidden:
        not at all while a game is played), the organiser's choice."""
        if spectator_delay not in WATCHED:
            raise BadRequest(f"spectator_delay: one of {', '.join(WATCHED)}")
        text = name.strip()
        if not text or len(text) > NAME_MAX or not text.isprintable():
            raise BadRequest(f"name: 1 to {NAME_MAX} printable characters")
        if kind not in KINDS:
            raise BadRequest(f"kind: one of {', '.join(KINDS)}")
        if game not in CLASSES:  # every game of the core: a match between two sides
            raise BadRequest(f"game: one of {', '.join(CLASSES)}")
        try:
            opts = game_class(game).check_options(options, bounded=True)
        except RecordError as err:
            raise BadRequest(str(err)) from None
        if kind == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
            raise BadRequest(f"rounds: a Swiss tournament has 1 to {MAX_ROUNDS}")
        if kind == "arena" and not 1 <= minutes <= MAX_MINUTES:
            raise BadRequest(f"minutes: an arena lasts 1 to {MAX_MINUTES} minutes")
        now = self.clock()
        if not now - 60 <= starts <= now + MAX_AHEAD_S:
            raise BadRequest("starts: from now to 90 days ahead (Unix seconds)")
        if not TIMER_MIN_S <= turn_timer_s <= TIMER_MAX_S:
            raise BadRequest(f"turn_timer_s: {TIMER_MIN_S} to {TIMER_MAX_S:.0f} seconds")
        if club_id is not None:
            if self.clubs is None:
                raise NotFound(f"no club {club_id!r}")
            await self.clubs.member(club_id, me.id, "owner", "admin")
        t = TournamentRow(secrets.token_hex(6), text, kind, game, dict(opts),
                          rounds if kind == "swiss" else 0, minutes if kind == "arena" else 0,
                          max(starts, now), turn_timer_s, me.id, club_id, "scheduled", 0, now,
                          spectator_delay=spectator_delay)
        while not await self.store.create(t):  # an id drawn twice: draw again
            t.id = secrets.token_hex(6)
        return self.json(t, 0, False)

    async def seen(self, tournament_id: str, player_id: str | None) -> TournamentRow:
        """The tournament, if the player may see it: a club's to those who may see the club
        (to anyone else it is no tournament, as a private club is no club)."""
        t = await self.tournament(tournament_id)
        if t.club_id is not None and self.clubs is not None:
            try:
                await self.clubs.visible(t.club_id, player_id)
            except NotFound:
                raise NotFound(f"no tournament {tournament_id!r}") from None
        return t

    async def describe(self, tournament_id: str, player_id: str | None) -> TournamentJson:
        t = await self.seen(tournament_id, player_id)
        entrants = await self.store.entrants(t.id)
        mine = player_id is not None and any(player_id in members(e) for e in entrants)
        return self.json(t, len(entrants), mine)

    async def listing(self, player_id: str | None) -> TournamentsList:
        """Scheduled and running tournaments (a club's only for its members) and, for a
        player, those they entered."""
        current = await self.store.listing(("scheduled", "running"), LIST_LIMIT)
        mine = await self.store.of_player(player_id, LIST_LIMIT) if player_id else []
        counts = await self.store.counts([t.id for t in current + mine])
        mine_ids = {t.id for t in mine}
        shown = [t for t in current if t.club_id is None or t.id in mine_ids
                 or await self._is_member(t.club_id, player_id)]
        return {"tournaments": [self.json(t, counts.get(t.id, 0), t.id in mine_ids)
                                for t in shown],
                "mine": [self.json(t, counts.get(t.id, 0), True) for t in mine]}

    async def _is_member(self, club_id: str, player_id: str | None) -> bool:
        if player_id is None or self.clubs is None:
            return False
        try:
            await self.clubs.member(club_id, player_id)
        except (Forbidden, NotFound, Conflict):
            return False
        return True

    async def _open(self, tournament_id: str,
                    player_id: str) -> tuple[TournamentRow, list[EntrantRow]]:
        t = await self.seen(tournament_id, player_id)
        if t.state != "scheduled":
            raise Conflict(f"the tournament is {t.state}: registration is closed")
        return t, await self.store.entrants(t.id)

    async def register(self, tournament_id: str, me: PlayerRow,
                       partner_id: str | None) -> TournamentJson:
        """Enter, alone or (four-seat games) with a partner; one entry per player."""
        t, entrants = await self._open(tournament_id, me.id)
        if t.club_id is not None and self.clubs is not None:
            await self.clubs.member(t.club_id, me.id)
        if len(entrants) >= MAX_ENTRANTS:
            raise Conflict(f"the tournament is full ({MAX_ENTRANTS} entrants)")
        taken = {p for e in entrants for p in members(e)}
        if me.id in taken:
            raise Conflict("you are registered already (one entry per player)")
        name = me.name
        if partner_id is not None:
            if not partnered(t.game):
                raise BadRequest(f"{t.game} is played alone: no partner")
            if partner_id == me.id:
                raise BadRequest("partner: another player than you")
            partner = await self.base.player(partner_id[:24])
            if partner is None:
                raise NotFound(f"no player {partner_id!r}")
            if partner.id in taken:
                raise Conflict("your partner is registered already")
            if t.club_id is not None and self.clubs is not None:
                await self.clubs.member(t.club_id, partner.id)
            name = f"{me.name} & {partner.name}"
        row = EntrantRow(0, me.id, partner_id, None, name[:140], self.clock())
        if await self.store.add_entrant(t.id, row) is None:
            raise Conflict("you are registered already (one entry per player)")
        return await self.describe(t.id, me.id)

    async def unregister(self, tournament_id: str, me: PlayerRow) -> TournamentJson:
        """Leave before the start (either partner takes the pair out)."""
        t, entrants = await self._open(tournament_id, me.id)
        mine = next((e for e in entrants if me.id in members(e)), None)
        if mine is None:
            raise Conflict("you are not registered")
        await self.store.remove_entrant(t.id, mine.seed)
        return await self.describe(t.id, me.id)

    async def add_bot(self, tournament_id: str, me: PlayerRow, level: str) -> TournamentJson:
        """A bot entrant (the organiser's: to fill a field, or for practice)."""
        t, entrants = await self._open(tournament_id, me.id)
        self.organiser(t, me)
        if level not in LEVELS:
            raise BadRequest(f"level: one of {', '.join(LEVELS)}")
        if len(entrants) >= MAX_ENTRANTS:
            raise Conflict(f"the tournament is full ({MAX_ENTRANTS} entrants)")
        n = sum(e.bot is not None for e in entrants) + 1
        await self.store.add_entrant(t.id, EntrantRow(0, None, None, level,
                                                      f"Bot {n} ({level})", self.clock()))
        return await self.describe(t.id, me.id)

    async def pair_partners(self, tournament_id: str, me: PlayerRow,
                            seeds: Sequence[int]) -> TournamentJson:
        """The organiser makes two lone entrants one pair (four-seat games)."""
        t, entrants = await self._open(tournament_id, me.id)
        self.organiser(t, me)
        if not partnered(t.game):
            raise BadRequest(f"{t.game} is played alone: no pairs")
        by_seed = {e.seed: e for e in entrants}
        if len(seeds) != 2 or seeds[0] == seeds[1] or any(s not in by_seed for s in seeds):
            raise BadRequest("seeds: two different entrants' seeds")
        a, b = by_seed[seeds[0]], by_seed[seeds[1]]
        if a.partner_id or b.partner_id or a.bot or b.bot:
            raise Conflict("both must be players entered alone")
        await self.store.set_partner(t.id, a.seed, b, f"{a.name} & {b.name}"[:140])
        return await self.describe(t.id, me.id)

    @staticmethod
    def organiser(t: TournamentRow, me: PlayerRow) -> None:
        if t.organiser != me.id:
            raise Forbidden("only the tournament's organiser can do this")
