"""The events service: create events (a host's, or each game's daily one on demand), list them,
enter, close (docs/events.md).  Playing a board is ``taash.server.events.play``.

An event's secret is drawn from the OS when it is made and never changes; its commitment
(SHA-256 of the secret) is shown from then on, before anyone enters, and the secret itself only
once the event has closed (its closing time passed, or its host closed it early).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from typing_extensions import TypedDict

from taash import fair
from taash.games import CLASSES, game_class
from taash.games.base import RecordError
from taash.server.errors import BadRequest, Conflict, Forbidden, NotFound
from taash.server.events.boards import (
    ENTRANT,
    board_actions,
    board_table,
    deal_board,
    robots_move,
)
from taash.server.store.db import Store
from taash.server.store.events import BoardRow, EventRow, EventStore

MAX_BOARDS = 24
MAX_LENGTH_S = 31 * 86400  # an event is open a month at most
DAILY_BOARDS = 4
LIST_LIMIT = 50


class TodayJson(TypedDict):
    """A line of the home page's feed: today's (UTC) event of a game, made or not yet."""

    id: str
    game: str
    entrants: int
    closes: float
    entered: bool


class EventJson(TypedDict):
    id: str
    game: str
    options: dict[str, object]
    boards: int
    opens: float
    closes: float
    daily: bool
    host: str | None
    state: str  # "upcoming", "open" or "closed"
    scheme: str
    commit: str
    secret: str | None  # only once closed
    entrants: int
    entered: bool


def is_closed(e: EventRow, now: float) -> bool:
    return e.closed is not None or now >= e.closes


def state_of(e: EventRow, now: float) -> str:
    if is_closed(e, now):
        return "closed"
    return "upcoming" if now < e.opens else "open"


def first_board(e: EventRow, player_id: str) -> BoardRow:
    """Board 1's row as an entrant reaches it: the robots' moves before the entrant's first."""
    return reached_board(e, player_id, 1)


def reached_board(e: EventRow, player_id: str, board: int) -> BoardRow:
    state = deal_board(e.game, e.options, e.id, board, e.secret)
    robots_move(state, board_table(e.id, board))
    assert ENTRANT in state.actors()  # a deal never ends before the entrant acts
    return BoardRow(e.id, player_id, board, board_actions(state))


class Gate(Protocol):
    """Who else decides on events (the clubs: a club's event is entered by its members only,
    and is not in the public listing); given by the services' composition."""

    async def may_enter(self, event_id: str, player_id: str) -> None:
        """Raise the refusal if the player may not enter the event."""

    async def unlisted(self, event_ids: Sequence[str]) -> set[str]:
        """Those of these events the public listing leaves out."""


class Events:
    """Events and entries; the clock is given so tests can pass a closing time."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = EventStore(store)
        self.clock = clock
        self.gate: Gate | None = None

    def json(self, e: EventRow, entrants: int, entered: bool) -> EventJson:
        now = self.clock()
        closed = is_closed(e, now)
        return {"id": e.id, "game": e.game, "options": e.options, "boards": e.boards,
                "opens": e.opens, "closes": e.closes, "daily": e.daily, "host": e.host,
                "state": state_of(e, now), "scheme": fair.SCHEME, "commit": fair.commit(e.secret),
                "secret": e.secret if closed else None, "entrants": entrants,
                "entered": entered}

    async def event(self, event_id: str) -> EventRow:
        e = await self.store.get(event_id) if len(event_id) <= 40 else None
        if e is None:
            raise NotFound(f"no event {event_id!r}")
        return e

    async def describe(self, event_id: str, player_id: str | None) -> EventJson:
        e = await self.event(event_id)
        n = (await self.store.entrants([e.id])).get(e.id, 0)
        entered = player_id is not None and await self.store.entered(e.id, player_id)
        return self.json(e, n, entered)

    async def create(self, host: str, game: str, options: object, boards: int, opens: float,
                     closes: float) -> EventJson:
        """A host's event; BadRequest saying what is wrong, and nothing made."""
        try:
            opts = game_class(game).check_options(options, bounded=True)
        except RecordError as err:
            raise BadRequest(str(err)) from None
        if not 1 <= boards <= MAX_BOARDS:
            raise BadRequest(f"boards: must be 1 to {MAX_BOARDS}")
        now = self.clock()
        if not opens < closes:
            raise BadRequest("closes: must be after opens")
        if closes <= now:
            raise BadRequest("closes: must be in the future")
        if closes - opens > MAX_LENGTH_S:
            raise BadRequest("an event is open 31 days at most")
        e = EventRow(secrets.token_hex(5), game, dict(opts), boards, opens, closes,
                     secrets.token_bytes(32).hex(), host, False, None, now)
        while not await self.store.create(e):  # an id drawn twice: draw again
            e.id = secrets.token_hex(5)
        return self.json(e, 0, False)

    def _today(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC).replace(hour=0, minute=0, second=0,
                                                                 microsecond=0)

    async def today(self, player_id: str | None) -> list[TodayJson]:
        """The feed of the home page: today's (UTC) event of each game and how many entered
        it (none yet where nobody has asked for it: it is made on the first ask).  Reads
        only: it makes no event."""
        day = self._today()
        ids = {f"daily-{game}-{day:%Y%m%d}": game for game in CLASSES}
        kept = {e.id: e for e in await self.store.many(list(ids))}
        counts = await self.store.entrants(list(kept))
        mine = (set(await self.store.entered_of(list(kept), player_id))
                if player_id is not None and kept else set())
        closes = (day + timedelta(days=1)).timestamp()
        return [{"id": event_id, "game": game, "entrants": counts.get(event_id, 0),
                 "closes": kept[event_id].closes if event_id in kept else closes,
                 "entered": event_id in mine}
                for event_id, game in ids.items()]

    async def daily(self, game: str, player_id: str | None) -> EventJson:
        """Today's (UTC) event of a game, made by whoever asks first."""
        if game not in CLASSES:
            raise NotFound(f"no daily event of {game!r} (games: {', '.join(CLASSES)})")
        now = self.clock()
        day = self._today()
        event_id = f"daily-{game}-{day:%Y%m%d}"
        if await self.store.get(event_id) is None:
            opens = day.timestamp()
            closes = (day + timedelta(days=1)).timestamp()
            await self.store.create(EventRow(
                event_id, game, dict(game_class(game).check_options(None)), DAILY_BOARDS,
                opens, closes, secrets.token_bytes(32).hex(), None, True, None, now))
            # two asking at once: one row is kept, and both read it below
        return await self.describe(event_id, player_id)

    async def listing(self, player_id: str | None) -> dict[str, list[EventJson]]:
        """Events open or to come (``events``) and, for a player, those they entered
        (``mine``, past ones too)."""
        now = self.clock()
        current = await self.store.recent(now, LIST_LIMIT)
        mine = await self.store.of_player(player_id, LIST_LIMIT) if player_id else []
        counts = await self.store.entrants([e.id for e in current + mine])
        mine_ids = {e.id for e in mine}
        hidden = (await self.gate.unlisted([e.id for e in current])
                  if self.gate is not None else set())
        return {"events": [self.json(e, counts.get(e.id, 0), e.id in mine_ids)
                           for e in current if e.closed is None
                           and (e.id not in hidden or e.id in mine_ids)],
                "mine": [self.json(e, counts.get(e.id, 0), True) for e in mine]}

    async def enter(self, event_id: str, player_id: str) -> EventJson:
        """One entry per player, while the event is open."""
        e = await self.event(event_id)
        if self.gate is not None:
            await self.gate.may_enter(e.id, player_id)
        state = state_of(e, self.clock())
        if state != "open":
            raise Conflict(f"the event is {state}: it cannot be entered now")
        if not await self.store.enter(e.id, player_id, self.clock(), first_board(e, player_id)):
            raise Conflict("you have entered this event already (one entry per player)")
        return await self.describe(e.id, player_id)

    async def close(self, event_id: str, player_id: str) -> EventJson:
        """The host closes the event now: its secret is published."""
        e = await self.event(event_id)
        if e.host is None or e.host != player_id:
            raise Forbidden("only the event's host can close it (a daily event closes at "
                            "midnight UTC)")
        await self.store.close(e.id, self.clock())
        return await self.describe(e.id, player_id)
