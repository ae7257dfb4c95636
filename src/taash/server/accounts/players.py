"""Players: a guest from the first visit, with a generated name they can change, and the
sessions (signed-in browsers) that act for them.

A session's secret lives only in the browser's cookie; the store keeps its sha256, so a copy
of the database signs nobody in.  Sessions slide: each use after ``TOUCH_S`` pushes the expiry
a year on; a revoked or expired one is no session at all.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NotRequired

from typing_extensions import TypedDict

from taash.server.errors import BadRequest, NotFound, RateLimited
from taash.server.http.guard import TokenBuckets
from taash.server.store.db import PlayerRow, SessionRow
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus
    from taash.server.tables.feed import Subscriber
    from taash.server.tables.room import Room

LANGUAGES = ("en", "hi", "ur", "ru")
NAME_MAX = 24
SESSION_S = 365 * 86400.0  # a session lasts a year after its last use
TOUCH_S = 3600.0  # last seen (and the expiry) is written at most this often per session

ADJECTIVES = ("Brave", "Calm", "Clever", "Quick", "Lucky", "Merry", "Bold", "Gentle", "Sly",
              "Bright", "Swift", "Wise", "Jolly", "Keen", "Proud", "Quiet", "Sunny", "Witty")
ANIMALS = ("Otter", "Tiger", "Falcon", "Panda", "Heron", "Fox", "Lynx", "Mongoose", "Parrot",
           "Peacock", "Camel", "Dolphin", "Gazelle", "Koel", "Yak", "Badger", "Owl", "Crane")

# the characters a name may not hold besides controls: those that reorder or hide the text
# around them (a name could otherwise disguise itself or the words after it)
_HIDDEN = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F,
                            0x061C, 0xFEFF, 0x00AD)}


def guest_name() -> str:
    """A readable name for a new guest: "Brave Otter 42"."""
    return (f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)} "
            f"{secrets.randbelow(90) + 10}")


def clean_name(raw: object) -> str:
    """A player's name as given: plain text, trimmed, 1 to 24 characters, no control or
    direction characters (BadRequest, saying which rule, otherwise)."""
    if not isinstance(raw, str):
        raise BadRequest("name must be text")
    name = unicodedata.normalize("NFC", raw).strip()
    if not name:
        raise BadRequest("name must not be empty")
    if len(name) > NAME_MAX:
        raise BadRequest(f"name must be at most {NAME_MAX} characters, not {len(name)}")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs", "Co", "Cn") or ch in _HIDDEN:
            raise BadRequest(f"name must not hold control characters (U+{ord(ch):04X})")
    return name


def clean_language(raw: object) -> str:
    if raw not in LANGUAGES:
        raise BadRequest(f"language must be one of {', '.join(LANGUAGES)}, not {raw!r}")
    assert isinstance(raw, str)
    return raw


def language_of(accept_language: str | None) -> str:
    """The first of the page's languages the browser asks for; English otherwise."""
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class PasskeyMethod(TypedDict):
    """A passkey of the player's, a way to sign in (removable)."""

    type: Literal["passkey"]
    id: str
    name: str | None
    created: str
    last_used: str | None


class EmailMethod(TypedDict):
    """The player's confirmed address, a way to sign in."""

    type: Literal["email"]
    address: str


class MeJson(TypedDict):
    """``GET /api/me``: the player as they see themselves.  ``guest`` (no way to sign in
    yet), ``email_available`` and ``guest_tables_waiting`` where the answer is /api/me's;
    ``country`` after a change of it; ``puzzle_consent``: their finished deals may become
    puzzles (docs/puzzles.md "Mined on the server")."""

    id: str
    name: str
    language: str
    created: str
    sign_in_methods: list[PasskeyMethod | EmailMethod]
    guest: NotRequired[bool]
    email_available: NotRequired[bool]
    guest_tables_waiting: NotRequired[int]
    country: NotRequired[str | None]
    puzzle_consent: bool


class SessionJson(TypedDict):
    """A live session (a browser): ``current``: the request's own."""

    id: str
    device: str | None
    created: str
    last_seen: str
    expires: str
    current: bool


@dataclass(frozen=True)
class Who:
    """The player a request's session acts for, and that session."""

    player: PlayerRow
    session: SessionRow


#: the key of an API token's live connections in ``Players.live``, before the token's id (a
#: session's connections are kept under the session's id)
TOKEN_KEY = "pat:"


class Players:
    """Players and sessions, as the HTTP layer reaches them."""

    def __init__(self, settings: Settings, store: Store, bus: Bus, rooms: Mapping[str, Room],
                 my_row: Callable[[Mapping[str, object]], dict[str, object]]) -> None:
        self.store, self.bus, self.rooms, self.my_row = store, bus, rooms, my_row
        # new guests per address: a twentieth of the request rate (one a second by default),
        # with half its burst; off with the rate limit
        s = settings
        self.new_guests = TokenBuckets(s.rate_limit / 20, s.rate_burst / 2)
        # the live connections (streams, sockets) opened here by each session's cookie
        self.live: dict[str, set[Subscriber]] = {}

    def watch(self, session_id: str, sub: Subscriber) -> None:
        self.live.setdefault(session_id, set()).add(sub)

    def unwatch(self, session_id: str, sub: Subscriber) -> None:
        subs = self.live.get(session_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.live[session_id]

    def end_session(self, session_id: str) -> None:
        """Close the live connections here that a (now revoked) session opened."""
        for sub in self.live.pop(session_id, set()):
            sub.ended = True
            sub.wake.set()

    async def recheck(self) -> list[str]:
        """The bus was away here, or another instance could not publish for a while: a
        revocation said meanwhile never came.  The live connections of the sessions and API
        tokens revoked (or expired, or gone) since are ended now; the keys ended."""
        keys = list(self.live)
        if not keys:
            return []
        tokens = {k: k.removeprefix(TOKEN_KEY) for k in keys if k.startswith(TOKEN_KEY)}
        sessions = [k for k in keys if k not in tokens]
        live = await self.store.still_live(sessions, list(tokens.values()), time.time())
        ended = [k for k in keys if tokens.get(k, k) not in live]
        for k in ended:
            self.end_session(k)
        return ended

    async def guest(self, user_agent: str | None, accept_language: str | None,
                    address: str = "?") -> tuple[Who, str]:
        """A new guest player and their first session; and the session's secret (for the
        cookie: it is stored only hashed).  RateLimited if this address made too many."""
        if not self.new_guests.allow(address):
            raise RateLimited("too many new players from this address: try again in a minute")
        now = time.time()
        p = PlayerRow(secrets.token_urlsafe(12), guest_name(), language_of(accept_language),
                      now)
        secret = secrets.token_urlsafe(32)
        s = SessionRow(secrets.token_urlsafe(12), p.id, now, now, now + SESSION_S,
                       (user_agent or "")[:300] or None)
        await self.store.create_player(p, s, secret_hash(secret))
        return Who(p, s), secret

    async def resolve(self, secret: str | None) -> Who | None:
        """The live session of a cookie's secret (None: none, revoked or expired); its last
        use is recorded now and then, which slides its expiry."""
        if not secret or len(secret) > 100:
            return None
        now = time.time()
        found = await self.store.session_of(secret_hash(secret), now)
        if found is None:
            return None
        s, p = found
        if now - s.last_seen > TOUCH_S:
            await self.store.touch_session(s.id, now, now + SESSION_S)
            s = SessionRow(s.id, s.player_id, s.created, now, now + SESSION_S, s.user_agent)
        return Who(p, s)

    async def update(self, who: Who, name: object | None, language: object | None,
                     puzzle_consent: bool | None = None) -> PlayerRow:
        """Change the player's name, language or "my finished deals may become puzzles"
        (each None: unchanged); the player as they are now."""
        p = who.player
        new = PlayerRow(p.id, p.name if name is None else clean_name(name),
                        p.language if language is None else clean_language(language),
                        p.created, p.email,
                        p.puzzle_consent if puzzle_consent is None else puzzle_consent)
        values: dict[str, str | bool] = {}
        for key, given in (("name", name), ("language", language),
                           ("puzzle_consent", puzzle_consent)):
            if given is not None:
                values[key] = getattr(new, key)
        if values:
            await self.store.update_player(p.id, **values)
        if new.name != p.name:
            await self.rename_seats(p.id, new.name)
        return new

    async def rename_seats(self, player_id: str, name: str) -> None:
        """The player's seats at unfinished tables take the new name (finished ones keep the
        name they were played under); every instance's rooms are told."""
        for table_id in await self.store.rename_seats(player_id, name):
            room = self.rooms.get(table_id)
            if room is not None:
                await room.reload_meta()
            await self.bus.publish({"k": "meta", "t": table_id})

    async def tables(self, who: Who) -> list[dict[str, object]]:
        """Every table with a seat of theirs, with whose turn it is."""
        return [self.my_row(r) for r in await self.store.player_tables(who.player.id)]

    async def sessions(self, who: Who) -> list[SessionJson]:
        return [{"id": s.id, "device": s.user_agent, "created": iso(s.created),
                 "last_seen": iso(s.last_seen), "expires": iso(s.expires),
                 "current": s.id == who.session.id}
                for s in await self.store.sessions_of(who.player.id, time.time())]

    async def revoke(self, who: Who, session_id: str) -> None:
        if not await self.store.revoke_session(who.player.id, session_id[:40], time.time()):
            raise NotFound(f"no session {session_id!r} of yours")
        self.end_session(session_id)  # its streams and sockets, here and on every instance
        await self.bus.publish({"k": "revoked", "s": session_id})


def me(p: PlayerRow) -> MeJson:
    """``GET /api/me``: the player as they see themselves."""
    return {"id": p.id, "name": p.name, "language": p.language, "created": iso(p.created),
            "sign_in_methods": [], "puzzle_consent": p.puzzle_consent}
