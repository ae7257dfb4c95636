"""Personal API tokens: a player's programs act for them with ``Authorization: Bearer
taash_pat_...`` on every table where they hold a seat (the lichess bot API's model).

A token is ``taash_pat_`` and 32 random bytes (URL-safe base64), shown once when made; the
store keeps its sha256.  Scopes: ``read`` (the seat's view, its stream, the record) and
``play`` (acting too, and making and joining tables as the player).  A revoked token stops at
once: every request looks it up, and its open streams and sockets are closed here and, through
the bus, on every instance.  Its last use is written at most once a minute.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from typing_extensions import TypedDict

from taash.server.accounts.players import TOKEN_KEY, clean_name, secret_hash
from taash.server.errors import BadRequest, Forbidden, NotFound, Unauthorized
from taash.server.store.db import PlayerRow
from taash.server.store.tokens import TokenRow, TokenStore
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.accounts.players import Players
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus

PREFIX = "taash_pat_"
SCOPES = ("play", "read")
TOUCH_S = 60.0  # last_used is written at most this often per token
MAX_TOKENS = 50  # live tokens per player


def is_personal(token: str | None) -> bool:
    """Whether a bearer token is a personal API token (else a seat token)."""
    return bool(token) and token.startswith(PREFIX)  # type: ignore[union-attr]


def watch_key(token_id: str) -> str:
    """The key a token's live connections are kept under (beside sessions' ids)."""
    return f"{TOKEN_KEY}{token_id}"


def clean_scopes(raw: Sequence[str]) -> tuple[str, ...]:
    got = set(raw)
    bad = sorted(got - set(SCOPES))
    if bad:
        raise BadRequest(f"unknown scope {bad[0]!r}: scopes are play and read")
    if not got:
        raise BadRequest("a token needs a scope: play, read or both")
    return tuple(s for s in SCOPES if s in got)


@dataclass(frozen=True)
class Holder:
    """The player a personal token acts for, and the token."""

    player: PlayerRow
    token: TokenRow

    def can(self, scope: str) -> bool:
        # play includes read: a program that plays a seat must see it
        return scope in self.token.scopes or (scope == "read" and "play" in self.token.scopes)

    def need(self, scope: str) -> None:
        if not self.can(scope):
            raise Forbidden(f"this token's scope is {' '.join(self.token.scopes)}: "
                            f"this needs a token with the {scope} scope")


class TokenJson(TypedDict):
    """A personal API token as the API shows it (never the token itself)."""

    id: str
    name: str
    scopes: list[str]
    created: str
    last_used: str | None


class NewToken(TokenJson):
    """A token just made: ``token`` is shown this once."""

    token: str


def token_json(t: TokenRow) -> TokenJson:
    return {"id": t.id, "name": t.name, "scopes": list(t.scopes), "created": iso(t.created),
            "last_used": iso(t.last_used) if t.last_used is not None else None}


class Tokens:
    """Personal API tokens, as the HTTP layer reaches them."""

    def __init__(self, store: Store, players: Players, bus: Bus) -> None:
        self.store = TokenStore(store)
        self.players, self.bus = players, bus

    async def create(self, player: PlayerRow, name: object,
                     scopes: Sequence[str]) -> NewToken:
        """A new token of the player's: its fields and, this once, the token itself."""
        label = clean_name(name)
        sc = clean_scopes(scopes)
        if len(await self.store.of_player(player.id)) >= MAX_TOKENS:
            raise BadRequest(f"at most {MAX_TOKENS} tokens: revoke one first")
        token = PREFIX + secrets.token_urlsafe(32)
        row = TokenRow(secrets.token_urlsafe(9), player.id, label, sc, time.time(), None)
        await self.store.create(row, secret_hash(token))
        return {**token_json(row), "token": token}

    async def listed(self, player: PlayerRow) -> list[TokenJson]:
        return [token_json(t) for t in await self.store.of_player(player.id)]

    async def revoke(self, player: PlayerRow, token_id: str) -> None:
        if not await self.store.revoke(player.id, token_id[:40], time.time()):
            raise NotFound(f"no token {token_id!r} of yours")
        key = watch_key(token_id)
        self.players.end_session(key)  # its streams and sockets, here and everywhere
        await self.bus.publish({"k": "revoked", "s": key})

    async def resolve(self, token: str) -> Holder:
        """The live token's holder; Unauthorized if it is unknown or revoked."""
        if len(token) > 100:
            raise Unauthorized("unknown or revoked personal token")
        found = await self.store.live(secret_hash(token))
        if found is None:
            raise Unauthorized("unknown or revoked personal token")
        row, player = found
        now = time.time()
        if row.last_used is None or now - row.last_used >= TOUCH_S:
            await self.store.touch(row.id, now)
            row = TokenRow(row.id, row.player_id, row.name, row.scopes, row.created, now)
        return Holder(player, row)
