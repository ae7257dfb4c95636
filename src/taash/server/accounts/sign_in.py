"""Signing in: what every way in shares (a passkey, an e-mail link, a device-link code).

Each sign-in rotates the browser's session: the old one ends (its streams and sockets too) and
a new one, with a new id and secret, takes its cookie.  When the browser was a guest's with
tables, the new session remembers that guest until the player answers the page's question
"Bring these tables into your account?": yes moves the guest's seats to the account, save at
a table where the account sits too (a player holds one seat at a table: that table stays the
guest's, and the answer says so); no leaves them with the guest.

Sign-in attempts are limited per client address and, for e-mail, per address written
(``Attempts``; a refusal says how long to wait, and the answer's Retry-After the seconds).
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING

from typing_extensions import TypedDict

from taash.server.accounts.players import (
    SESSION_S,
    EmailMethod,
    MeJson,
    PasskeyMethod,
    Who,
    me,
    secret_hash,
)
from taash.server.errors import BadRequest, RateLimited
from taash.server.store.db import PlayerRow, SessionRow
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.accounts.players import Players
    from taash.server.config import Settings
    from taash.server.notify.notifier import Notifier
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus

MAX_KEYS = 50_000  # a limiter forgets everyone past this many clients (memory stays bounded)


class SignedIn(TypedDict):
    """A browser signed in: its player, its new session's id, and the tables its guest has
    (``guest_tables``; ``shared_tables`` of them where the player sits too) to ask about."""

    player: MeJson
    session: str
    guest_tables: int
    shared_tables: int


class Refused(TypedDict):
    id: str
    reason: str


class Merged(TypedDict):
    """The guest's tables merged, and those that stay the guest's (``refused``, why);
    ``left``: the answer was no."""

    merged: list[str]
    refused: list[Refused]
    left: bool


class Attempts:
    """Attempts per key (a client address, an e-mail address): a burst, then one every
    ``every`` seconds.  ``every`` 0: no limit."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst = float(max(1, burst))
        self.every = every
        self.keys: dict[str, tuple[float, float]] = {}

    def wait(self, key: str) -> float:
        """Take an attempt for ``key``: 0 if allowed, else the seconds until the next is."""
        if self.every <= 0:
            return 0.0
        now = time.monotonic()
        tokens, last = self.keys.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) / self.every)
        if len(self.keys) > MAX_KEYS:
            self.keys.clear()
        if tokens < 1:
            self.keys[key] = (tokens, now)
            return (1 - tokens) * self.every
        self.keys[key] = (tokens - 1, now)
        return 0.0

    def check(self, key: str, what: str) -> None:
        """RateLimited ("too many {what}: try again in N seconds") past the limit."""
        wait = self.wait(key)
        if wait > 0:
            raise RateLimited(f"too many {what}: try again in {max(1, round(wait))} seconds",
                              retry_after=wait)


class SignIn:
    """Session rotation, the guest-merge question and the sign-in limits of one process."""

    def __init__(self, settings: Settings, store: Store, players: Players, notifier: Notifier,
                 bus: Bus) -> None:
        self.store, self.players, self.notifier, self.bus = store, players, notifier, bus
        on = settings.rate_limit > 0  # off with the request rate limit (tests, benches)

        def limit(burst: int, every: float) -> Attempts:
            return Attempts(burst, every if on else 0.0)

        # per client address: passkey sign-ins and the challenges they ask for, e-mail links
        # asked for and opened; per e-mail address: links sent to it
        self.passkey_tries = limit(10, 6.0)
        self.challenges = limit(30, 2.0)
        self.email_requests = limit(5, 60.0)
        self.email_opens = limit(10, 6.0)
        self.mails_to = limit(3, 300.0)

    async def methods(self, p: PlayerRow) -> list[PasskeyMethod | EmailMethod]:
        """The player's ways to sign in: passkeys (removable) and a confirmed address."""
        out: list[PasskeyMethod | EmailMethod] = [
            {"type": "passkey", "id": k.credential_id, "name": k.name,
             "created": iso(k.created), "last_used": iso(k.last_used) if k.last_used else None}
            for k in await self.store.passkeys_of(p.id)]
        if p.email:
            out.append({"type": "email", "address": p.email})
        return out

    async def me(self, p: PlayerRow, session: SessionRow | None = None) -> MeJson:
        """``GET /api/me`` with the sign-in methods filled in; with the request's session, the
        guest tables still waiting for the merge question's answer (0: none), so a page
        loaded before the question was answered asks it again."""
        out = me(p)
        methods = await self.methods(p)
        out["sign_in_methods"] = methods
        out["guest"] = not methods
        out["email_available"] = self.notifier.smtp is not None
        if session is not None:
            waiting = 0
            if session.guest_id is not None:
                waiting = len({r["id"] for r in
                               await self.store.player_tables(session.guest_id)})
            out["guest_tables_waiting"] = waiting
        return out

    async def become(self, who: Who | None, player_id: str,
                     user_agent: str | None) -> tuple[SignedIn, str]:
        """Sign the browser of session ``who`` (None: it has none) in as ``player_id``: the
        answer and the new session's secret (for the cookie).  The old session ends."""
        store = self.store
        now = time.time()
        guest_tables = shared = 0
        guest_id = None
        if who is not None and who.player.id != player_id and not await self.methods(who.player):
            theirs = {str(r["id"]) for r in await store.player_tables(who.player.id)}
            if theirs:
                mine = {str(r["id"]) for r in await store.player_tables(player_id)}
                guest_tables, shared = len(theirs - mine), len(theirs & mine)
                guest_id = who.player.id
        secret = secrets.token_urlsafe(32)
        s = SessionRow(secrets.token_urlsafe(12), player_id, now, now, now + SESSION_S,
                       (user_agent or "")[:300] or None, guest_id)
        await store.sign_in_session(who.session.id if who else None, s, secret_hash(secret), now)
        if who is not None:  # its streams and sockets end, here and on every instance
            self.players.end_session(who.session.id)
            await self.bus.publish({"k": "revoked", "s": who.session.id})
        found = await store.session_of(secret_hash(secret), now)
        if found is None:  # the account was deleted meanwhile
            raise BadRequest("that account is no more")
        return ({"player": await self.me(found[1]), "session": s.id,
                 "guest_tables": guest_tables, "shared_tables": shared}, secret)

    async def merge(self, who: Who, merge: bool) -> Merged:
        """The answer to "Bring these tables into your account?" on a browser just signed in."""
        guest = who.session.guest_id
        store = self.store
        if guest is None:
            raise BadRequest("no guest tables on this device wait for an answer")
        if not merge:
            await store.forget_guest(who.session.id)
            return {"merged": [], "refused": [], "left": True}
        done = await store.merge_guest(who.session.id, guest, who.player.id)
        if done is None:
            raise BadRequest("no guest tables on this device wait for an answer")
        merged, refused = done
        if merged:
            await self.players.rename_seats(who.player.id, who.player.name)
        return {"merged": merged, "left": False,
                "refused": [{"id": t, "reason": "you sit at this table already, in another "
                             "seat: a player holds one seat at a table, so it stays the "
                             "guest's"} for t in refused]}
