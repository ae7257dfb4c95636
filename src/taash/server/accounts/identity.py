"""Who a request acts for, as the tables ask it (``tables.access.Callers``): a personal API
token's holder, the session cookie's player, the live connections a token's or a session's
revoking closes, and the rule a name follows.  The app serves it as ``identity``."""

from __future__ import annotations

from fastapi import Request, WebSocket

from taash.server.accounts.me import cookie_player
from taash.server.accounts.players import Players, Who, clean_name
from taash.server.accounts.tokens import Holder, Tokens, is_personal, watch_key
from taash.server.config import Settings
from taash.server.tables.access import Holder as AnyHolder
from taash.server.tables.connections import Subscriber


class Identity:
    """The accounts' answers to who calls, over the players and the personal tokens."""

    def __init__(self, players: Players, tokens: Tokens) -> None:
        self.players, self.tokens = players, tokens

    def is_personal(self, token: str | None) -> bool:
        return is_personal(token)

    async def holder(self, token: str) -> Holder:
        """The live token's holder; Unauthorized if it is unknown or revoked."""
        return await self.tokens.resolve(token)

    async def cookie_player(self, request: Request | WebSocket,
                            settings: Settings) -> Who | None:
        return await cookie_player(request, settings)

    def watch_key(self, holder: AnyHolder) -> str:
        return watch_key(holder.token.id)

    def watch(self, key: str, sub: Subscriber) -> None:
        self.players.watch(key, sub)

    def unwatch(self, key: str, sub: Subscriber) -> None:
        self.players.unwatch(key, sub)

    def clean_name(self, raw: object) -> str:
        return clean_name(raw)
