"""Friends, blocks and challenges (issue 28).

A player adds a friend by the friend's code (or the link holding it): that asks them, and the
friendship starts when they accept (or ask back).  Either may remove it; a player may block
another, which ends any friendship or request between them, withdraws open challenges between
them, and keeps the blocked player from joining the blocker's open tables (``Tables.join``).

A challenge goes to a friend, or in the four-player games to up to three friends, each in a
seat the challenger chose (the challenger sits in seat 0: seat 2 is the partner, 1 and 3 the
opponents; a friend alone goes to seat 1); the seats no friend takes are bots of the level
chosen (``easy`` unless told).  A game, its options, live or play-anytime; it stays open until
every invited friend has accepted, each on their own (the table is made at the last accept,
each friend bound to their seat), any of them declines (it ends for all), the challenger
withdraws it, or it expires (``LIVE_S`` for a live table, ``ANYTIME_S`` for play-anytime).

Online: a player whose friends list or challenges this process answered within ``ONLINE_S``
(the home page asks every few seconds while open); last seen: the later of that and their
sessions' last use (written at most hourly).  A new challenge shows on the friend's home page
(a toast when it next asks); a friend not online is told through the notice channels they
gave: the webhook of their seat at the table they last played with one, their confirmed
e-mail address (else that seat's), and the Web Push subscriptions they made for every table.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, NotRequired, Protocol

from typing_extensions import TypedDict

from taash.bots import LEVELS
from taash.games import GAMES
from taash.server.accounts.link import ALPHABET, CODE_LEN, normal
from taash.server.errors import BadRequest, Conflict, Forbidden, NotFound
from taash.server.store.friends import ChallengeRow, FriendStore, Invite, Link
from taash.server.store.rows import PlayerRow
from taash.server.tables import wire

if TYPE_CHECKING:
    from taash.server.notify.notifier import Notifier
    from taash.server.notify.push import Pusher
    from taash.server.social.profiles import Social
    from taash.server.store.db import Store
    from taash.server.tables.room import Room
    from taash.server.tables.service import Tables

ONLINE_S = 120.0
LIVE_S = 600.0
ANYTIME_S = 3 * 86400.0
ANSWERED_S = 86400.0  # an answered challenge is listed to its challenger a day past its expiry
MAX_OPEN = 10  # open challenges a player may have sent to one friend at a time


class FriendLink(TypedDict):
    """Another player in one's list: ``online`` (seen here lately), ``last_seen``."""

    player: str
    name: str
    since: str
    online: bool
    last_seen: str | None


class FriendsList(TypedDict):
    """One's friend code and link, and the players by the state of their link."""

    code: str
    url: str
    friends: list[FriendLink]
    asked: list[FriendLink]
    asking: list[FriendLink]
    blocked: list[FriendLink]


class FriendState(TypedDict):
    """A link's state now (null: there is none)."""

    player: str
    state: str | None


class Someone(TypedDict):
    player: str
    name: str


class Invited(Someone):
    seat: int
    state: str


# A challenge as the API shows it ("from" is a Python keyword: the functional form)
ChallengeJson = TypedDict("ChallengeJson", {
    "id": str, "from": Someone, "to": Someone, "invited": list[Invited], "bots": str,
    "game": str, "options": dict[str, object], "live": bool, "state": str, "created": str,
    "expires": str, "table": str | None})


class Challenges(TypedDict):
    received: list[ChallengeJson]
    sent: list[ChallengeJson]
    answered: list[ChallengeJson]


class ChallengeAnswer(TypedDict):
    """A challenge declined or withdrawn (``id``, ``state``), accepted and waiting for the
    other invited friends (``seat``, ``waiting``, no table yet), or accepted and started
    (the table, the seat's ``token`` and ``url``)."""

    id: str
    state: str
    seat: NotRequired[int]
    table: NotRequired[str | None]
    token: NotRequired[str]
    url: NotRequired[str]
    waiting: NotRequired[list[str]]


def _new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


class Host(Protocol):
    """What friends and challenges need of the process (``tables.hub.Hub`` is one)."""

    @property
    def store(self) -> Store: ...

    @property
    def social(self) -> Social: ...

    @property
    def tables(self) -> Tables: ...

    @property
    def push(self) -> Pusher: ...

    @property
    def notifier(self) -> Notifier: ...

    @property
    def public_url(self) -> str: ...

    async def room(self, table_id: str) -> Room: ...

    async def meta_changed(self, room: Room) -> None: ...


class Friends:
    def __init__(self, hub: Host) -> None:
        self.hub = hub
        self.store = FriendStore(hub.store)
        self.active: dict[str, float] = {}  # player -> when this process last answered them

    def seen(self, player_id: str) -> None:
        self.active[player_id] = time.time()

    def link_json(self, k: Link, now: float) -> FriendLink:
        mine = self.active.get(k.player_id)
        last = max(x for x in (mine, k.last_seen, 0.0) if x is not None)
        return {"player": k.player_id, "name": k.name, "since": wire.iso(k.since),
                "online": mine is not None and now - mine < ONLINE_S,
                "last_seen": wire.iso(last) if last else None}

    async def listing(self, me: PlayerRow) -> FriendsList:
        self.seen(me.id)
        now = time.time()
        code = await self.store.code_of(me.id, _new_code())
        links = await self.store.links(me.id)

        def state(name: str) -> list[FriendLink]:
            return [self.link_json(k, now) for k in links if k.state == name]

        return {"code": code, "url": f"/friend/{code}", "friends": state("friends"),
                "asked": state("asked"), "asking": state("asking"), "blocked": state("blocked")}

    async def add(self, me: PlayerRow, code: object) -> FriendState:
        raw = normal(code)
        other = await self.store.player_of_code(raw) if raw is not None else None
        if other is None:
            raise NotFound("no player has that friend code")
        if other == me.id:
            raise BadRequest("that is your own friend code")
        state = await self.store.ask(me.id, other, time.time())
        if state == "blocked":
            raise Forbidden("you cannot add this player")
        return {"player": other, "state": state}

    async def accept(self, me: PlayerRow, other: str) -> FriendState:
        _, theirs = await self.store.states(me.id, other)
        if theirs != "asked":
            raise Conflict("this player has not asked to be your friend")
        return {"player": other, "state": await self.store.ask(me.id, other, time.time())}

    async def ask_player(self, me: PlayerRow, other: str) -> FriendState:
        """Ask a player by their id (the "Add friend" of their profile)."""
        if other == me.id:
            raise BadRequest("you cannot add yourself")
        if await self.hub.social.store.player(other) is None:
            raise NotFound(f"no player {other!r}")
        state = await self.store.ask(me.id, other, time.time())
        if state == "blocked":
            raise Forbidden("you cannot add this player")
        return {"player": other, "state": state}

    # -- challenges ------------------------------------------------------------------------
    async def _seating(self, me: PlayerRow, game: str, to: str | None,
                       seats: dict[int, str] | None) -> list[Invite]:
        """The invited friends and their seats, checked: friends of the challenger, each in
        one seat of the game's (never seat 0, the challenger's), no two who blocked each
        other."""
        n = GAMES[game].num_seats
        if (to is None) == (seats is None):
            raise BadRequest("name the friend (`to`) or the friends by seat (`seats`), not both")
        plan = {1: to} if to is not None else dict(seats or {})
        if not plan:
            raise BadRequest("seats: name at least one friend")
        for seat in plan:
            if not 1 <= seat < n:
                raise BadRequest(f"seats: {seat} is not a seat for a friend at {game} "
                                 f"(1 to {n - 1}; seat 0 is yours)")
        ids = list(plan.values())
        if len(set(ids)) != len(ids):
            raise BadRequest("seats: a friend can take one seat only")
        if me.id in ids:
            raise BadRequest("seats: seat 0 is yours; name your friends in the others")
        for p in ids:
            mine, theirs = await self.store.states(me.id, p)
            if mine != "friends" or theirs != "friends":
                raise Forbidden("you can challenge your friends only")
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                if "blocked" in await self.store.states(a, b):
                    raise Forbidden("these friends cannot all sit at one table")
        return [Invite(p, seat) for seat, p in sorted(plan.items())]

    async def challenge(self, me: PlayerRow, to: str | None, game: str, options: object,
                        live: bool, seats: dict[int, str] | None = None,
                        bots: str | None = None) -> ChallengeJson:
        if game not in GAMES:
            raise BadRequest(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        try:
            opts = GAMES[game].check_options(options)
        except ValueError as e:
            raise BadRequest(str(e)) from None
        level = bots or "easy"
        if level not in LEVELS:
            raise BadRequest(f"bots: unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        invites = await self._seating(me, game, to, seats)
        now = time.time()
        open_ = await self.store.challenges_of(me.id, now)
        for i in invites:
            if sum(c.from_id == me.id and c.invite_of(i.player_id) is not None
                   for c in open_) >= MAX_OPEN:
                raise Conflict(f"you have {MAX_OPEN} open challenges to this friend: wait for "
                               "an answer, or withdraw one")
        c = ChallengeRow(secrets.token_urlsafe(12), me.id, invites[0].player_id, game, opts,
                         live, "open", now, now + (LIVE_S if live else ANYTIME_S), None,
                         tuple(invites), level)
        await self.store.add_challenge(c)
        out = await self.challenge_json(c)
        for i in invites:
            seen = self.active.get(i.player_id)
            if seen is None or now - seen >= ONLINE_S:  # away: through their notice channels
                await self._tell(me, c, i.player_id, out["expires"])
        return out

    async def _tell(self, me: PlayerRow, c: ChallengeRow, to: str, expires: str) -> None:
        webhook, email = await self.store.channels(to)
        url = f"{self.hub.public_url}/"
        what = "live" if c.live else "play-anytime"
        self.hub.notifier.send(
            webhook, email,
            {"type": "challenge", "challenge": c.id, "table": None, "from": me.name,
             "game": c.game, "live": c.live, "expires": expires, "url": url},
            f"taash: {me.name} challenges you ({c.game})",
            f"{me.name} challenges you to {c.game} ({what}).\n\n"
            f"Accept or decline on your home page: {url}\n")
        self.hub.push.challenge(to, c.id, me.name, c.game, c.live)

    async def challenge_json(self, c: ChallengeRow) -> ChallengeJson:
        names = {}
        for p in c.people():
            found = await self.hub.social.store.player(p)
            names[p] = found[0] if found is not None else "deleted player"
        return {"id": c.id, "from": {"player": c.from_id, "name": names[c.from_id]},
                "to": {"player": c.to_id, "name": names.get(c.to_id, "deleted player")},
                "invited": [{"player": i.player_id, "name": names[i.player_id], "seat": i.seat,
                             "state": i.state} for i in c.invites],
                "bots": c.bots, "game": c.game,
                "options": c.options, "live": c.live, "state": c.state,
                "created": wire.iso(c.created), "expires": wire.iso(c.expires),
                "table": c.table_id}

    async def challenges(self, me: PlayerRow) -> Challenges:
        self.seen(me.id)
        rows = await self.store.challenges_of(me.id, time.time())
        return {"received": [await self.challenge_json(c) for c in rows
                             if c.invite_of(me.id) is not None],
                "sent": [await self.challenge_json(c) for c in rows if c.from_id == me.id],
                # the challenger's challenges answered lately, so their page can tell them
                # "Dima accepted: open the table" (issue 43)
                "answered": [await self.challenge_json(c) for c in
                             await self.store.answered_of(me.id, time.time() - ANSWERED_S)]}

    async def answer(self, me: PlayerRow, challenge_id: str, accept: bool) -> ChallengeAnswer:
        c = await self.store.challenge(challenge_id)
        mine = c.invite_of(me.id) if c is not None else None
        if c is None or (mine is None and me.id != c.from_id):
            raise NotFound(f"no challenge {challenge_id!r}")
        if accept and mine is None:
            raise Forbidden("only the challenged player accepts a challenge")
        now = time.time()
        gone = Conflict("this challenge is no longer open (answered, withdrawn or expired)")
        if not accept:
            state = "declined" if mine is not None else "withdrawn"
            if not await self.store.close_challenge(c.id, state, now,
                                                    me.id if mine is not None else None):
                raise gone
            return {"id": c.id, "state": state}
        assert mine is not None
        if not await self.store.accept_invite(c.id, me.id, now):
            if c.state == "open" and mine.state == "accepted" and c.expires > now:
                raise Conflict("you have accepted this challenge already: the table starts "
                               "when every invited friend has")
            raise gone
        if not await self.store.start_if_ready(c.id):
            after = await self.store.challenge(c.id) or c
            return {"id": c.id, "state": after.state, "seat": mine.seat, "table": None,
                    "waiting": [i.player_id for i in after.invites if i.state == "open"]}
        found = await self.hub.social.store.player(c.from_id)
        if found is None:
            raise Conflict("the player who challenged you has left")
        challenger = PlayerRow(c.from_id, found[0], "en", found[1])
        seated = {i.seat: i.player_id for i in c.invites}
        n = GAMES[c.game].num_seats
        specs: list[dict[str, str | None]] = [
            {"type": "human"} if s == 0 or s in seated else {"type": "bot", "level": c.bots}
            for s in range(n)]
        t, tokens = await self.hub.tables.create(c.game, c.options, specs, c.live, False,
                                                 None, None, None, player=challenger)
        for seat, p in seated.items():
            who = await self.hub.social.store.player(p)
            await self.hub.store.update_seat(t.id, seat, player_id=p,
                                             name=who[0] if who else None, claimed=True)
        room = await self.hub.room(t.id)
        await room.reload_meta()
        await self.hub.meta_changed(room)
        await self.store.set_table(c.id, t.id)
        return {"id": c.id, "state": "accepted", "table": t.id, "seat": mine.seat,
                "token": tokens[mine.seat], "url": f"/t/{t.id}?seat={mine.seat}",
                "waiting": []}
